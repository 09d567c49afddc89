import Foundation
import GRDB

/// Persistent history in the PostgreSQL store: Core Data's history tables
/// (``RelationalHistorySchema``) in the store's schema, written inside each save's and batch
/// request's transaction, read by the same reader (``RelationalHistoryReader``).
///
/// Keys come from `Z_PRIMARYKEY` rows 16001 to 16003 with `UPDATE ... SET Z_MAX = Z_MAX + n
/// RETURNING Z_MAX`: the row stays locked until the transaction ends, so transactions of
/// several processes get their numbers in the order they commit, and history fetched after a
/// token never misses one that commits later with a smaller number.
///
/// Each recorded transaction also sends `NOTIFY` on the store's channel (delivered at commit,
/// dropped at rollback): other processes' stores LISTEN and post
/// ``PersistentStoreCoordinator/storeRemoteChangeNotification`` (see PostgresRemoteChanges).
/// History stays the record: the notification only wakes the reader.
extension PostgresStore: PersistentHistoryStore {
    /// Creates the history tables and their `Z_PRIMARYKEY` rows where the schema has none, and
    /// the tombstone columns the model needs; under the schema's advisory lock, so processes
    /// opening one store together create them once.
    func prepareHistoryTables() throws {
        let wanted = RelationalHistorySchema.tombstoneColumnCount(for: model)
        let ready = try withStatements("Reading the persistent history tables of") { statements in
            try historyTablesExist(statements) && tombstoneColumns(statements) >= wanted
        }
        guard !ready else { return }
        try inTransaction("Creating the persistent history tables (NSPersistentHistoryTrackingKey) of") { statements in
            _ = try statements.query(
                "SELECT pg_advisory_xact_lock(hashtext(?))", [("ObjectGraph " + schemaName).databaseValue])
            if try !historyTablesExist(statements) {
                for statement in RelationalHistorySchema.postgresCreationStatements(tombstoneColumns: wanted) {
                    try statements.query(statement, [])
                }
            } else {
                // A model that preserves more attributes than the store has columns for.
                let have = try tombstoneColumns(statements)
                for n in have..<max(have, wanted) {
                    try statements.query("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(n) bytea", [])
                }
            }
            for (number, name) in RelationalHistorySchema.primaryKeyRows {
                try statements.query(
                    "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0) ON CONFLICT (Z_ENT) DO NOTHING",
                    [number.databaseValue, name.databaseValue])
            }
        }
    }

    /// Whether the schema has the three history tables.
    private func historyTablesExist(_ statements: PostgresStatements) throws -> Bool {
        let result = try statements.query(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND upper(table_name) IN ('ATRANSACTION', 'ACHANGE', 'ATRANSACTIONSTRING')",
            [schemaName.databaseValue])
        return result.rowCount == 1 && Int.fromDatabaseValue(result[0, 0]) == 3
    }

    /// The tombstone columns `ACHANGE` has (`ZTOMBSTONE0` up without a gap).
    private func tombstoneColumns(_ statements: PostgresStatements) throws -> Int {
        let result = try statements.query(
            "SELECT upper(column_name) FROM information_schema.columns WHERE table_schema = ? AND upper(table_name) = 'ACHANGE'",
            [schemaName.databaseValue])
        let names = Set((0..<result.rowCount).compactMap { String.fromDatabaseValue(result[$0, 0]) })
        var n = 0
        while names.contains("ZTOMBSTONE\(n)") { n += 1 }
        return n
    }

    // MARK: Recording

    /// Records a save in persistent history, inside the save's transaction (`statements`),
    /// when the store tracks history; nothing otherwise.
    ///
    /// Contract for the save: call it in the save's transaction BEFORE the save writes any row
    /// (the deleted rows' preserved values and, for updates whose changes the save does not
    /// know, the stored values are read here), and let an error roll the transaction back. It
    /// records each insert, each update with the properties whose values change, and each
    /// delete with its tombstone; a deleted row that is already gone is left out, as the SQLite
    /// store leaves out a delete that removed nothing. It sends the store's NOTIFY, which
    /// PostgreSQL delivers at COMMIT (and drops at ROLLBACK).
    func recordHistory(_ changes: StoreChanges, transaction: HistoryTransactionInfo, statements: PostgresStatements)
        throws
    {
        guard tracksHistory, !changes.isEmpty else { return }
        var record = HistoryRecord()
        record.inserted = try changes.inserted.map { (try entityNumber(of: $0.entityName), $0.primaryKey) }
        for (k, (row, _)) in changes.updated.enumerated() {
            guard let entity = model.entitiesByName[row.entityName] else { continue }
            let plan = RelationalWritePlan(for: entity, schema: schema)
            let names: [String]
            if let properties = changes.properties(ofUpdate: k) {
                names = plan.changedProperties(properties, to: row, model: model)
            } else {
                // Without the save's knowledge, history compares with the stored row.
                let sql = "SELECT Z_PK\(plan.columns.map { ", " + $0 }.joined()) FROM \(plan.tableName) WHERE Z_PK = ?"
                guard let stored = try statements.fetch(sql, [row.primaryKey.databaseValue]).first else { continue }
                names = plan.changedProperties(from: Array(stored.dropFirst()), to: row, model: model)
            }
            record.updated.append((plan.entityNumber, row.primaryKey, names))
        }
        let sql = batchSQL
        for (id, _) in changes.deleted {
            guard let tombstone = try sql.tombstoneValues(of: id, statements: statements) else { continue }
            record.deleted.append((try entityNumber(of: id.entityName), id.primaryKey, tombstone))
        }
        try write(record, info: transaction, statements: statements)
    }

    /// Records rows a batch request wrote as SQL, without objects, as one transaction inside
    /// its open transaction, as Apple records batch requests; nothing when the store does not
    /// track history.
    func recordHistory(
        inserted: [ManagedObjectID], updated: [(id: ManagedObjectID, changedProperties: [String])],
        deleted: [(id: ManagedObjectID, tombstone: [DatabaseValue])],
        transaction: HistoryTransactionInfo, statements: PostgresStatements
    ) throws {
        guard tracksHistory else { return }
        var record = HistoryRecord()
        record.inserted = try inserted.map { (try entityNumber(of: $0.entityName), $0.primaryKey) }
        record.updated = try updated.map {
            (try entityNumber(of: $0.id.entityName), $0.id.primaryKey, $0.changedProperties)
        }
        record.deleted = try deleted.map { (try entityNumber(of: $0.id.entityName), $0.id.primaryKey, $0.tombstone) }
        try write(record, info: transaction, statements: statements)
    }

    /// `Z_ENT` of an entity's rows.
    private func entityNumber(of entityName: String) throws -> Int {
        guard let mapping = schema.entities[entityName] else {
            throw CoreDataError(
                exception: .invalidArgument,
                "\(entityName) is no entity of the store at \(PostgresNames.redacted(url)); its change cannot be recorded in persistent history"
            )
        }
        return mapping.entityNumber
    }

    /// Takes `count` keys of a history table from `Z_PRIMARYKEY`, locking its row until the
    /// transaction ends; returns the first.
    private func allocateHistoryKeys(_ entity: Int, count: Int, statements: PostgresStatements) throws -> Int64 {
        let result = try statements.query(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX",
            [count.databaseValue, entity.databaseValue])
        guard result.rowCount == 1, let last = Int64.fromDatabaseValue(result[0, 0]) else {
            throw CoreDataError(
                .persistentStoreIncompatibleSchema,
                "The store at \(PostgresNames.redacted(url)) has no Z_PRIMARYKEY row \(entity) for its persistent history; it was not opened with NSPersistentHistoryTrackingKey"
            )
        }
        return last - Int64(count) + 1
    }

    /// The key of a string in `ATRANSACTIONSTRING`, added the first time it is used. Two
    /// processes adding one string at once both end with the row one of them wrote.
    private func stringKey(_ string: String, statements: PostgresStatements) throws -> Int64 {
        let select = "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?"
        if let row = try statements.fetch(select, [string.databaseValue]).first,
            let key = Int64.fromDatabaseValue(row[0])
        {
            return key
        }
        let key = try allocateHistoryKeys(RelationalHistorySchema.stringEntity, count: 1, statements: statements)
        try statements.query(
            "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?) ON CONFLICT (ZNAME) DO NOTHING",
            [key.databaseValue, RelationalHistorySchema.stringEntity.databaseValue, string.databaseValue])
        guard let row = try statements.fetch(select, [string.databaseValue]).first,
            let stored = Int64.fromDatabaseValue(row[0])
        else {
            throw CoreDataError(
                .persistentStoreSave,
                "The string \"\(string)\" of a persistent history transaction could not be kept in ATRANSACTIONSTRING of the store at \(PostgresNames.redacted(url))"
            )
        }
        return stored
    }

    /// Writes one transaction and its changes, then NOTIFY; returns its number, or nil when
    /// there was nothing to record.
    @discardableResult
    private func write(_ record: HistoryRecord, info: HistoryTransactionInfo, statements: PostgresStatements) throws
        -> Int64?
    {
        guard !record.isEmpty else { return nil }
        // The transaction's key first: its row lock orders the recorders (see the type's comment).
        let number = try allocateHistoryKeys(
            RelationalHistorySchema.transactionEntity, count: 1, statements: statements)
        let strings = try [info.author, info.bundleID, info.contextName, info.processID].map {
            try $0.map { try stringKey($0, statements: statements) }
        }
        try statements.query(
            "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)",
            [number.databaseValue, RelationalHistorySchema.transactionEntity.databaseValue]
                + strings.map { $0?.databaseValue ?? .null }
                + [Date().timeIntervalSinceReferenceDate.databaseValue])

        let count = record.inserted.count + record.updated.count + record.deleted.count
        var key = try allocateHistoryKeys(RelationalHistorySchema.changeEntity, count: count, statements: statements)
        let width = record.deleted.map(\.tombstone.count).max() ?? 0
        var rows: [[DatabaseValue]] = []
        rows.reserveCapacity(count)
        func add(
            _ type: PersistentHistoryChangeType, _ entity: Int, _ primaryKey: Int64, _ columns: Data?,
            _ tombstone: [DatabaseValue]
        ) {
            rows.append(
                [
                    key.databaseValue, type.rawValue.databaseValue, entity.databaseValue, primaryKey.databaseValue,
                    number.databaseValue, columns?.databaseValue ?? .null,
                ]
                    + (0..<width).map { $0 < tombstone.count ? PostgresTombstone.encode(tombstone[$0]) : .null })
            key += 1
        }
        for (entity, primaryKey) in record.inserted { add(.insert, entity, primaryKey, nil, []) }
        for (entity, primaryKey, properties) in record.updated {
            add(
                .update, entity, primaryKey,
                model.entitiesByNumber[entity].map { RelationalHistorySchema.propertyBitmap(properties, of: $0) }, [])
        }
        for (entity, primaryKey, tombstone) in record.deleted { add(.delete, entity, primaryKey, nil, tombstone) }
        // Many rows per INSERT, under PostgreSQL's limit of 65535 bound values.
        let columns =
            "Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS"
            + (0..<width).map { ", ZTOMBSTONE\($0)" }.joined()
        let tuple =
            "(?, \(RelationalHistorySchema.changeEntity), NULL, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: width)))"
        for start in stride(from: 0, to: rows.count, by: 1000) {
            let chunk = rows[start..<min(start + 1000, rows.count)]
            try statements.query(
                "INSERT INTO ACHANGE (\(columns)) VALUES "
                    + Array(repeating: tuple, count: chunk.count).joined(separator: ", "), chunk.flatMap { $0 })
        }
        try statements.query(
            "SELECT pg_notify(?, ?)",
            [
                notificationChannel.databaseValue,
                PostgresRemoteChanges.payload(store: identifier, transaction: number).databaseValue,
            ])
        return number
    }

    /// The channel the store's NOTIFY and LISTEN use: named after its schema (PostgreSQL keeps
    /// a channel per database), shortened with a hash past PostgreSQL's 63 bytes.
    var notificationChannel: String { Self.notificationChannel(forSchema: schemaName) }

    /// The channel of the store in the schema `schemaName`.
    static func notificationChannel(forSchema schemaName: String) -> String {
        let name = "objectgraph " + schemaName
        guard name.utf8.count > 63 else { return name }
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in schemaName.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        // Whole characters up to 30 bytes, then the hash: at most 12 + 30 + 1 + 16 bytes.
        var prefix = ""
        for character in schemaName {
            guard prefix.utf8.count + String(character).utf8.count <= 30 else { break }
            prefix.append(character)
        }
        return "objectgraph " + prefix + " " + String(hash, radix: 16)
    }

    /// The store-independent SQL of batch requests (and tombstones), on this store's layout.
    var batchSQL: BatchRequestSQL {
        BatchRequestSQL(
            model: model, schema: schema, storeIdentifier: identifier, storeName: PostgresNames.redacted(url))
    }

    // MARK: Reading and purging

    /// The reader of the store's history on a connection.
    private func historyReader(_ statements: PostgresStatements) throws -> RelationalHistoryReader {
        RelationalHistoryReader(
            statements: statements, tombstoneColumns: try tombstoneColumns(statements), model: model,
            storeIdentifier: identifier, storeName: PostgresNames.redacted(url),
            decodeTombstone: PostgresTombstone.decode)
    }

    func fetchHistory(_ boundary: PersistentHistoryChangeRequest.Boundary, withChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        guard let (sql, arguments) = RelationalHistoryReader.condition(boundary, storeIdentifier: identifier) else {
            return []
        }
        // One snapshot for the transactions and their changes.
        return try inTransaction("Fetching the persistent history of") { statements in
            try statements.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", [])
            guard try historyTablesExist(statements) else { return [] }
            let reader = try historyReader(statements)
            try reader.checkTokenNotExpired(boundary)
            return try reader.transactions(where: sql, arguments, withChanges: withChanges)
        }
    }

    func deleteHistory(_ boundary: PersistentHistoryChangeRequest.Boundary, withChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        guard let (sql, arguments) = RelationalHistoryReader.condition(boundary, storeIdentifier: identifier) else {
            return []
        }
        return try inTransaction("Deleting the persistent history of") { statements in
            guard try historyTablesExist(statements) else { return [] }
            let doomed = try historyReader(statements).transactions(where: sql, arguments, withChanges: withChanges)
            let keys = doomed.map(\.transactionNumber)
            for chunk in BatchRequestSQL.chunks(keys) {
                let list = BatchRequestSQL.placeholders(chunk.count)
                try statements.query(
                    "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (\(list))", chunk.map(\.databaseValue))
                try statements.query("DELETE FROM ATRANSACTION WHERE Z_PK IN (\(list))", chunk.map(\.databaseValue))
            }
            return doomed
        }
    }

    func lastTransactionNumber() throws -> Int64? {
        try withStatements("Reading the persistent history token of") { statements in
            guard try historyTablesExist(statements) else { return nil }
            let result = try statements.query("SELECT MAX(Z_PK) FROM ATRANSACTION", [])
            return result.rowCount == 1 ? Int64.fromDatabaseValue(result[0, 0]) : nil
        }
    }
}

/// A tombstone value in PostgreSQL: `ACHANGE`'s `ZTOMBSTONE<n>` columns are `bytea`, where
/// SQLite's BLOB columns hold a value of any type, so each value is kept as one tag byte
/// (`i` integer, `d` double, `s` text, `b` bytes) and its bytes, and read back as it was.
enum PostgresTombstone {
    /// The bytes of a stored value; NULL stays NULL.
    static func encode(_ value: DatabaseValue) -> DatabaseValue {
        switch value.storage {
        case .null: return .null
        case .int64(let v): return (Data("i".utf8) + withUnsafeBytes(of: v.bigEndian) { Data($0) }).databaseValue
        case .double(let v):
            return (Data("d".utf8) + withUnsafeBytes(of: v.bitPattern.bigEndian) { Data($0) }).databaseValue
        case .string(let v): return (Data("s".utf8) + Data(v.utf8)).databaseValue
        case .blob(let v): return (Data("b".utf8) + v).databaseValue
        }
    }

    /// The value ``encode(_:)`` kept; bytes without a known tag stay bytes.
    static func decode(_ value: DatabaseValue) -> DatabaseValue {
        guard case .blob(let data) = value.storage, let tag = data.first else { return value }
        let body = Data(data.dropFirst())
        func integer() -> UInt64? {
            guard body.count == 8 else { return nil }
            return body.reduce(0) { $0 << 8 | UInt64($1) }
        }
        switch tag {
        case UInt8(ascii: "i"): return integer().map { Int64(bitPattern: $0).databaseValue } ?? value
        case UInt8(ascii: "d"): return integer().map { Double(bitPattern: $0).databaseValue } ?? value
        case UInt8(ascii: "s"): return String(data: body, encoding: .utf8)?.databaseValue ?? value
        case UInt8(ascii: "b"): return body.databaseValue
        default: return value
        }
    }
}
