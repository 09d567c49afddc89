import Foundation
import GRDB
import ObjectGraph
import Testing

/// CoreDataPlus's Cover and Content (SampleModel2_V1): archives of its test classes, which a
/// Linux app reads through transformers it registers, as here. They come back as
/// ``KeyedArchive/ArchivedObject``s with their `text` field.
final class CoreDataPlusArchiveTransformer: SecureUnarchiveFromDataTransformer, @unchecked Sendable {
    override class var allowedTopLevelClassNames: Set<String> {
        KeyedArchive.secureCodingClassNames.union(["CoreDataPlus_Tests.Cover", "Content"])
    }
}

// Acceptance: every store Apple's Core Data wrote (fixtures/apple-stores, on copies) opens here
// without migration, and every object, attribute value and relationship ObjectGraph reads
// matches what the test's own SQL reads from the tables (RawStore): counts per entity, dates,
// decimals, UUIDs, URIs, binary data, transformable values, to-one, to-many and many-to-many.
@Suite struct AppleStoreContentsTests {
    static func registerTransformers() {
        ValueTransformer.setValueTransformer(CoreDataPlusArchiveTransformer(), forName: "CoreDataPlusArchive")
    }

    /// A transformable column as the test reads it: Foundation's NSKeyedUnarchiver for the
    /// Foundation classes, and for an archived object of another class the strings its archive
    /// holds (read with PropertyListSerialization).
    static func rawTransformable(_ data: Data) throws -> Any? {
        if let decoded = try? KeyedArchiveTests.foundationDecode(data) { return decoded }
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let objects = try #require(plist["$objects"] as? [Any])
        return objects.dropFirst().compactMap { $0 as? String }
    }

    /// Whether ObjectGraph's value of a transformable attribute is what the raw data holds.
    static func sameTransformable(_ mine: Any?, _ raw: Any?) -> Bool {
        if let object = mine as? KeyedArchive.ArchivedObject, let strings = raw as? [String] {
            return strings.contains(object.fields["text"] as? String ?? "\u{0}")
        }
        return KeyedArchiveTests.same(raw, mine)
    }

    /// Whether two attribute values are equal (Decimals compared as numbers).
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x as Decimal, let y as Decimal): return x == y
        case (let x as AnyHashable, let y as AnyHashable): return x == y
        default: return false
        }
    }

    @Test(arguments: AppleFixtures.storesWithModelFiles + [AppleFixtures.sampleModel2])
    func everyObjectValueAndRelationshipMatchesTheTables(_ store: AppleFixtures.Store) throws {
        if AppleFixtures.skipping() { return }
        Self.registerTransformers()
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let model = try AppleModelTests.model(of: store)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        // No migration options: the store opens as it is, or fails with 134100.
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let raw = try RawStore(url)
        defer { raw.close() }
        var objectsCompared = 0
        var valuesCompared = 0
        var linksCompared = 0
        for entity in model.entities {
            let rows = try raw.rows(of: entity, in: model)
            let request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            let objects = try context.fetch(request)
            #expect(
                objects.count == rows.count,
                "\(store): \(entity.name) has \(rows.count) rows, ObjectGraph fetched \(objects.count)")
            for object in objects {
                let key = object.objectID.primaryKey
                guard let row = rows[key] else {
                    Issue.record("\(store): \(entity.name) \(key) is not a row of its entity")
                    continue
                }
                objectsCompared += 1
                for a in entity.attributes where !a.isTransient {
                    let column = "Z" + a.name.uppercased()
                    let dbValue: DatabaseValue = row[column]
                    let mine = try object.checkedValue(forKey: a.name)
                    if a.attributeType == .transformable {
                        let rawValue = try (Data.fromDatabaseValue(dbValue)).map(Self.rawTransformable) ?? nil
                        #expect(
                            Self.sameTransformable(mine, rawValue),
                            "\(store): \(entity.name).\(a.name) of \(key): \(String(describing: mine)) vs \(String(describing: rawValue))"
                        )
                    } else {
                        let rawValue = RawStore.value(dbValue, type: a.attributeType)
                        #expect(
                            Self.same(mine, rawValue),
                            "\(store): \(entity.name).\(a.name) of \(key): \(String(describing: mine)) vs \(String(describing: rawValue))"
                        )
                    }
                    valuesCompared += 1
                }
                for r in entity.relationships where !r.isTransient {
                    let value = try object.checkedValue(forKey: r.name)
                    if r.isToMany {
                        let members =
                            (value as? Set<ManagedObject>).map(Array.init) ?? (value as? [ManagedObject]) ?? []
                        let expected = try raw.toManyKeys(of: key, entity: entity, relationship: r, model: model)
                        #expect(
                            Set(members.map(\.objectID.primaryKey)) == expected,
                            "\(store): \(entity.name).\(r.name) of \(key)")
                        linksCompared += expected.count
                    } else {
                        let rawKey = Int64.fromDatabaseValue(row["Z" + r.name.uppercased()])
                        #expect(
                            (value as? ManagedObject)?.objectID.primaryKey == rawKey,
                            "\(store): \(entity.name).\(r.name) of \(key)")
                        if rawKey != nil { linksCompared += 1 }
                    }
                }
            }
        }
        // Every row of every table of the model was an object of some entity.
        for table in Set(model.entities.map { RawStore.table(of: $0.name, in: model) }) {
            let total = try raw.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
            let counted = try model.entities.filter { RawStore.table(of: $0.name, in: model) == table }.reduce(0) {
                $0 + (try raw.rows(of: $1, in: model).count)
            }
            #expect(total == counted, "\(store): \(table) has rows of no entity")
        }
        print(
            "\(store): \(objectsCompared) objects, \(valuesCompared) values, \(linksCompared) relationship ends compared with the tables"
        )
    }

    @Test func rowsOnlyInTheWALAreRead() throws {
        if AppleFixtures.skipping() { return }
        Self.registerTransformers()
        // The rows the fixtures' README counts, which are only in the stores' -wal files.
        let expected: [(AppleFixtures.Store, [String: Int])] = [
            (AppleFixtures.storesWithModelFiles[3], ["Post": 84, "Color": 84]), // all in the -wal
            (AppleFixtures.storesWithModelFiles[4], ["JournalEntry": 5000]), // in the -wal, with the Mac's -shm
        ]
        for (store, counts) in expected {
            let directory = try TemporaryDirectory()
            let url = try AppleFixtures.copy(store, to: directory.url)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try AppleModelTests.model(of: store))
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            for (entity, count) in counts {
                #expect(try context.count(for: FetchRequest(entityName: entity)) == count, "\(store): \(entity)")
            }
        }
    }
}
