import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import ObjectGraph

// SQLite, "Prepared Statement Objects" (sqlite3_prepare_v2, sqlite3_reset, sqlite3_stmt_status):
// a statement prepared once is reset and run again with new bindings. The SQLite store keeps
// the INSERT and UPDATE of each entity, and the primary-key allocation, prepared on its
// connection across saves (issue 17: "Statements are prepared once per connection and reused
// across saves"); these tests look at the connection's statements to check it.
@Suite struct SQLiteStatementReuseTests {
    /// The connection's prepared statements whose SQL starts with `prefix`, and how many times each ran.
    private func statements(_ store: SQLiteStore, prefix: String) -> [(handle: OpaquePointer, runs: Int32)] {
        store.database.inDatabase { db in
            var found: [(OpaquePointer, Int32)] = []
            var s = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let statement = s {
                if let sql = sqlite3_sql(statement).map({ String(cString: $0) }), sql.hasPrefix(prefix) {
                    found.append((statement, sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_RUN, 0)))
                }
                s = sqlite3_next_stmt(db.sqliteConnection, statement)
            }
            return found
        }
    }

    @Test(
        "The INSERT, UPDATE and key allocation of a save are prepared once and run again by the next saves (sqlite3_prepare_v2, sqlite3_reset)"
    )
    func savesReuseTheirStatements() throws {
        let directory = try TemporaryDirectory()
        let model = try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("salesRank", .integer32)
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Reuse.sqlite"))
        let store = try #require(coordinator.persistentStores.first?.backend as? SQLiteStore)
        let context = ManagedObjectContext(coordinator: coordinator)

        let first = try context.insertNewObject(forEntityName: "Book")
        try first.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
        try context.save()
        let inserts = statements(store, prefix: "INSERT INTO ZBOOK")
        #expect(inserts.count == 1)
        let insert = try #require(inserts.first)

        for k in 1...3 {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("Book \(k)", forKey: "title")
            try first.checkedSetValue(k, forKey: "salesRank")
            try context.save()
        }
        // Still one INSERT on the connection, the same one, run once per inserted row.
        let after = statements(store, prefix: "INSERT INTO ZBOOK")
        #expect(after.count == 1)
        #expect(after.first?.handle == insert.handle)
        #expect(after.first?.runs == 4)
        // The UPDATE of the changed object: one statement, run by each of the three saves.
        let updates = statements(store, prefix: "UPDATE ZBOOK")
        #expect(updates.count == 1)
        #expect(updates.first?.runs == 3)
        // Key allocation: one SELECT of Z_MAX, run by each of the four saves of new objects.
        let keys = statements(store, prefix: "SELECT Z_MAX FROM Z_PRIMARYKEY")
        #expect(keys.count == 1)
        #expect(keys.first?.runs == 4)

        // And the rows are what was saved.
        let titles = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Book"))
            .compactMap { try $0.checkedValue(forKey: "title") as? String }
        #expect(titles.sorted() == ["Book 1", "Book 2", "Book 3", "Fetch, Clarus, Fetch"])
    }

    @Test("A failed save leaves its statements reusable: the next save on the connection succeeds (sqlite3_reset)")
    func failedSaveDoesNotSpoilTheStatements() throws {
        let directory = try TemporaryDirectory()
        let model = try ManagedObjectModel {
            EntityDescription("Book") { AttributeDescription("price", .double) }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Failed.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue(1.5, forKey: "price")
        try context.save()
        // NaN is refused by the store (it would become NULL): the save fails, nothing is written.
        try book.checkedSetValue(Double.nan, forKey: "price")
        #expect(throws: CoreDataError.self) { try context.save() }
        try book.checkedSetValue(2.5, forKey: "price")
        try context.save()
        let stored = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Book"))
        #expect(stored.count == 1)
        #expect(try stored.first?.checkedValue(forKey: "price") as? Double == 2.5)
    }
}
