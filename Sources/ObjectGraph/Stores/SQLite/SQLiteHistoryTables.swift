import Foundation
import GRDB

/// The persistent history tables (``RelationalHistorySchema``) in a SQLite file: whether they
/// are there, how wide `ACHANGE` is, and making what is missing. These read SQLite's own
/// catalog (`sqlite_master`, `pragma_table_info`), which PostgreSQL spells otherwise.
enum SQLiteHistoryTables {
    /// Whether the store has the history tables.
    static func exists(_ db: Database) throws -> Bool {
        try Int.fetchOne(
            db,
            sql:
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('ATRANSACTION', 'ACHANGE', 'ATRANSACTIONSTRING')"
        ) == 3
    }

    /// The tombstone columns `ACHANGE` has, in order.
    static func tombstoneColumns(_ db: Database) throws -> Int {
        let names = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('ACHANGE')")
        var n = 0
        while names.contains("ZTOMBSTONE\(n)") { n += 1 }
        return n
    }

    /// Creates the history tables and their `Z_PRIMARYKEY` rows where the store has none, and
    /// adds tombstone columns the model now needs; inside the caller's transaction.
    static func ensureTables(_ db: Database, model: ManagedObjectModel) throws {
        let wanted = RelationalHistorySchema.tombstoneColumnCount(for: model)
        if try !exists(db) {
            for statement in RelationalHistorySchema.creationStatements(tombstoneColumns: wanted) {
                try db.execute(sql: statement)
            }
        } else {
            // A model that preserves more attributes than the store has columns for: Core
            // Data adds columns too; the existing rows keep NULL in them.
            let have = try tombstoneColumns(db)
            for n in have..<max(have, wanted) {
                try db.execute(sql: "ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(n) BLOB")
            }
        }
        for (number, name) in RelationalHistorySchema.primaryKeyRows {
            try db.execute(
                sql: "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                arguments: [number, name])
        }
    }
}
