import Foundation
import GRDB
import GRDBSQLite

/// Writes rows on the save hot path: one statement per entity and kind, prepared once per
/// connection (GRDB's statement cache) and reused across saves, values bound straight into
/// SQLite. GRDB still owns
/// the connection, the transaction and the errors around it.
final class SQLiteWriter {
    private let db: Database
    private let model: ManagedObjectModel
    private let log: SQLLog
    /// Whether the SQL log is on, asked once per save rather than per row: the answer walks
    /// the log's parents under their locks.
    private let logsStatements: Bool
    /// The store's UUID, for the object URIs of errors.
    private let storeIdentifier: String
    /// The statements of this save by entity number and kind (see `statementKey`), not by SQL
    /// text, so finding one costs no string hashing per row. They come from GRDB's statement
    /// cache of the connection (`cachedStatement`), so each is prepared once per connection
    /// and reused by every later save; GRDB finalizes them when the connection closes. The
    /// `Statement` is held here so the handle stays valid for the whole save.
    private var statements: [Int: Statement] = [:]

    init(db: Database, model: ManagedObjectModel, log: SQLLog, storeIdentifier: String = "") {
        self.db = db
        self.model = model
        self.log = log
        self.logsStatements = log.isEnabled
        self.storeIdentifier = storeIdentifier
    }

    deinit {
        // Reset, not finalize: the cache keeps them for the next save, and a reset statement
        // holds no read or write state in the meantime (a failed step leaves one mid-way).
        for statement in statements.values { sqlite3_reset(statement.sqliteStatement) }
    }

    /// Which statement of a save, as one integer (hashed per row on a miss of `last`): an
    /// entity's INSERT, or one of its UPDATEs by ``RelationalWritePlan/Update/number`` (below
    /// ``RelationalWritePlan/maximumUpdates`` + 2).
    @inline(__always)
    private static func statementKey(_ plan: RelationalWritePlan, update: RelationalWritePlan.Update?) -> Int {
        plan.entityNumber &* 1024 &+ (update?.number ?? 0)
    }

    /// The statement used last, found without the dictionary: a save writes rows of one
    /// entity and kind in runs.
    private var last: (key: Int, statement: OpaquePointer)?

    private func statement(_ sql: String, key: Int) throws -> OpaquePointer {
        if let last, last.key == key {
            sqlite3_reset(last.statement)
            return last.statement
        }
        let s = try lookUpStatement(sql, key: key)
        last = (key, s)
        return s
    }

    private func lookUpStatement(_ sql: String, key: Int) throws -> OpaquePointer {
        // No sqlite3_clear_bindings: insert and update bind every parameter of their
        // statement each time, and clearing cost as much as binding a row's values.
        if let s = statements[key] {
            sqlite3_reset(s.sqliteStatement)
            return s.sqliteStatement
        }
        // Prepared on the connection's first save of this entity and kind (GRDB throws a
        // DatabaseError naming the SQL when it does not prepare), reused by the later ones.
        let s = try db.cachedStatement(sql: sql)
        sqlite3_reset(s.sqliteStatement)
        statements[key] = s
        return s.sqliteStatement
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func bind(_ s: OpaquePointer, _ i: Int32, _ value: DatabaseValue) {
        switch value.storage {
        case .null: sqlite3_bind_null(s, i)
        case .int64(let v): sqlite3_bind_int64(s, i, v)
        case .double(let v): sqlite3_bind_double(s, i, v)
        case .string(let v): bindText(s, i, v)
        case .blob(let v):
            _ = v.withUnsafeBytes { sqlite3_bind_blob(s, i, $0.baseAddress, Int32($0.count), Self.transient) }
        }
    }

    /// Binds a string with its byte length, so a NUL inside it is stored, not a cut-off.
    @inline(__always)
    private func bindText(_ s: OpaquePointer, _ i: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                _ = sqlite3_bind_text(
                    s, i, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient
                )
            } else {
                _ = sqlite3_bind_text(s, i, "", 0, Self.transient)
            }
        }
    }

    /// Why a value was not bound: the SQLite store cannot keep it exactly, or (``isTransform``)
    /// its value transformer could not turn it into data.
    private struct Unstorable: Error {
        let reason: String
        /// The attribute's index, filled in by the caller that knows it.
        var index: Int?
        var isTransform = false
    }

    /// Binds an attribute's value straight from its case. A case other than the attribute
    /// type's own (which the context's conversion never leaves) binds through
    /// ``RelationalValues/databaseValue(_:type:)``, as any value did before the value core.
    @inline(__always)
    private func bindValue(_ s: OpaquePointer, _ i: Int32, _ value: AttributeValue, type: AttributeType)
        throws(Unstorable)
    {
        switch value {
        case .null:
            sqlite3_bind_null(s, i)
            return
        case .string(let v) where type == .string:
            bindText(s, i, v)
            return
        case .int(let v) where type == .integer16 || type == .integer32 || type == .integer64:
            sqlite3_bind_int64(s, i, Int64(v))
            return
        case .double(let v) where type == .double || type == .float:
            // SQLite stores a bound NaN as NULL: refused rather than lost.
            if v.isNaN { throw Unstorable(reason: "NaN is not a number SQLite can store (it would become NULL)") }
            sqlite3_bind_double(s, i, v)
            return
        case .bool(let v) where type == .boolean:
            sqlite3_bind_int64(s, i, v ? 1 : 0)
            return
        case .date(let v) where type == .date:
            sqlite3_bind_double(s, i, v.timeIntervalSinceReferenceDate)
            return
        default:
            break
        }
        let any = value.any
        if type == .decimal, let reason = RelationalValues.unstorableReason(any, type: type) {
            throw Unstorable(reason: reason)
        }
        bind(s, i, RelationalValues.databaseValue(any, type: type))
    }

    /// The value a column takes from a row's values, as SQLite stores it: for the SQL log and
    /// for persistent history's comparison of a row before and after an update.
    private func databaseValue(_ source: RelationalWritePlan.Source, in values: [AttributeValue]) -> DatabaseValue {
        source.value(in: values, model: model)
    }

    /// The values a plan binds for a row, for the SQL log.
    private func loggedValues(_ row: StoreRow, _ plan: RelationalWritePlan) -> [DatabaseValue] {
        plan.sources.map { databaseValue($0, in: row.values) }
    }

    /// The error for a value the store cannot keep: a validation error (1550) naming the
    /// object and the key, or a save error for a transformable whose transformer failed.
    private func located(_ error: Unstorable, _ row: StoreRow, _ plan: RelationalWritePlan) -> CoreDataError {
        var key = "?"
        if let index = error.index, let entity = model.entitiesByName[plan.entityName], index < entity.attributes.count
        {
            key = entity.attributes[index].name
        }
        let uri = ManagedObjectID(
            entityName: row.entityName, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey
        ).uriString
        if error.isTransform {
            return CoreDataError(
                .persistentStoreSave,
                "\(row.entityName).\(key) of \(uri) is a transformable attribute, and \(error.reason). Nothing was saved",
                objectURI: uri, key: key)
        }
        return CoreDataError(
            .validation,
            "The SQLite store cannot keep \(row.entityName).\(key) of \(uri) exactly: \(error.reason). Nothing was saved. Round the value (to at most 15 significant digits for a Decimal), store it in a String or Binary attribute, or use another store type",
            objectURI: uri, key: key)
    }

    /// Binds a row's values for every source of the plan; throws a validation error (1550)
    /// naming the object and the key for a value the store cannot keep exactly
    /// (``RelationalValues``), which is never written.
    private func bindSources(_ s: OpaquePointer, _ row: StoreRow, _ plan: RelationalWritePlan, from first: Int32) throws
    {
        // Values are read in place through the buffer, not copied out of the array one by one.
        do {
            try row.values.withUnsafeBufferPointer { values throws(Unstorable) in
                try bindSources(s, values, plan, from: first)
            }
        } catch {
            throw located(error, row, plan)
        }
    }

    private func bindSources(
        _ s: OpaquePointer, _ values: UnsafeBufferPointer<AttributeValue>, _ plan: RelationalWritePlan,
        from first: Int32
    ) throws(Unstorable) {
        var i = first
        for source in plan.sources {
            try bindSource(s, i, values, source)
            i += 1
        }
    }

    /// Binds a row's values for the sources an UPDATE writes, as ``bindSources(_:_:_:from:)``.
    private func bindSources(
        _ s: OpaquePointer, _ row: StoreRow, _ plan: RelationalWritePlan, _ update: RelationalWritePlan.Update
    ) throws {
        do {
            try row.values.withUnsafeBufferPointer { values throws(Unstorable) in
                var i: Int32 = 1
                for position in update.positions {
                    try bindSource(s, i, values, plan.sources[position])
                    i += 1
                }
            }
        } catch {
            throw located(error, row, plan)
        }
    }

    /// Binds the value one column takes from a row, straight from its case.
    @inline(__always)
    private func bindSource(
        _ s: OpaquePointer, _ i: Int32, _ values: UnsafeBufferPointer<AttributeValue>,
        _ source: RelationalWritePlan.Source
    ) throws(Unstorable) {
        switch source {
        case .attribute(let index, let type):
            do { try bindValue(s, i, values[index], type: type) } catch {
                var located = error
                located.index = index
                throw located
            }
        case .transformable(let index, let attribute):
            if let value = values[index].any {
                do {
                    let data = try TransformableValues.data(for: value, attribute: attribute)
                    _ = data.withUnsafeBytes {
                        sqlite3_bind_blob(s, i, $0.baseAddress, Int32($0.count), Self.transient)
                    }
                } catch {
                    throw Unstorable(reason: error.reason, index: index, isTransform: true)
                }
            } else {
                sqlite3_bind_null(s, i)
            }
        case .toOne(let index):
            if let id = values[index].objectID {
                sqlite3_bind_int64(s, i, id.primaryKey)
            } else {
                sqlite3_bind_null(s, i)
            }
        case .toOneEntity(let index):
            if let id = values[index].objectID, let n = model.entitiesByName[id.entityName]?.entityNumber {
                sqlite3_bind_int64(s, i, Int64(n))
            } else {
                sqlite3_bind_null(s, i)
            }
        }
    }

    private func step(_ s: OpaquePointer, _ sql: String) throws {
        let code = sqlite3_step(s)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: sql)
        }
    }

    /// Inserts a row.
    func insert(_ row: StoreRow, plan: RelationalWritePlan) throws {
        let sql = plan.insertSQL
        let s = try statement(sql, key: Self.statementKey(plan, update: nil))
        sqlite3_bind_int64(s, 1, row.primaryKey)
        sqlite3_bind_int64(s, 2, Int64(plan.entityNumber))
        sqlite3_bind_int64(s, 3, row.version)
        try bindSources(s, row, plan, from: 4)
        if logsStatements {
            log.statement(
                sql: sql,
                arguments: [row.primaryKey.databaseValue, plan.entityNumber.databaseValue, row.version.databaseValue]
                    + loggedValues(row, plan))
        }
        try step(s, sql)
    }

    /// The UPDATE used last, found without hashing the set: a save's rows mostly change the
    /// same properties (a migration's second pass, a batch of edits).
    private var lastUpdate: (plan: RelationalWritePlan, changed: PropertyIndexSet?, update: RelationalWritePlan.Update)?

    /// Updates a row if it is still at `expectedVersion`, writing the columns of the `changed`
    /// properties (every column when nil) and its new version; returns whether it was.
    func update(_ row: StoreRow, expectedVersion: Int64, plan: RelationalWritePlan, changed: PropertyIndexSet? = nil)
        throws -> Bool
    {
        let update: RelationalWritePlan.Update
        if let last = lastUpdate, last.plan === plan, last.changed == changed {
            update = last.update
        } else {
            update = plan.update(writing: changed)
            lastUpdate = (plan, changed, update)
        }
        let sql = update.sql
        let s = try statement(sql, key: Self.statementKey(plan, update: update))
        try bindSources(s, row, plan, update)
        let n = Int32(update.positions.count)
        sqlite3_bind_int64(s, n + 1, row.version)
        sqlite3_bind_int64(s, n + 2, row.primaryKey)
        sqlite3_bind_int64(s, n + 3, expectedVersion)
        if logsStatements {
            let values = update.positions.map { databaseValue(plan.sources[$0], in: row.values) }
            log.statement(
                sql: sql,
                arguments: values + [
                    row.version.databaseValue, row.primaryKey.databaseValue, expectedVersion.databaseValue,
                ])
        }
        try step(s, sql)
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    /// Updates a row as ``update(_:expectedVersion:plan:changed:)`` does, writing only what
    /// `properties` says changed when the save knows it, and notes the update in persistent
    /// history's `record` when there is one; returns whether the row was still at
    /// `expectedVersion`.
    func update(
        _ row: StoreRow, expectedVersion: Int64, plan: RelationalWritePlan, properties: UpdatedProperties?,
        history record: inout HistoryRecord?
    ) throws -> Bool {
        // Without the save's knowledge, history compares with the stored row, read first.
        let before = record == nil || properties != nil ? nil : try storedValues(primaryKey: row.primaryKey, plan: plan)
        guard try update(row, expectedVersion: expectedVersion, plan: plan, changed: properties?.changed) else {
            return false
        }
        if record != nil {
            if let properties {
                record!.updated.append(
                    (plan.entityNumber, row.primaryKey, changedProperties(properties, to: row, plan: plan)))
            } else if let before {
                record!.updated.append(
                    (plan.entityNumber, row.primaryKey, changedProperties(from: before, to: row, plan: plan)))
            }
        }
        return true
    }

    // MARK: Persistent history

    /// The plan's columns of a stored row as they are before an update, or nil when the row is
    /// gone; read only when the store tracks history and the save does not know what changed.
    func storedValues(primaryKey: Int64, plan: RelationalWritePlan) throws -> [DatabaseValue]? {
        guard !plan.columns.isEmpty else { return [] }
        let sql = "SELECT \(plan.columns.joined(separator: ", ")) FROM \(plan.tableName) WHERE Z_PK = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [primaryKey]) else { return nil }
        return (0..<plan.columns.count).map { row[$0] as DatabaseValue }
    }

    /// The names of the properties whose columns an update changes: the row's values compared,
    /// as SQLite stores them, with ``storedValues(primaryKey:plan:)`` read before it.
    func changedProperties(from before: [DatabaseValue], to row: StoreRow, plan: RelationalWritePlan) -> [String] {
        plan.changedProperties(from: before, to: row, model: model)
    }

    /// The names of the properties whose columns an update changes, from what the save knows:
    /// the changed properties' committed values compared, as SQLite stores them, with the new
    /// ones. The committed values are what the row held (the update checks its version), so
    /// the names are those a comparison with the stored row finds, without reading it.
    func changedProperties(_ properties: UpdatedProperties, to row: StoreRow, plan: RelationalWritePlan) -> [String] {
        plan.changedProperties(properties, to: row, model: model)
    }
}
