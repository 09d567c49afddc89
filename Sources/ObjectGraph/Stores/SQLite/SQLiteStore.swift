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
    /// one adjusted to the tables and columns the file has (RelationalSchema.Layout).
    let schema: RelationalSchema
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
    let plans: [String: RelationalRowPlan]
    let writePlans: [String: RelationalWritePlan]
    /// The derived attributes a save computes.
    let derived: RelationalDerivedAttributes
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
                throw CoreDataError(
                    .persistentStoreOpen,
                    "There is no store at \(url.path) to open read-only (NSReadOnlyPersistentStoreOption): a read-only store is never created"
                )
            }
        } else {
            // Core Data's stores use incremental auto-vacuum (every fixture store has
            // auto_vacuum = 2, and says so in `_NSAutoVacuumLevel`); it only takes hold on a
            // new file, before its first table, and this runs before WAL mode is set. Only
            // there: on a file that has pages, the pragma writes the header in a transaction
            // of its own, and every open changed the file (its change counter moved).
            configuration.prepareDatabase { db in
                if try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
                    try db.execute(sql: "PRAGMA auto_vacuum = 2")
                }
            }
            // WAL set here, not with GRDB's `journalMode = .wal`: that one makes sure the -wal
            // file is not empty by creating and dropping a table, a write on every open that
            // changed the store file of a process that only read it. The synchronous level is
            // GRDB's for WAL, and the store's pragmas (run next) may change it.
            if SQLitePragmas.usesWAL(description.sqlitePragmas) {
                configuration.prepareDatabase { db in
                    if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" {
                        try db.execute(sql: "PRAGMA journal_mode = WAL")
                    }
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
            }
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
            throw CoreDataError(
                .persistentStoreOpen,
                "The file at \(url.path) could not be opened as a SQLite store: \(Self.describe(error)). Is it a Core Data store?"
            )
        }
        readOnlyFile = file
        tracksHistory = !readOnly && description.isPersistentHistoryTrackingEnabled
        let predicted = RelationalSchema(model: model)
        let newIdentifier = description.storeUUID ?? UUID().uuidString
        // Read or create in one IMMEDIATE transaction: of two processes creating one store at
        // once, the second waits for the first and then reads what it made.
        let queue = database
        /// The metadata, the tables' columns and the entity numbers of Z_PRIMARYKEY, or nil for
        /// a database without tables (a new or empty file).
        func readExisting(_ db: Database) throws -> (String, [String: Any], RelationalSchema.Layout, [String: Int])? {
            // sqlite_master itself, not GRDB's `tableExists`: that answers from a schema cache,
            // which misses the tables another process made since this connection first looked.
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            guard tables.contains("Z_METADATA") else {
                guard tables.isEmpty else {
                    throw CoreDataError(
                        .persistentStoreInvalidType,
                        "The file at \(url.path) is a SQLite database but not a Core Data store: it has no Z_METADATA table (its tables: \(tables.joined(separator: ", ")))"
                    )
                }
                return nil
            }
            let (uuid, plist) = try Self.readMetadata(db, url: url)
            let numbers = try Self.readEntityNumbers(db, url: url)
            return (uuid, plist, try Self.readLayout(db, tables: tables), numbers)
        }
        var existing = try CoreDataError.mappingSQLite("Opening the store at", url) {
            try SQLiteConnection.retryingWhileBusy(timeout: timeout) { try queue.read(readExisting) }
        }
        var created: [String: Any]?
        if existing == nil {
            guard !readOnly else {
                throw CoreDataError(
                    .persistentStoreOpen,
                    "The SQLite file at \(url.path) has no tables: there is no store to open read-only (NSReadOnlyPersistentStoreOption)"
                )
            }
            // Created in one IMMEDIATE transaction that looks again: of two processes creating
            // one store at once, the second waits for the first, then reads what it made.
            (existing, created) = try CoreDataError.mappingSQLite("Creating the store at", url) {
                try queue.write {
                    db -> ((String, [String: Any], RelationalSchema.Layout, [String: Int])?, [String: Any]?) in
                    if let made = try readExisting(db) { return (made, nil) }
                    return (nil, try Self.create(db, schema: predicted, model: model, identifier: newIdentifier))
                }
            }
        }
        // A store that exists is read with the tables and columns it has.
        let schema = existing.map { RelationalSchema(model: model, existing: $0.2) } ?? predicted
        self.schema = schema
        // Every plan up front: the store is shared by contexts on different threads.
        self.plans = Dictionary(
            uniqueKeysWithValues: schema.tables.map {
                ($0.name, RelationalRowPlan(table: $0.name, schema: schema, model: model))
            })
        self.writePlans = Dictionary(
            uniqueKeysWithValues: model.entities.map { ($0.name, RelationalWritePlan(for: $0, schema: schema)) })
        self.derived = try RelationalDerivedAttributes(model: model, schema: schema)
        if let (uuid, plist, _, numbers) = existing {
            identifier = uuid
            metadata = plist
            metadata["NSStoreUUID"] = uuid
            try checkCompatibility(rewritingLegacyHashes: !readOnly && !description.keepsLegacyVersionHashes)
            try checkEntityNumbers(numbers)
        } else {
            identifier = newIdentifier
            metadata = created ?? [:]
        }
        // The store's metadata and version hashes stay as they are: Core Data's own tracked
        // stores (the CoreDataPlus fixture) say nothing of tracking in Z_METADATA.
        if tracksHistory { try prepareHistoryTables() }
    }

    /// The columns of every table of a store, from `PRAGMA table_info` (not GRDB's cache).
    static func readLayout(_ db: Database, tables: [String]) throws -> RelationalSchema.Layout {
        var layout: RelationalSchema.Layout = [:]
        for table in tables {
            layout[table] = Set(
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]))
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
    private static func create(_ db: Database, schema: RelationalSchema, model: ManagedObjectModel, identifier: String)
        throws -> [String: Any]
    {
        // The metadata Core Data writes: the store type and the model's version keys (hashes,
        // their digest and checksum, identifiers, framework version).
        var plist = model.metadata(replacingVersionKeysOf: [
            "NSStoreType": StoreType.sqlite.rawValue, "_NSAutoVacuumLevel": "2",
        ])
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        for statement in schema.creationStatements { try db.execute(sql: statement) }
        for entity in model.entities {
            let parent = entity.parentEntityName.flatMap { model.entitiesByName[$0]?.entityNumber } ?? 0
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                arguments: [entity.entityNumber, entity.name, parent])
        }
        try db.execute(
            sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", arguments: [identifier, data])
        plist["NSStoreUUID"] = identifier
        return plist
    }

    /// Reads Z_METADATA: the store UUID and the property list (without the UUID).
    static func readMetadata(_ db: Database, url: URL) throws -> (String, [String: Any]) {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
            let uuid = row["Z_UUID"] as String?, let data = row["Z_PLIST"] as Data?
        else {
            throw CoreDataError(.persistentStoreOpen, "The store at \(url.path) has no metadata row in Z_METADATA")
        }
        let plist = try RelationalMetadata.propertyList(from: data, storeAt: url.path)
        return (uuid, plist)
    }

    /// Z_PRIMARYKEY's entity numbers by entity name.
    static func readEntityNumbers(_ db: Database, url: URL) throws -> [String: Int] {
        var numbers: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            guard let number = row["Z_ENT"] as Int?, let name = row["Z_NAME"] as String? else {
                throw CoreDataError(
                    .persistentStoreOpen,
                    "The store at \(url.path) has a Z_PRIMARYKEY row without a Z_ENT number or a Z_NAME")
            }
            numbers[name] = number
        }
        return numbers
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
            throw CoreDataError(
                .fileReadNoSuchFile,
                "There is no store at \(url.path) yet: the file is empty (a store whose creation was interrupted); adding the store creates it"
            )
        }
        do {
            // Read only, leaving no -shm or -wal beside the store (SQLiteReadOnlyFile).
            let file = try SQLiteReadOnlyFile(
                url: url, configuration: SQLiteConnection.configuration(timeout: StoreOption.defaultTimeout))
            defer { file.close() }
            let (uuid, plist) = try file.queue.read { db -> (String, [String: Any]) in
                guard try db.tableExists("Z_METADATA") else {
                    throw CoreDataError(
                        .persistentStoreInvalidType,
                        "The file at \(url.path) is not a Core Data store: it has no Z_METADATA table")
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
            throw CoreDataError(
                .persistentStoreOpen, "The file at \(url.path) could not be read as a SQLite store: \(describe(error))")
        }
    }

    /// Error 134100 unless every entity's version hash matches the store's. A store this
    /// package wrote before it computed Core Data's hashes, with the old hashes of this very
    /// model, gets Core Data's hashes written into its metadata, in place (the data is the
    /// same), and the store's log says so.
    /// Checks that Z_PRIMARYKEY numbers the model's entities as the model does: every row
    /// and key of an entity is stored under its number, so a store numbered otherwise (edited
    /// by hand, or damaged) would be read as other entities' objects. A name the model lacks
    /// (Core Data's CloudKit bookkeeping entities) is left alone.
    private func checkEntityNumbers(_ numbers: [String: Int]) throws {
        for entity in model.entities {
            guard let number = numbers[entity.name], number != entity.entityNumber else { continue }
            throw CoreDataError(
                .persistentStoreOpen,
                "The store at \(url.path) numbers the entity \(entity.name) "
                    + "\(number) in Z_PRIMARYKEY (Z_ENT), where its model numbers it \(entity.entityNumber): "
                    + "the file was changed by something other than Core Data")
        }
    }

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
            try CoreDataError.mappingSQLite("Writing Core Data's version hashes into the metadata of the store at", url)
            {
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
}
