import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

// Apple, NSMigrationManager: the third pass validates the destination objects; a migration
// whose new objects break the destination model fails with the validation error and writes
// no destination store. reference/migration.md 3.3. On SQLite and on PostgreSQL (``StoreKind``).
@Suite struct MigrationValidationTests {
    static func models() throws -> (ManagedObjectModel, ManagedObjectModel) {
        let source = try ManagedObjectModel { EntityDescription("Note") { AttributeDescription("text", .string) } }
        let destination = try ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string, optional: false, maxValue: 10) }
        }
        return (source, destination)
    }

    /// A source store with one note per text.
    func sourceStore(_ kind: StoreKind, _ directory: TemporaryDirectory, texts: [String?]) throws
        -> PersistentStoreDescription?
    {
        guard let store = try kind.newStore(in: directory, name: "Notes.sqlite") else { return nil }
        let context = try MigrationStores.context(store, model: try Self.models().0)
        for text in texts {
            try context.insertNewObject(forEntityName: "Note").checkedSetValue(text, forKey: "text")
        }
        try context.save()
        return store
    }

    @Test(
        arguments: StoreKind.allCases,
        [
            ([nil, "fine"] as [String?], 1570), // a required value left nil
            (["far too long for ten"] as [String?], 1660), // longer than the maximum length
            ([nil, "far too long for ten"] as [String?], 1560), // several: each in detailedErrors
        ])
    func invalidDestinationObjectsStopTheMigration(kind: StoreKind, example: ([String?], Int)) throws {
        let (texts, code) = example
        let directory = try TemporaryDirectory()
        guard let source = try sourceStore(kind, directory, texts: texts),
            let destination = try kind.newStore(in: directory, name: "Migrated.sqlite")
        else { return }
        let (from, to) = try Self.models()
        let manager = MigrationManager(sourceModel: from, destinationModel: to)
        let error = #expect(throws: CoreDataError.self) {
            try manager.migrateStore(
                from: MigrationStores.url(source), type: kind.storeType,
                with: MappingModel.defaultMappingModel(forSourceModel: from, destinationModel: to),
                to: MigrationStores.url(destination), type: kind.storeType)
        }
        #expect(error?.code?.rawValue == code, "\(error.map { "\($0)" } ?? "no error")")
        if code == 1560 { #expect(error?.detailedErrors.compactMap(\.code?.rawValue).sorted() == [1570, 1660]) }
        #expect(!(try MigrationStores.exists(destination)))
        // The source store is as it was: it opens with its own model and holds every note.
        let notes = try MigrationStores.context(source, model: from).fetch(FetchRequest(entityName: "Note"))
        #expect(Set(try notes.map { try $0.checkedValue(forKey: "text") as? String }) == Set(texts))
    }

    // Also a regression test: an entity without relationships once kept the temporary IDs of
    // its migrated objects, so pass three looked for rows that did not exist.
    @Test(arguments: StoreKind.allCases) func validObjectsMigrate(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try sourceStore(kind, directory, texts: ["one", "two"]),
            let destination = try kind.newStore(in: directory, name: "Migrated.sqlite")
        else { return }
        let (from, to) = try Self.models()
        try MigrationManager(sourceModel: from, destinationModel: to).migrateStore(
            from: MigrationStores.url(source), type: kind.storeType,
            with: MappingModel.defaultMappingModel(forSourceModel: from, destinationModel: to),
            to: MigrationStores.url(destination), type: kind.storeType)
        #expect(try MigrationStores.context(destination, model: to).count(for: FetchRequest(entityName: "Note")) == 2)
    }
}
