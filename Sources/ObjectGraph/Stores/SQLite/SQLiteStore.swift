import Foundation
import GRDB
import GRDBSQLite

/// The SQLite store (NSSQLiteStoreType), on GRDB, laid out as Core Data lays it out.
///
/// Fetches run as SQL: the predicate and sort descriptors are translated by
/// ``SQLFetchTranslator``, never evaluated in Swift. Each save is one transaction; updates and
/// deletes carry `WHERE Z_PK = ? AND Z_OPT = ?`, so a row another context changed first is a
/// merge conflict (133020), as Core Data's optimistic locking makes it.
final class SQLiteStore: PersistentStoreBackend, @unchecked Sendable {
    let identifier: String
    let url: URL
    let model: ManagedObjectModel
    /// The layout the store has: predicted from the model for a new store, and for an existing
    /// one adjusted to the tables and columns the file has (SQLiteSchema.Layout).
    let schema: SQLiteSchema
    let database: DatabaseQueue
    let log: SQLLog
    /// Opened with ``StoreOption/readOnly``: saves are refused and nothing is written.
    let isReadOnly: Bool
    /// The read-only file (its private copy is removed when the store closes).
    let readOnlyFile: SQLiteReadOnlyFile?
    /// The watch on the file while the store posts remote change notifications.
    let remoteChanges = SQLiteRemoteChanges()
    /// Metadata set with setMetadata(_:for:), written by the next save; nil when none waits.
    let pendingMetadata = Lock<[String: Any]?>(nil)
    var metadata: [String: Any]
    /// How each entity's rows decode: the SELECT list is the same for every entity of a table.
    private let plans: [String: RowPlan]
    private let writePlans: [String: SQLiteWriter.Plan]
    /// The derived attributes a save computes.
    private let derived: SQLiteDerivedAttributes
    /// Whether each save records persistent history (NSPersistentHistoryTrackingKey): the
    /// one flag a save tests when it is off.
    let tracksHistory: Bool
    /// Whether the store's journal is a write-ahead log, which query generations need.
    let usesWAL: Bool
    /// How long the connections wait for another connection's lock (StoreOption/timeout).
    let timeout: TimeInterval
    /// How a query generation's own connection opens (SQLiteGenerationSnapshot): read-only,
    /// with the store's functions and pragmas.
    let readerConfiguration: Configuration

    /// Opens the store at `url`, creating it if the file does not exist or is empty (what a
    /// process killed while creating a store leaves), unless ``StoreOption/readOnly`` is set.
    ///
    /// The connection waits up to ``StoreOption/timeout`` seconds for another connection's or
    /// process's lock. Throws `.persistentStoreOpen` for a file that is not a Core Data SQLite
    /// store, 134180 for another SQLite failure (a lock held longer than the timeout), and
    /// `.persistentStoreIncompatibleVersionHash` (134100) when the model differs from the one
    /// that created the store, naming the entities that differ.
    /// Every option is read here, from `description`; its SQLite pragmas run on the connection
    /// as it opens (SQLitePragmas).
    init(url: URL, model: ManagedObjectModel, description: PersistentStoreDescription, log: SQLLog) throws {
        try UnstorableModelParts.refuseUnstorableRelationships(of: model, storeType: .sqlite)
        self.url = url
        self.model = model
        self.log = log
        let readOnly = description.isReadOnly
        isReadOnly = readOnly
        let timeout = description.timeout
        var configuration = SQLiteConnection.configuration(timeout: timeout)
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(on: db)
        }
        if readOnly {
            guard FileManager.default.fileExists(atPath: url.path), !StoreFiles.isEmpty(url) else {
                throw CoreDataError(.persistentStoreOpen, "There is no store at \(url.path) to open read-only (NSReadOnlyPersistentStoreOption): a read-only store is never created")
            }
        } else {
            // Core Data's stores use incremental auto-vacuum (every fixture store has
            // auto_vacuum = 2, and says so in `_NSAutoVacuumLevel`); it only takes hold on a
            // new file, before its first table, and this runs before WAL mode is set.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA auto_vacuum = 2") }
            configuration.journalMode = SQLitePragmas.usesWAL(description.sqlitePragmas) ? .wal : .default
        }
        let pragmas = description.sqlitePragmas
        if !pragmas.isEmpty {
            configuration.prepareDatabase { db in try SQLitePragmas.apply(pragmas, readOnly: readOnly, to: db) }
        }
        usesWAL = SQLitePragmas.usesWAL(pragmas)
        self.timeout = timeout
        var reader = SQLiteConnection.configuration(timeout: timeout)
        reader.prepareDatabase { db in
            SQLiteFunctions.register(on: db)
            try SQLitePragmas.apply(pragmas, readOnly: true, to: db)
        }
        readerConfiguration = reader
        var file: SQLiteReadOnlyFile?
        do {
            database = try SQLiteConnection.retryingWhileBusy(timeout: timeout) {
                let queue: DatabaseQueue
                if readOnly {
                    file = try SQLiteReadOnlyFile(url: url, configuration: configuration)
                    queue = file!.queue
                } else {
                    queue = try DatabaseQueue(path: url.path, configuration: configuration)
                }
                // Reading the schema fails here when the file is not a database at all.
                _ = try queue.read { db in try db.tableExists("Z_METADATA") }
                return queue
            }
        } catch let error as DatabaseError where Self.isLockError(error) {
            throw CoreDataError(sqlite: error, operation: "Opening the store at", url: url)
        } catch {
            throw CoreDataError(.persistentStoreOpen, "The file at \(url.path) could not be opened as a SQLite store: \(Self.describe(error)). Is it a Core Data store?")
        }
        readOnlyFile = file
        tracksHistory = !readOnly && description.isPersistentHistoryTrackingEnabled
        let predicted = SQLiteSchema(model: model)
        let newIdentifier = description.storeUUID ?? UUID().uuidString
        // Read or create in one IMMEDIATE transaction: of two processes creating one store at
        // once, the second waits for the first and then reads what it made.
        let queue = database
        /// The metadata and the tables' columns, or nil for a database without tables (a new
        /// or empty file).
        func readExisting(_ db: Database) throws -> (String, [String: Any], SQLiteSchema.Layout)? {
            // sqlite_master itself, not GRDB's `tableExists`: that answers from a schema cache,
            // which misses the tables another process made since this connection first looked.
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            guard tables.contains("Z_METADATA") else {
                guard tables.isEmpty else {
                    throw CoreDataError(.persistentStoreInvalidType, "The file at \(url.path) is a SQLite database but not a Core Data store: it has no Z_METADATA table (its tables: \(tables.joined(separator: ", ")))")
                }
                return nil
            }
            let (uuid, plist) = try Self.readMetadata(db, url: url)
            return (uuid, plist, try Self.readLayout(db, tables: tables))
        }
        var existing = try CoreDataError.mappingSQLite("Opening the store at", url) {
            try SQLiteConnection.retryingWhileBusy(timeout: timeout) { try queue.read(readExisting) }
        }
        var created: [String: Any]?
        if existing == nil {
            guard !readOnly else {
                throw CoreDataError(.persistentStoreOpen, "The SQLite file at \(url.path) has no tables: there is no store to open read-only (NSReadOnlyPersistentStoreOption)")
            }
            // Created in one IMMEDIATE transaction that looks again: of two processes creating
            // one store at once, the second waits for the first, then reads what it made.
            (existing, created) = try CoreDataError.mappingSQLite("Creating the store at", url) {
                try queue.write { db -> ((String, [String: Any], SQLiteSchema.Layout)?, [String: Any]?) in
                    if let made = try readExisting(db) { return (made, nil) }
                    return (nil, try Self.create(db, schema: predicted, model: model, identifier: newIdentifier))
                }
            }
        }
        // A store that exists is read with the tables and columns it has.
        let schema = existing.map { SQLiteSchema(model: model, existing: $0.2) } ?? predicted
        self.schema = schema
        // Every plan up front: the store is shared by contexts on different threads.
        self.plans = Dictionary(uniqueKeysWithValues: schema.tables.map { ($0.name, Self.makePlan(forTable: $0.name, schema: schema, model: model)) })
        self.writePlans = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, SQLiteWriter.plan(for: $0, schema: schema)) })
        self.derived = try SQLiteDerivedAttributes(model: model, schema: schema)
        if let (uuid, plist, _) = existing {
            identifier = uuid
            metadata = plist
            metadata["NSStoreUUID"] = uuid
            try checkCompatibility(rewritingLegacyHashes: !readOnly && !description.keepsLegacyVersionHashes)
        } else {
            identifier = newIdentifier
            metadata = created ?? [:]
        }
        // The store's metadata and version hashes stay as they are: Core Data's own tracked
        // stores (the CoreDataPlus fixture) say nothing of tracking in Z_METADATA.
        if tracksHistory { try prepareHistoryTables() }
    }

    /// The columns of every table of a store, from `PRAGMA table_info` (not GRDB's cache).
    static func readLayout(_ db: Database, tables: [String]) throws -> SQLiteSchema.Layout {
        var layout: SQLiteSchema.Layout = [:]
        for table in tables {
            layout[table] = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]))
        }
        return layout
    }

    private static func describe(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        return "\(error)"
    }

    /// Whether SQLite failed for a lock another connection held (SQLITE_BUSY, SQLITE_LOCKED):
    /// the file may be a perfectly good store, so this is 134180, not "not a store".
    static func isLockError(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    // MARK: Creating and reading the bookkeeping tables

    /// Creates the tables and the metadata row of a new store; returns its metadata.
    private static func create(_ db: Database, schema: SQLiteSchema, model: ManagedObjectModel, identifier: String) throws -> [String: Any] {
        // The metadata Core Data writes: the store type and the model's version keys (hashes,
        // their digest and checksum, identifiers, framework version).
        var plist = model.metadata(replacingVersionKeysOf: ["NSStoreType": StoreType.sqlite.rawValue, "_NSAutoVacuumLevel": "2"])
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        for statement in schema.creationStatements { try db.execute(sql: statement) }
        for entity in model.entities {
            let parent = entity.parentEntityName.flatMap { model.entitiesByName[$0]?.entityNumber } ?? 0
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                           arguments: [entity.entityNumber, entity.name, parent])
        }
        try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", arguments: [identifier, data])
        plist["NSStoreUUID"] = identifier
        return plist
    }

    /// Reads Z_METADATA: the store UUID and the property list (without the UUID).
    static func readMetadata(_ db: Database, url: URL) throws -> (String, [String: Any]) {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
              let uuid = row["Z_UUID"] as String?, let data = row["Z_PLIST"] as Data? else {
            throw CoreDataError(.persistentStoreOpen, "The store at \(url.path) has no metadata row in Z_METADATA")
        }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any] else {
            throw CoreDataError(.persistentStoreOpen, "The metadata of the store at \(url.path) is not a property list")
        }
        return (uuid, plist)
    }

    /// The metadata of a store file, read without opening it for use
    /// (metadataForPersistentStoreOfType:URL:options:error:).
    ///
    /// An empty file is reported as a missing one (`.fileRead`): no store yet, which opening
    /// creates. A lock held longer than the default timeout is 134180.
    static func metadata(at url: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError(.fileReadNoSuchFile, "There is no store at \(url.path)")
        }
        guard !StoreFiles.isEmpty(url) else {
            throw CoreDataError(.fileReadNoSuchFile, "There is no store at \(url.path) yet: the file is empty (a store whose creation was interrupted); adding the store creates it")
        }
        do {
            // Read only, leaving no -shm or -wal beside the store (SQLiteReadOnlyFile).
            let file = try SQLiteReadOnlyFile(url: url, configuration: SQLiteConnection.configuration(timeout: StoreOption.defaultTimeout))
            defer { file.close() }
            let (uuid, plist) = try file.queue.read { db -> (String, [String: Any]) in
                guard try db.tableExists("Z_METADATA") else {
                    throw CoreDataError(.persistentStoreInvalidType, "The file at \(url.path) is not a Core Data store: it has no Z_METADATA table")
                }
                return try readMetadata(db, url: url)
            }
            var result = plist
            result["NSStoreUUID"] = uuid
            return result
        } catch let error as CoreDataError {
            throw error
        } catch let error as DatabaseError where isLockError(error) {
            throw CoreDataError(sqlite: error, operation: "Reading the metadata of the store at", url: url)
        } catch {
            throw CoreDataError(.persistentStoreOpen, "The file at \(url.path) could not be read as a SQLite store: \(describe(error))")
        }
    }

    /// Error 134100 unless every entity's version hash matches the store's. A store this
    /// package wrote before it computed Core Data's hashes, with the old hashes of this very
    /// model, gets Core Data's hashes written into its metadata, in place (the data is the
    /// same), and the store's log says so.
    private func checkCompatibility(rewritingLegacyHashes: Bool) throws {
        switch model.hashMatch(withStoreMetadata: metadata) {
        case .current?:
            return
        case .legacy? where !rewritingLegacyHashes:
            return
        case .legacy?:
            var upgraded = model.metadata(replacingVersionKeysOf: metadata)
            upgraded["NSStoreUUID"] = nil
            let data = try PropertyListSerialization.data(fromPropertyList: upgraded, format: .binary, options: 0)
            let sql = "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1"
            try CoreDataError.mappingSQLite("Writing Core Data's version hashes into the metadata of the store at", url) {
                log.statement(sql: sql, arguments: [data.databaseValue])
                try database.write { db in try db.execute(sql: sql, arguments: [data]) }
            }
            upgraded["NSStoreUUID"] = identifier
            metadata = upgraded
            log.note(ManagedObjectModel.legacyHashesNote(url))
        case nil:
            throw model.incompatibleStoreError(metadata, url: url)
        }
    }

    // MARK: Reading rows

    /// The SELECT list of a table and how to turn a row into values for each entity in it.
    struct RowPlan {
        let table: SQLiteSchema.Table
        /// `t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.<column>...`
        let selectList: String
        /// Decoders by entity number (nil for numbers of other tables): an array, so a row's
        /// decoder is found without hashing and without copying an EntityDescription.
        let decoders: [EntityDecoder?]

        enum Kind {
            case attribute(AttributeType)
            case toOne(destination: String, entityColumn: Int?)
        }

        /// How the rows of one entity decode: one slot per property index, in order.
        final class EntityDecoder {
            let entityName: String
            /// nil for a to-many slot (loaded on use); else the column position and how to read it.
            let slots: [(position: Int32, kind: Kind)?]
            /// The attribute slots (the first ones) as plain values, for the loop that runs per
            /// row: reading them costs no reference counting. Position -1: not stored; -2 or
            /// less: a transformable attribute, whose column is at -2 - position (the one
            /// negative test of the loop sends it down the slow path).
            let attributeColumns: [(position: Int32, type: AttributeType)]
            /// The transformable attributes by index, whose data their value transformer reads.
            let transformables: [Int: AttributeDescription]

            init(entityName: String, slots: [(position: Int32, kind: Kind)?], attributeCount: Int, transformables: [Int: AttributeDescription] = [:]) {
                self.entityName = entityName
                self.slots = slots
                self.transformables = transformables
                attributeColumns = slots.prefix(attributeCount).enumerated().map { i, slot in
                    guard let slot, case .attribute(let type) = slot.kind else { return (-1, .string) }
                    if transformables[i] != nil { return (-2 - slot.position, type) }
                    return (slot.position, type)
                }
            }
        }
    }

    func plan(forTable tableName: String) -> RowPlan { plans[tableName]! }

    static func makePlan(forTable tableName: String, schema: SQLiteSchema, model: ManagedObjectModel) -> RowPlan {
        let table = schema.tables.first { $0.name == tableName }!
        let position = Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($1.name, Int32($0 + 3)) })
        var decoders: [RowPlan.EntityDecoder?] = Array(repeating: nil, count: (model.entities.map(\.entityNumber).max() ?? 0) + 1)
        for mapping in schema.entities.values where mapping.tableName == tableName {
            let entity = model.entitiesByName[mapping.entityName]!
            var slots: [(position: Int32, kind: RowPlan.Kind)?] = Array(repeating: nil, count: entity.attributes.count + entity.relationships.count)
            var transformables: [Int: AttributeDescription] = [:]
            for (i, a) in entity.attributes.enumerated() {
                guard let c = mapping.attributeColumns[a.name] else { continue }
                slots[i] = (position[c]!, .attribute(a.attributeType))
                if a.attributeType == .transformable { transformables[i] = a }
            }
            for (n, r) in entity.relationships.enumerated() where !r.isToMany {
                guard let c = mapping.toOneColumns[r.name] else { continue }
                let entityColumn = mapping.toOneEntityColumns[r.name].flatMap { position[$0] }.map(Int.init)
                slots[entity.attributes.count + n] = (position[c]!, .toOne(destination: r.destinationEntityName, entityColumn: entityColumn))
            }
            decoders[entity.entityNumber] = RowPlan.EntityDecoder(entityName: entity.name, slots: slots, attributeCount: entity.attributes.count, transformables: transformables)
        }
        let select = (["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"] + table.columns.map { "t0.\($0.name)" }).joined(separator: ", ")
        return RowPlan(table: table, selectList: select, decoders: decoders)
    }

    /// The row the statement is on, decoded by the plan. Each value slot is initialized once,
    /// straight from the statement: this runs for every fetched row.
    ///
    /// Throws a 134180 error naming the table and Z_PK for a row whose Z_ENT no entity of the
    /// table has (a row written by another model, or damaged), and one naming the entity, key
    /// and Z_PK for a value its attribute's type cannot take (``SQLiteValues``): a fetch fails
    /// rather than skip a row or return wrong data.
    private func decodeCurrentRow(_ statement: OpaquePointer, plan: RowPlan) throws -> StoreRow {
        let entityNumber = Int(sqlite3_column_int64(statement, 1))
        guard entityNumber >= 0, entityNumber < plan.decoders.count, let decoder = plan.decoders[entityNumber] else {
            throw unknownEntityError(statement, plan: plan)
        }
        let slots = decoder.slots
        let values = try [AttributeValue](unsafeUninitializedCapacity: slots.count) { buffer, initialized in
            let base = buffer.baseAddress!
            // Attributes: each value initialized in place, straight from its column.
            let attributeCount = try decoder.attributeColumns.withUnsafeBufferPointer { columns in
                for i in 0..<columns.count {
                    let column = columns[i]
                    do {
                        if column.position >= 0 {
                            (base + i).initialize(to: try SQLiteColumns.value(statement, column.position, type: column.type))
                        } else {
                            (base + i).initialize(to: column.position == -1 ? .null : AttributeValue(try transformedValue(statement, -2 - column.position, decoder: decoder, index: i)))
                        }
                    } catch let mismatch as StoredValueMismatch {
                        initialized = i
                        throw mismatchError(mismatch, statement, decoder: decoder, index: i, type: column.type)
                    } catch {
                        initialized = i
                        throw error
                    }
                }
                return columns.count
            }
            for i in attributeCount..<slots.count {
                let slot = slots[i]
                var value: AttributeValue = .null
                if let slot {
                    switch slot.kind {
                    case .attribute(let type):
                        do {
                            value = try SQLiteColumns.value(statement, slot.position, type: type)
                        } catch let mismatch as StoredValueMismatch {
                            initialized = i
                            throw mismatchError(mismatch, statement, decoder: decoder, index: i, type: type)
                        }
                    case .toOne(let destination, let entityColumn):
                        if let key = SQLiteColumns.int64(statement, slot.position) {
                            var destinationName = destination
                            if let entityColumn, let number = SQLiteColumns.int64(statement, Int32(entityColumn)),
                               let actual = model.entitiesByNumber[Int(number)] {
                                destinationName = actual.name
                            }
                            value = .objectID(ManagedObjectID(entityName: destinationName, storeIdentifier: identifier, primaryKey: key))
                        }
                    }
                }
                (base + i).initialize(to: value)
            }
            initialized = slots.count
        }
        return StoreRow(entityName: decoder.entityName, primaryKey: sqlite3_column_int64(statement, 0),
                        version: SQLiteColumns.int64(statement, 2) ?? 0, values: values)
    }

    /// The value of a transformable attribute: its column's data through the attribute's value
    /// transformer. Data that does not transform is an error naming the entity, key, row and
    /// transformer, never nil: a later save would write nil over the data.
    private func transformedValue(_ statement: OpaquePointer, _ position: Int32, decoder: RowPlan.EntityDecoder, index: Int) throws -> Any? {
        guard let attribute = decoder.transformables[index] else { return nil }
        let type = sqlite3_column_type(statement, position)
        if type == SQLITE_NULL { return nil }
        guard type == SQLITE_BLOB || type == SQLITE_TEXT else {
            throw StoredValueMismatch(type == SQLITE_INTEGER ? "the INTEGER \(sqlite3_column_int64(statement, position))" : "the REAL \(sqlite3_column_double(statement, position))")
        }
        let length = Int(sqlite3_column_bytes(statement, position))
        let data = sqlite3_column_blob(statement, position).map { Data(bytes: $0, count: length) } ?? Data()
        do {
            return try TransformableValues.value(from: data, attribute: attribute)
        } catch {
            let pk = sqlite3_column_int64(statement, 0)
            let id = ManagedObjectID(entityName: decoder.entityName, storeIdentifier: identifier, primaryKey: pk)
            throw CoreDataError(.sqlite, "\(decoder.entityName).\(attribute.name) of the row Z_PK = \(pk) (\(id.uriString)) in the store at \(url.path) is a transformable attribute (value transformer \(attribute.valueTransformerName ?? "NSSecureUnarchiveFromData")) whose data could not be read: \(error.reason)",
                                objectURI: id.uriString, key: attribute.name)
        }
    }

    /// The error for a row whose Z_ENT is no entity of its table.
    private func unknownEntityError(_ statement: OpaquePointer, plan: RowPlan) -> CoreDataError {
        let key = sqlite3_column_int64(statement, 0)
        let found = SQLiteColumns.int64(statement, 1).map { "\($0)" } ?? "NULL"
        let known = plan.decoders.compactMap { $0 }.compactMap { d in model.entitiesByName[d.entityName].map { "\($0.name) = \($0.entityNumber)" } }
        return CoreDataError(.sqlite, "The row Z_PK = \(key) of table \(plan.table.name) in the store at \(url.path) has Z_ENT = \(found), which is no entity of the model stored in that table (\(known.joined(separator: ", "))): the row was written with another model or is damaged")
    }

    /// The error for a stored value its attribute cannot take.
    private func mismatchError(_ mismatch: StoredValueMismatch, _ statement: OpaquePointer, decoder: RowPlan.EntityDecoder, index: Int, type: AttributeType) -> CoreDataError {
        let key = model.entitiesByName[decoder.entityName]?.propertyNames[index] ?? "#\(index)"
        let pk = sqlite3_column_int64(statement, 0)
        let id = ManagedObjectID(entityName: decoder.entityName, storeIdentifier: identifier, primaryKey: pk)
        return CoreDataError(.sqlite, "\(decoder.entityName).\(key) of the row Z_PK = \(pk) (\(id.uriString)) in the store at \(url.path) holds \(mismatch.found), which a \(type.xcodeName) attribute cannot take; the row was written by another program: fix the row, or change the attribute's type with a migration",
                             objectURI: id.uriString, key: key, sqliteCode: 20)
    }

    /// Runs a SELECT of a plan's columns and decodes every row.
    func readRows(_ sql: String, _ values: [DatabaseValue], plan: RowPlan) throws -> [StoreRow] {
        try log.measure(sql: sql, arguments: values) {
            try read { db in
                let statement = try db.cachedStatement(sql: sql)
                let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(values))
                let handle = statement.sqliteStatement
                var rows: [StoreRow] = []
                while try cursor.next() != nil {
                    rows.append(try decodeCurrentRow(handle, plan: plan))
                }
                return rows
            }
        } rowCount: { $0.count }
    }

    /// The fetch SQL of this store (shared with the PostgreSQL store).
    var fetchQuery: SQLFetchQuery {
        SQLFetchQuery(model: model, schema: schema, storeIdentifier: identifier, dialect: .sqlite)
    }

    typealias QueryParts = SQLFetchQuery.Parts

    /// FROM, WHERE (the entity filter, then the predicate), ORDER BY and the window of a request.
    func queryParts(_ request: AnyFetchRequest, entity: EntityDescription, sorted: Bool = true, extraColumns: (inout SQLFetchTranslator) throws -> Void = { _ in }) throws -> QueryParts {
        try fetchQuery.parts(request, entity: entity, sorted: sorted, extraColumns: extraColumns)
    }

    /// The SELECT statement of a fetch, with `columns` as its select list.
    private func selectStatement(_ request: AnyFetchRequest, columns: (RowPlan) -> String) throws -> (plan: RowPlan, fragment: SQLFragment) {
        let entity = try model.entity(named: request.entityName)
        let plan = plan(forTable: schema.entities[entity.name]!.tableName)
        return (plan, try fetchQuery.select(request, entity: entity, columns: columns(plan)))
    }

    func fetchRows(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [StoreRow] {
        let (plan, statement) = try selectStatement(request) { $0.selectList }
        return try CoreDataError.mappingSQLite("Fetching \(request.entityName) objects from the store at", url) {
            try readRows(statement.sql, statement.arguments, plan: plan)
        }
    }

    func fetchIDs(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        let (_, statement) = try selectStatement(request) { _ in "t0.Z_PK, t0.Z_ENT" }
        let arguments = StatementArguments(statement.arguments)
        return try CoreDataError.mappingSQLite("Fetching \(request.entityName) object IDs from the store at", url) { try log.measure(sql: statement.sql, arguments: statement.arguments) {
            try read { db in
                try Row.fetchAll(db.cachedStatement(sql: statement.sql), arguments: arguments).map { row -> ManagedObjectID in
                    let number: Int = row[1]
                    guard let entity = model.entitiesByNumber[number] else {
                        let key: Int64 = row[0]
                        throw CoreDataError(.sqlite, "The row Z_PK = \(key) of table \(self.schema.entities[request.entityName]?.tableName ?? request.entityName) in the store at \(self.url.path) has Z_ENT = \(number), which is no entity of the model: the row was written with another model or is damaged")
                    }
                    return ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: row[0])
                }
            }
        } rowCount: { $0.count } }
    }

    func count(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> Int {
        let entity = try model.entity(named: request.entityName)
        let statement = try fetchQuery.count(request, entity: entity)
        let (sql, values) = (statement.sql, statement.arguments)
        return try CoreDataError.mappingSQLite("Counting \(request.entityName) objects in the store at", url) {
            try log.measure(sql: sql, arguments: values) {
                try read { db in try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values)) ?? 0 }
            } rowCount: { _ in 1 }
        }
    }

    func row(for id: ManagedObjectID, model: ManagedObjectModel) throws -> StoreRow? {
        guard let mapping = schema.entities[id.entityName] else { return nil }
        let plan = plan(forTable: mapping.tableName)
        let sql = "SELECT \(plan.selectList) FROM \(mapping.tableName) t0 WHERE t0.Z_PK = ? AND t0.Z_ENT = ?"
        let values: [DatabaseValue] = [id.primaryKey.databaseValue, mapping.entityNumber.databaseValue]
        return try CoreDataError.mappingSQLite("Reading \(id.uriString) from the store at", url) {
            try readRows(sql, values, plan: plan).first
        }
    }

    func rows(for ids: [ManagedObjectID], model: ManagedObjectModel) throws -> [StoreRow] {
        var result: [StoreRow] = []
        // One query per table, in chunks that stay under SQLite's variable limit.
        for (table, group) in Dictionary(grouping: ids, by: { schema.entities[$0.entityName]?.tableName ?? "" }) where !table.isEmpty {
            let plan = plan(forTable: table)
            for chunk in stride(from: 0, to: group.count, by: 500).map({ Array(group[$0..<min($0 + 500, group.count)]) }) {
                let sql = "SELECT \(plan.selectList) FROM \(table) t0 WHERE t0.Z_PK IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))"
                let values = chunk.map { $0.primaryKey.databaseValue }
                let wanted = Set(chunk)
                result += try CoreDataError.mappingSQLite("Reading \(chunk.count) objects of \(table) from the store at", url) { try readRows(sql, values, plan: plan) }.filter {
                    wanted.contains(ManagedObjectID(entityName: $0.entityName, storeIdentifier: identifier, primaryKey: $0.primaryKey))
                }
            }
        }
        return result
    }

    // MARK: Writing

    /// The error for a write to a store opened read-only.
    func readOnlyError(_ what: String) -> CoreDataError {
        CoreDataError(.persistentStoreSave, "Cannot \(what): the store at \(url.path) was added read-only (NSReadOnlyPersistentStoreOption)")
    }

    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] {
        if isReadOnly { throw readOnlyError("save new \(entity.name) objects") }
        // Keys come from the root entity's Z_MAX: every entity of a table shares its key space.
        let root = model.entitiesByName[entity.rootEntityName]!
        // One IMMEDIATE transaction (GRDB's `write`): it holds the write lock before reading
        // Z_MAX, so no other process can hand out the same keys, and it waits for the lock
        // with the busy timeout. The UPDATE's `AND Z_MAX = ?` must match: if it ever did not,
        // the keys are refused rather than reused.
        return try CoreDataError.mappingSQLite("Allocating \(count) primary keys for \(entity.name) in the store at", url) {
            try database.write { db in
                // Cached statements: every save of new objects runs these two, prepared once
                // per connection.
                let current = try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"), arguments: [root.entityNumber]) ?? 0
                try db.cachedStatement(sql: "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
                    .execute(arguments: [current + Int64(count), root.entityNumber, current])
                guard db.changesCount == 1 else {
                    throw CoreDataError(.persistentStoreIncompatibleSchema, "The store at \(url.path) has no primary-key row for \(root.name) in Z_PRIMARYKEY, or it changed while keys were allocated; no keys were handed out")
                }
                return (0..<count).map { current + 1 + Int64($0) }
            }
        }
    }

    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws {
        try save(changes, model: model, history: tracksHistory ? HistoryTransactionInfo() : nil)
    }

    func save(_ changes: StoreChanges, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws {
        try save(changes, model: model, history: tracksHistory ? transaction : nil)
    }

    /// Applies a save in one transaction; with `history`, records it there too.
    private func save(_ changes: StoreChanges, model: ManagedObjectModel, history: HistoryTransactionInfo?) throws {
        let newMetadata = pendingMetadata.withLock { $0 }
        guard !changes.isEmpty || newMetadata != nil else { return }
        if isReadOnly { throw readOnlyError("save") }
        try UnstorableModelParts.refuse(changes, storeType: .sqlite, storeIdentifier: identifier, model: model)
        let start = DispatchTime.now()
        // BEGIN IMMEDIATE: the write lock is taken (waiting up to the busy timeout) before
        // anything is read, so the busy handler applies.
        try CoreDataError.mappingSQLite("Saving the store at", url) {
            do {
                try database.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try apply(changes, db: db, history: history)
                        if let newMetadata { try writeMetadata(newMetadata, db: db) }
                        return .commit
                    }
                }
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                // A uniqueness constraint's UNIQUE index refused a row: Core Data's answer with
                // its default merge policy is 133021 (NSManagedObjectConstraintMergeError).
                // The transaction was rolled back: nothing of the save is written.
                throw CoreDataError(.constraintMerge, "The save breaks a uniqueness constraint of the model in the store at \(url.path): \(error.message ?? "UNIQUE constraint failed"). Nothing was saved", sqliteCode: error.extendedResultCode.rawValue)
            }
        }
        log.annotate("save of \(changes.inserted.count) inserted, \(changes.updated.count) updated, \(changes.deleted.count) deleted", since: start)
    }

    private func apply(_ changes: StoreChanges, db: Database, history: HistoryTransactionInfo?) throws {
        var conflicts: [String] = []
        let writer = SQLiteWriter(db: db, model: model, log: log, storeIdentifier: identifier)
        // Persistent history, when tracked: each change noted as its row is written.
        var record: HistoryRecord? = history == nil ? nil : HistoryRecord()
        for (k, (row, expected)) in changes.updated.enumerated() {
            // Only the changed columns, when the save knows them (SQLiteWriter).
            let properties = changes.properties(ofUpdate: k)
            if try !writer.update(row, expectedVersion: expected, plan: writePlan(row.entityName), properties: properties, history: &record) {
                let id = ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey)
                let mapping = schema.entities[row.entityName]!
                let now = try Int64.fetchOne(db, sql: "SELECT Z_OPT FROM \(mapping.tableName) WHERE Z_PK = ?", arguments: [row.primaryKey])
                conflicts.append("\(id.uriString) (version \(expected) read, \(now.map { "\($0)" } ?? "deleted") in the store)")
            }
        }
        for (id, expected) in changes.deleted {
            let mapping = schema.entities[id.entityName]!
            let tombstone = record == nil ? [] : try tombstoneValues(of: id, db: db)
            try execute(db, "DELETE FROM \(mapping.tableName) WHERE Z_PK = ? AND Z_OPT = ?", [id.primaryKey.databaseValue, expected.databaseValue])
            if db.changesCount == 0, let now = try Int64.fetchOne(db, sql: "SELECT Z_OPT FROM \(mapping.tableName) WHERE Z_PK = ?", arguments: [id.primaryKey]) {
                conflicts.append("\(id.uriString) (version \(expected) read, \(now) in the store)")
            } else if record != nil, db.changesCount > 0 {
                record!.deleted.append((mapping.entityNumber, id.primaryKey, tombstone))
            }
            // Many-to-many links of the deleted object go with it.
            let entity = model.entitiesByName[id.entityName]!
            for r in entity.relationships where r.isToMany {
                guard let (join, columns) = joinColumns(of: r, entity: entity.name) else { continue }
                try execute(db, "DELETE FROM \(join.name) WHERE \(columns.mine) = ?", [id.primaryKey.databaseValue])
            }
        }
        guard conflicts.isEmpty else {
            throw CoreDataError(.merge, "Could not merge changes: another context saved \(conflicts.joined(separator: ", ")) first")
        }
        // Rows come in runs of one entity: its plan is looked up once per run, not hashed per row.
        var plan: SQLiteWriter.Plan?
        for row in changes.inserted {
            if plan?.entityName != row.entityName { plan = writePlan(row.entityName) }
            try writer.insert(row, plan: plan!)
        }
        let statements = SQLiteBatchStatements(db: db, log: log)
        try relationshipWrites.applyLinks(changes, statements: statements)
        try relationshipWrites.applyOrderings(changes.orderings, statements: statements)
        var written: [String: [Int64]] = [:]
        for row in changes.inserted { written[row.entityName, default: []].append(row.primaryKey) }
        for (row, _) in changes.updated { written[row.entityName, default: []].append(row.primaryKey) }
        try derived.recompute(written: written, anyChange: !changes.isEmpty, db: db, log: log, model: model)
        if var record, let history {
            record.inserted = changes.inserted.map { (writePlan($0.entityName).entityNumber, $0.primaryKey) }
            try SQLiteHistoryRecorder.record(record, info: history, model: model, db: db, log: log)
        }
    }

    /// The values of a row's preserved attributes (preservesValueInHistoryOnDeletion), in
    /// tombstone order, read before the row is deleted: a batch delete calls it too, for
    /// ``recordHistory(inserted:updated:deleted:transaction:db:)``.
    func tombstoneValues(of id: ManagedObjectID, db: Database) throws -> [DatabaseValue] {
        guard let entity = model.entitiesByName[id.entityName], let mapping = schema.entities[id.entityName] else { return [] }
        let columns = SQLiteHistorySchema.preservedAttributes(of: entity).map { mapping.attributeColumns[$0.attribute.name] ?? "NULL" }
        guard !columns.isEmpty else { return [] }
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns.joined(separator: ", ")) FROM \(mapping.tableName) WHERE Z_PK = ?"), arguments: [id.primaryKey])
        return row.map { row in (0..<columns.count).map { row[$0] as DatabaseValue } } ?? []
    }

    func execute(_ db: Database, _ sql: String, _ values: [DatabaseValue]) throws {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(StatementArguments(values))
        log.statement(sql: sql, arguments: values)
        try statement.execute()
    }

    /// How an entity's rows are written, prepared once per entity.
    private func writePlan(_ entityName: String) -> SQLiteWriter.Plan { writePlans[entityName]! }
}
