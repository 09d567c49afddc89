import Testing
import Foundation
@testable import ObjectGraph

// Apple, NSMigrationManager: the third pass validates the destination objects; a migration
// whose new objects break the destination model fails with the validation error and writes
// no destination store. reference/migration.md 3.3.
@Suite struct MigrationValidationTests {
    static func models() throws -> (ManagedObjectModel, ManagedObjectModel) {
        let source = try ManagedObjectModel { EntityDescription("Note") { AttributeDescription("text", .string) } }
        let destination = try ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string, optional: false, maxValue: 10) }
        }
        return (source, destination)
    }

    /// A source store with one note per text.
    func sourceStore(_ directory: TemporaryDirectory, texts: [String?]) throws -> URL {
        let url = directory.file("Notes.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.models().0)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        for text in texts {
            try context.insertNewObject(forEntityName: "Note").setValue(text, forKey: "text")
        }
        try context.save()
        return url
    }

    @Test(arguments: [
        ([nil, "fine"] as [String?], 1570),            // a required value left nil
        (["far too long for ten"] as [String?], 1660), // longer than the maximum length
        ([nil, "far too long for ten"] as [String?], 1560), // several: each in detailedErrors
    ])
    func invalidDestinationObjectsStopTheMigration(texts: [String?], code: Int) throws {
        let directory = try TemporaryDirectory()
        let source = try sourceStore(directory, texts: texts)
        let (from, to) = try Self.models()
        let manager = MigrationManager(sourceModel: from, destinationModel: to)
        let destination = directory.file("Migrated.sqlite")
        let error = #expect(throws: CoreDataError.self) {
            try manager.migrateStore(from: source, type: .sqlite, with: MappingModel.defaultMappingModel(forSourceModel: from, destinationModel: to),
                                     to: destination, type: .sqlite)
        }
        #expect(error?.code?.rawValue == code, "\(error.map { "\($0)" } ?? "no error")")
        if code == 1560 { #expect(error?.detailedErrors.compactMap(\.code?.rawValue).sorted() == [1570, 1660]) }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        // The source store is as it was: it opens with its own model and holds every note.
        let coordinator = PersistentStoreCoordinator(managedObjectModel: from)
        try coordinator.addPersistentStore(type: .sqlite, at: source)
        let notes = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Note"))
        #expect(Set(try notes.map { try $0.value(forKey: "text") as? String }) == Set(texts))
    }

    // Also a regression test: an entity without relationships once kept the temporary IDs of
    // its migrated objects, so pass three looked for rows that did not exist.
    @Test func validObjectsMigrate() throws {
        let directory = try TemporaryDirectory()
        let source = try sourceStore(directory, texts: ["one", "two"])
        let (from, to) = try Self.models()
        let destination = directory.file("Migrated.sqlite")
        try MigrationManager(sourceModel: from, destinationModel: to).migrateStore(
            from: source, type: .sqlite, with: MappingModel.defaultMappingModel(forSourceModel: from, destinationModel: to),
            to: destination, type: .sqlite)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: to)
        try coordinator.addPersistentStore(type: .sqlite, at: destination)
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Note")) == 2)
    }
}
