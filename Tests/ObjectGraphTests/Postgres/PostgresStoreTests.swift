import Foundation
import GRDB
import ObjectGraphPostgres
import TestSupport
import Testing

@testable import ObjectGraph

/// The PostgreSQL store's own behaviour: a store per schema laid out as Core Data lays out a
/// SQLite store, its metadata, its keys, its saves.
@Suite struct PostgresStoreTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
                AttributeDescription("price", .decimal)
            }
        }
    }

    /// A coordinator with a new PostgreSQL store, and the URL to open it again; nil without a server.
    static func store(_ model: ManagedObjectModel) throws -> (PersistentStoreCoordinator, PersistentStoreDescription)? {
        guard let url = try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema()) else { return nil }
        let description = PersistentStoreDescription.postgres(url: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: description)
        return (coordinator, description)
    }

    /// Rows of a statement run on the store's schema, for checking what the store wrote.
    static func query(_ description: PersistentStoreDescription, _ sql: String) throws -> PostgresWireResult {
        let wire = try PostgresWires.connector()(description.url!, 1, 10)
        defer { wire.close() }
        return try wire.withConnection { try $0.query(sql, []) }
    }

    // Core Data's SQLite layout ("Core Data Programming Guide"; reference/coredata.md 4): the
    // same tables and metadata, here in the store's schema.
    @Test func aNewStoreHasCoreDatasTablesAndMetadata() throws {
        let model = try Self.model()
        guard let (coordinator, description) = try Self.store(model) else { return }
        let store = try #require(coordinator.persistentStores.first)
        #expect(store.type == .postgres)
        #expect(store.metadata["NSStoreType"] as? String == "PostgreSQL")
        let hashes = try #require(store.metadata["NSStoreModelVersionHashes"] as? [String: Any])
        #expect(hashes["Book"] as? Data == model.entitiesByName["Book"]?.versionHash)
        let tables = try Self.query(
            description,
            "SELECT upper(table_name) FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")
        #expect(tables.values == ["ZBOOK", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"].map(\.databaseValue))
        // Opening it again reads the same store.
        let again = PersistentStoreCoordinator(managedObjectModel: model)
        let reopened = try again.addPersistentStore(with: StoreKind.sameStore(as: description))
        #expect(reopened.identifier == store.identifier)
    }

    // NSPersistentStoreIncompatibleVersionHashError (134100), as for a SQLite store.
    @Test func anotherModelIsRefusedWith134100() throws {
        guard let (_, description) = try Self.store(try Self.model()) else { return }
        let other = try ManagedObjectModel { EntityDescription("Book") { AttributeDescription("title", .string) } }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: other)
        let plain = StoreKind.sameStore(as: description)
        plain.shouldMigrateStoreAutomatically = false
        let error = #expect(throws: CoreDataError.self) { try coordinator.addPersistentStore(with: plain) }
        #expect(error?.code == .persistentStoreIncompatibleVersionHash)
    }

    @Test func aSaveWritesRowsWithKeysAndVersions() throws {
        guard let (coordinator, description) = try Self.store(try Self.model()) else { return }
        let context = ManagedObjectContext(coordinator: coordinator)
        for i in 1...3 {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("Book \(i)", forKey: "title")
            try book.checkedSetValue(i * 100, forKey: "pages")
            try book.checkedSetValue(Decimal(string: "12.5")!, forKey: "price")
        }
        try context.save()
        let rows = try Self.query(
            description, "SELECT Z_PK, Z_ENT, Z_OPT, ZTITLE, ZPAGES, ZPRICE FROM ZBOOK ORDER BY Z_PK")
        #expect(rows.rowCount == 3)
        let first: [DatabaseValue] = [
            1.databaseValue, 1.databaseValue, 1.databaseValue, "Book 1".databaseValue, 100.databaseValue,
            12.5.databaseValue,
        ]
        #expect(Array(rows.values.prefix(6)) == first)
        let max = try Self.query(description, "SELECT Z_MAX FROM Z_PRIMARYKEY")
        #expect(max.values == [3.databaseValue])
    }

    // PostgreSQL's text cannot hold NUL: the save says so and writes nothing.
    @Test func aStringWithNULIsRefusedAndNothingIsWritten() throws {
        guard let (coordinator, description) = try Self.store(try Self.model()) else { return }
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("fine", forKey: "title")
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("admin\0evil", forKey: "title")
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.message.contains("NUL") == true)
        #expect(try Self.query(description, "SELECT count(*) FROM ZBOOK").values == [0.databaseValue])
    }

    // Keys from Z_PRIMARYKEY never repeat, whoever asks (here two coordinators at once).
    @Test func keysAreNeverHandedOutTwice() throws {
        let model = try Self.model()
        guard let (first, description) = try Self.store(model) else { return }
        let second = PersistentStoreCoordinator(managedObjectModel: model)
        try second.addPersistentStore(with: StoreKind.sameStore(as: description))
        let entity = try #require(model.entitiesByName["Book"])
        let keys = Lock<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { i in
            let coordinator = i.isMultiple(of: 2) ? first : second
            let store = coordinator.persistentStores[0].backend
            if let batch = try? store.allocatePrimaryKeys(for: entity, count: 7, model: model) {
                keys.withLock { $0 += batch }
            }
        }
        let all = keys.withLock { $0 }
        #expect(all.count == 140)
        #expect(Set(all).count == 140)
        #expect(all.max() == 140)
    }

    @Test func aSchemaWithOtherTablesIsNotAStore() throws {
        guard let url = try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema()) else { return }
        PostgresStoreType.register()
        let wire = try PostgresWires.connector()(url, 1, 10)
        let schema = PostgresNames.schemaName(of: url)
        _ = try wire.withConnection { connection in
            _ = try connection.query("CREATE SCHEMA \(schema)", [])
            return try connection.query("CREATE TABLE \(schema).accounts (id bigint)", [])
        }
        wire.close()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let error = #expect(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(with: .postgres(url: url))
        }
        #expect(error?.message.contains("no Z_METADATA") == true)
    }
}
