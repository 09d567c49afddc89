import Foundation
import GRDB
import GRDBSQLite

/// Writes persistent history rows (``RelationalHistorySchema``) into a SQLite file inside a
/// save's own transaction, binding values straight into SQLite's statement.
enum SQLiteHistoryRecorder {
    /// Records one transaction and its changes, in the open transaction of `db`; returns the
    /// transaction's number, or nil when there was nothing to record. The store's history
    /// tables must exist (``SQLiteHistoryTables/ensureTables(_:model:)``).
    ///
    /// This is the one entry point: a save calls it after writing its rows, and a batch
    /// insert, update or delete run as SQL calls it with the rows its statements touched, so
    /// that other processes see those changes in history too, as Apple records them.
    @discardableResult
    static func record(
        _ record: HistoryRecord, info: HistoryTransactionInfo, model: ManagedObjectModel, db: Database, log: SQLLog
    ) throws -> Int64? {
        guard !record.isEmpty else { return nil }
        let transaction = try allocateKeys(RelationalHistorySchema.transactionEntity, count: 1, db: db)
        let strings = try [info.author, info.bundleID, info.contextName, info.processID].map {
            try $0.map { try stringKey($0, db: db) }
        }
        let insertTransaction =
            "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)"
        let transactionValues: [DatabaseValue] =
            [transaction.databaseValue, RelationalHistorySchema.transactionEntity.databaseValue]
            + strings.map { $0?.databaseValue ?? .null } + [Date().timeIntervalSinceReferenceDate.databaseValue]
        log.statement(sql: insertTransaction, arguments: transactionValues)
        try db.execute(sql: insertTransaction, arguments: StatementArguments(transactionValues))

        let count = record.inserted.count + record.updated.count + record.deleted.count
        var key = try allocateKeys(RelationalHistorySchema.changeEntity, count: count, db: db)
        let tombstoneWidth = record.deleted.map(\.tombstone.count).max() ?? 0
        let tombstoneColumns = (0..<tombstoneWidth).map { ", ZTOMBSTONE\($0)" }.joined()
        let sql =
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneColumns)) VALUES (?, \(RelationalHistorySchema.changeEntity), NULL, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: tombstoneWidth)))"
        let statement = try db.cachedStatement(sql: sql)
        let logs = log.isEnabled
        // One row per changed object, thousands in a big save: values are bound straight
        // into SQLite, as SQLiteWriter binds the rows themselves, not built into arrays.
        let raw = statement.sqliteStatement
        func insert(
            _ type: PersistentHistoryChangeType, _ entity: Int, _ primaryKey: Int64, _ columns: Data?,
            _ tombstone: [DatabaseValue]
        ) throws {
            if logs {
                let values: [DatabaseValue] = [
                    key.databaseValue, type.rawValue.databaseValue, entity.databaseValue, primaryKey.databaseValue,
                    transaction.databaseValue, columns?.databaseValue ?? .null,
                ]
                log.statement(sql: sql, arguments: values + tombstone)
            }
            sqlite3_reset(raw)
            sqlite3_bind_int64(raw, 1, key)
            sqlite3_bind_int64(raw, 2, Int64(type.rawValue))
            sqlite3_bind_int64(raw, 3, Int64(entity))
            sqlite3_bind_int64(raw, 4, primaryKey)
            sqlite3_bind_int64(raw, 5, transaction)
            if let columns {
                _ = columns.withUnsafeBytes { sqlite3_bind_blob(raw, 6, $0.baseAddress, Int32($0.count), transient) }
            } else {
                sqlite3_bind_null(raw, 6)
            }
            for n in 0..<tombstoneWidth {
                bind(raw, Int32(7 + n), n < tombstone.count ? tombstone[n] : .null)
            }
            let code = sqlite3_step(raw)
            guard code == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            key += 1
        }
        for (entity, primaryKey) in record.inserted { try insert(.insert, entity, primaryKey, nil, []) }
        for (entity, primaryKey, properties) in record.updated {
            try insert(
                .update, entity, primaryKey,
                model.entitiesByNumber[entity].map { RelationalHistorySchema.propertyBitmap(properties, of: $0) },
                [])
        }
        for (entity, primaryKey, tombstone) in record.deleted {
            try insert(.delete, entity, primaryKey, nil, tombstone)
        }
        sqlite3_reset(raw)
        return transaction
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds a stored value (a tombstone's) as SQLite holds it.
    private static func bind(_ s: OpaquePointer, _ i: Int32, _ value: DatabaseValue) {
        switch value.storage {
        case .null: sqlite3_bind_null(s, i)
        case .int64(let v): sqlite3_bind_int64(s, i, v)
        case .double(let v): sqlite3_bind_double(s, i, v)
        case .string(let v):
            // With its byte length, so a NUL inside the string is kept, not a cut-off.
            var text = v
            text.withUTF8 { bytes in
                if let base = bytes.baseAddress {
                    _ = sqlite3_bind_text(
                        s, i, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
                } else {
                    _ = sqlite3_bind_text(s, i, "", 0, transient)
                }
            }
        case .blob(let v): _ = v.withUnsafeBytes { sqlite3_bind_blob(s, i, $0.baseAddress, Int32($0.count), transient) }
        }
    }

    /// Takes `count` keys from an entity's `Z_MAX` in `Z_PRIMARYKEY`; returns the first.
    private static func allocateKeys(_ entity: Int, count: Int, db: Database) throws -> Int64 {
        guard
            let current = try Int64.fetchOne(
                db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entity])
        else {
            throw CoreDataError(
                .persistentStoreIncompatibleSchema,
                "The store has no Z_PRIMARYKEY row \(entity) for its persistent history; it was not opened with NSPersistentHistoryTrackingKey"
            )
        }
        try db.execute(
            sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [current + Int64(count), entity])
        return current + 1
    }

    /// The key of a string in `ATRANSACTIONSTRING`, added the first time it is used.
    private static func stringKey(_ string: String, db: Database) throws -> Int64 {
        if let key = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?"), arguments: [string])
        {
            return key
        }
        let key = try allocateKeys(RelationalHistorySchema.stringEntity, count: 1, db: db)
        try db.execute(
            sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)",
            arguments: [key, RelationalHistorySchema.stringEntity, string])
        return key
    }
}
