import Foundation
import GRDB

/// The SQLite store's persistent history: the tables made at open, and the history request's
/// reads and purges. Recording happens inside each save (SQLiteStore.apply).
extension SQLiteStore: PersistentHistoryStore {
    /// Makes the history tables where a store opened with tracking has none yet (a new store,
    /// or one made without tracking), and the tombstone columns the model needs; looks first
    /// and writes only when something is missing.
    func prepareHistoryTables() throws {
        let wanted = RelationalHistorySchema.tombstoneColumnCount(for: model)
        let ready = try CoreDataError.mappingSQLite("Reading the persistent history tables of the store at", url) {
            try database.read { db in
                try SQLiteHistoryTables.exists(db) && SQLiteHistoryTables.tombstoneColumns(db) >= wanted
            }
        }
        guard !ready else { return }
        try CoreDataError.mappingSQLite(
            "Creating the persistent history tables (NSPersistentHistoryTrackingKey) of the store at", url
        ) {
            try database.write { db in try SQLiteHistoryTables.ensureTables(db, model: model) }
        }
    }

    /// Records rows written without objects (a batch insert, update or delete run as SQL) as
    /// one persistent history transaction, inside the caller's open transaction `db`, as
    /// Apple records batch requests; does nothing when the store does not track history.
    ///
    /// - Parameters:
    ///   - updated: each row with the names of the properties the statement set.
    ///   - deleted: each row with ``tombstoneValues(of:db:)``, read before the row went.
    func recordHistory(
        inserted: [ManagedObjectID], updated: [(id: ManagedObjectID, changedProperties: [String])],
        deleted: [(id: ManagedObjectID, tombstone: [DatabaseValue])],
        transaction: HistoryTransactionInfo = HistoryTransactionInfo(), db: Database
    ) throws {
        guard tracksHistory else { return }
        func number(_ id: ManagedObjectID) throws -> Int {
            guard let mapping = schema.entities[id.entityName] else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "\(id.uriString) is of no entity of the store at \(url.path); its change cannot be recorded in persistent history"
                )
            }
            return mapping.entityNumber
        }
        var record = HistoryRecord()
        record.inserted = try inserted.map { (try number($0), $0.primaryKey) }
        record.updated = try updated.map { (try number($0.id), $0.id.primaryKey, $0.changedProperties) }
        record.deleted = try deleted.map { (try number($0.id), $0.id.primaryKey, $0.tombstone) }
        try SQLiteHistoryRecorder.record(record, info: transaction, model: model, db: db, log: log)
    }

    /// The reader of this store's history, on a connection.
    private func historyReader(_ db: Database) throws -> RelationalHistoryReader {
        RelationalHistoryReader(
            statements: SQLiteBatchStatements(db: db, log: log, logsQueries: false),
            tombstoneColumns: try SQLiteHistoryTables.tombstoneColumns(db),
            model: model, storeIdentifier: identifier, storeName: url.path)
    }

    /// The condition on `ATRANSACTION t` of a request's boundary, and its arguments; nil when
    /// it selects nothing.
    private func condition(_ boundary: PersistentHistoryChangeRequest.Boundary) -> (String, [DatabaseValue])? {
        RelationalHistoryReader.condition(boundary, storeIdentifier: identifier)
    }

    func fetchHistory(_ boundary: PersistentHistoryChangeRequest.Boundary, withChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        guard let (sql, arguments) = condition(boundary) else { return [] }
        return try CoreDataError.mappingSQLite("Fetching the persistent history of the store at", url) {
            try database.read { db in
                guard try SQLiteHistoryTables.exists(db) else { return [] }
                let reader = try historyReader(db)
                try reader.checkTokenNotExpired(boundary)
                return try reader.transactions(where: sql, arguments, withChanges: withChanges)
            }
        }
    }

    func deleteHistory(_ boundary: PersistentHistoryChangeRequest.Boundary, withChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        guard let (sql, arguments) = condition(boundary) else { return [] }
        if isReadOnly { throw readOnlyError("delete persistent history") }
        return try CoreDataError.mappingSQLite("Deleting the persistent history of the store at", url) {
            try database.write { db in
                guard try SQLiteHistoryTables.exists(db) else { return [] }
                let doomed = try historyReader(db).transactions(where: sql, arguments, withChanges: withChanges)
                let values = StatementArguments(arguments)
                try db.execute(
                    sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(sql))",
                    arguments: values)
                try db.execute(
                    sql: "DELETE FROM ATRANSACTION WHERE Z_PK IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(sql))",
                    arguments: values)
                return doomed
            }
        }
    }

    func lastTransactionNumber() throws -> Int64? {
        try CoreDataError.mappingSQLite("Reading the persistent history token of the store at", url) {
            try database.read { db in
                guard try SQLiteHistoryTables.exists(db) else { return nil }
                return try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ATRANSACTION")
            }
        }
    }
}
