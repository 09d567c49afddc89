import Foundation
import GRDB
import ObjectGraph
import Testing

/// A color stored as "r,g,b" text: a custom transformer, run forwards to save, as Core Data runs
/// every transformer outside the "unarchive from data" family.
final class RGBTransformer: ValueTransformer, @unchecked Sendable {
    override func transformedValue(_ value: Any?) -> Any? {
        guard let rgb = value as? [Int] else { return nil }
        return Data(rgb.map(String.init).joined(separator: ",").utf8)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, let text = String(data: data, encoding: .utf8) else { return nil }
        return text.split(separator: ",").compactMap { Int($0) }
    }
}

// Transformable attributes in the SQLite store: each value is the data its value transformer
// makes (a keyed archive for the default NSSecureUnarchiveFromData), read back through it.
@Suite struct TransformableValueTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Settings") {
                AttributeDescription("name", .string)
                AttributeDescription("preferences", .transformable) // the default transformer
                AttributeDescription(
                    "legacy", .transformable, valueTransformerName: "NSSecureUnarchiveFromDataTransformer")
                AttributeDescription("color", .transformable, valueTransformerName: "RGBTransformer")
            }
        }
    }

    @Test func valuesAreStoredAsTheirTransformersDataAndReadBack() throws {
        ValueTransformer.setValueTransformer(RGBTransformer(), forName: ValueTransformerName("RGBTransformer"))
        let directory = try TemporaryDirectory()
        let url = directory.file("Settings.sqlite")
        let preferences: [String: Any] = [
            "theme": "dark", "fontSize": 14, "recent": ["a", "b"], "since": Date(timeIntervalSinceReferenceDate: 3),
        ]
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            let settings = try context.insertNewObject(forEntityName: "Settings")
            try settings.checkedSetValue("main", forKey: "name")
            try settings.checkedSetValue(preferences, forKey: "preferences")
            try settings.checkedSetValue(["x", 1] as [Any], forKey: "legacy")
            try settings.checkedSetValue([255, 128, 0], forKey: "color")
            try context.save()
        }
        // The columns, read with plain SQL: a keyed archive Foundation reads, and the custom text.
        let queue = try DatabaseQueue(path: url.path)
        let (archive, legacy, color) = try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ZPREFERENCES, ZLEGACY, ZCOLOR FROM ZSETTINGS"))
            return (row[0] as Data, row[1] as Data, row[2] as Data)
        }
        try queue.close()
        let decoded = try #require(try KeyedArchiveTests.foundationDecode(archive) as? NSDictionary)
        #expect(decoded["theme"] as? String == "dark")
        #expect((decoded["fontSize"] as? NSNumber)?.intValue == 14)
        #expect(KeyedArchiveTests.same(try KeyedArchiveTests.foundationDecode(legacy), ["x", 1] as [Any]))
        #expect(String(data: color, encoding: .utf8) == "255,128,0")

        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let settings = try #require(try context.fetch(FetchRequest(entityName: "Settings")).first)
        #expect(KeyedArchiveTests.same(try settings.checkedValue(forKey: "preferences"), preferences))
        #expect(try settings.checkedValue(forKey: "color") as? [Int] == [255, 128, 0])
        // Dictionary results read them through the transformer too.
        let request = FetchRequest(entityName: "Settings")
        request.resultType = .dictionary
        request.propertiesToFetch = [.named("color"), .named("name")]
        let rows = try context.fetchDictionaries(request)
        #expect(rows.first?["color"] as? [Int] == [255, 128, 0])
    }

    @Test func aValueTheTransformerRefusesIsASaveErrorAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Settings.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let settings = try context.insertNewObject(forEntityName: "Settings")
        // A FetchRequest is no Foundation class NSSecureUnarchiveFromData allows.
        try settings.checkedSetValue(["bad": FetchRequest(entityName: "Settings")], forKey: "preferences")
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .persistentStoreSave)
        #expect(error?.key == "preferences")
        #expect(error?.message.contains("Settings.preferences of x-coredata://") == true, "\(error?.message ?? "")")
        #expect(try context.count(for: FetchRequest(entityName: "Settings")) == 1) // the unsaved insert only
        context.rollback()
        #expect(try context.count(for: FetchRequest(entityName: "Settings")) == 0)
    }

    @Test func anUnregisteredTransformerIsNamedInTheError() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Car") {
                AttributeDescription("color", .transformable, valueTransformerName: "NoSuchTransformer")
            }
        }
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Cars.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Car").checkedSetValue("red", forKey: "color")
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(
            error?.message.contains("no ValueTransformer is registered under the name NoSuchTransformer") == true,
            "\(error?.message ?? "")")
    }

    @Test func dataThatDoesNotUnarchiveIsAnErrorNamingTheRowNotNil() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Settings.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.insertNewObject(forEntityName: "Settings").checkedSetValue("main", forKey: "name")
            try context.save()
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "UPDATE ZSETTINGS SET ZPREFERENCES = x'00010203'") }
        try queue.close()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let error = #expect(throws: CoreDataError.self) { _ = try context.fetch(FetchRequest(entityName: "Settings")) }
        #expect(error?.key == "preferences")
        #expect(error?.message.contains("Settings.preferences of the row Z_PK = 1") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("not a keyed archive") == true)
    }

    @Test func theRegistryHasFoundationsTransformers() throws {
        let names = ValueTransformer.valueTransformerNames().map(\.rawValue)
        for name in [
            "NSSecureUnarchiveFromData", "NSKeyedUnarchiveFromData", "NSUnarchiveFromData", "NSNegateBoolean",
            "NSIsNil", "NSIsNotNil",
        ] {
            #expect(names.contains(name), "\(name)")
        }
        let negate = try #require(ValueTransformer.valueTransformer(forName: .negateBooleanTransformerName))
        #expect(negate.transformedValue(true) as? Bool == false)
        #expect(negate.reverseTransformedValue(false) as? Bool == true)
        let isNil = try #require(ValueTransformer.valueTransformer(forName: .isNilTransformerName))
        #expect(isNil.transformedValue(nil) as? Bool == true)
        #expect(isNil.reverseTransformedValue(nil) == nil) // one-way
        // A class name nothing is registered under finds the class, as Apple's lookup does.
        #expect(
            ValueTransformer.valueTransformer(forName: "NSSecureUnarchiveFromDataTransformer")
                is SecureUnarchiveFromDataTransformer)
        #expect(ValueTransformer.valueTransformer(forName: "NoSuchTransformer") == nil)
    }
}
