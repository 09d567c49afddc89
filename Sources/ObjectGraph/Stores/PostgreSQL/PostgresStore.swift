import Foundation
import GRDB

/// The PostgreSQL store: the SQLite store's layout and semantics in one schema of a
/// PostgreSQL database, reached through a ``PostgresWire`` (ObjectGraphPostgres).
///
/// The same tables and columns as a SQLite store (``RelationalSchema``, in ``PostgresSchema``'s
/// types), the same metadata with
/// Core Data's version hashes, the same translator for fetches (``SQLFetchTranslator`` in its
/// PostgreSQL dialect). Saves are one transaction each, whose updates and deletes carry
/// `WHERE Z_PK = $1 AND Z_OPT = $2`: under READ COMMITTED a row another process changed first
/// fails the condition once that process commits, so the save is a merge conflict (133020),
/// never a lost update.
///
/// The store's jobs are split by file: opening and metadata here; fetching
/// (PostgresStore+Fetching), saving (PostgresStore+Saving), batch requests, persistent history
/// and migration in their own files.
final class PostgresStore: @unchecked Sendable {
    // @unchecked Sendable: every property is set in `init`; `metadata` changes only while a
    // migration or the compatibility check holds the store alone, before it is shared.
    let identifier: String
    /// The store's `postgres://` URL (its `schema` query item names the schema).
    let url: URL
    let model: ManagedObjectModel
    /// The tables and columns, as the SQLite store lays them out.
    let schema: RelationalSchema
    /// The PostgreSQL schema the store's tables are in.
    let schemaName: String
    let wire: any PostgresWire
    let log: SQLLog
    /// Whether each save records persistent history (NSPersistentHistoryTrackingKey).
    let tracksHistory: Bool
    private(set) var metadata: [String: Any]
    /// The LISTEN behind remote change notifications, while the store posts them.
    let remoteChanges = PostgresRemoteChanges()

    /// The store at `url`, as ``PersistentStoreCoordinator`` adds it.
    static func open(url: URL, model: ManagedObjectModel, description: PersistentStoreDescription, log: SQLLog) throws
        -> PersistentStoreBackend
    {
        try PostgresStore(url: url, model: model, description: description, log: log)
    }

    /// Opens the store in the schema `url` names, creating its tables if the schema has none.
    ///
    /// Creating runs in one transaction that holds an advisory lock on the schema's name, so of
    /// two processes creating one store at once, the second waits and then reads what the
    /// first made. Throws `.persistentStoreOpen` when the server cannot be reached or the
    /// schema has tables but no Z_METADATA, and 134100 when the model differs from the store's.
    init(url: URL, model: ManagedObjectModel, description: PersistentStoreDescription, log: SQLLog) throws {
        try UnstorableModelParts.refuseUnstorableRelationships(of: model, storeType: .postgres)
        // Core Data computes derived attributes in SQLite triggers and UPDATEs of its own SQL;
        // this store does not compute them yet, and refuses rather than leave them stale.
        if let derived = model.entities.lazy.flatMap({ e in
            e.attributes.filter(\.isDerived).map { "\(e.name).\($0.name)" }
        }).first {
            throw CoreDataError(
                .persistentStoreOpen,
                "The PostgreSQL store does not compute derived attributes (NSDerivedAttributeDescription) yet, and the model has \(derived): use a SQLite store for this model, or compute the value in code"
            )
        }
        self.url = url
        self.model = model
        self.log = log
        schemaName = PostgresNames.schemaName(of: url)
        let connector = try PostgresWires.connector()
        do {
            wire = try connector(url, description.connectionPoolSize, description.timeout)
        } catch {
            throw CoreDataError(
                .persistentStoreOpen,
                "The PostgreSQL store at \(PostgresNames.redacted(url)) could not be opened: \(error)")
        }
        if description.isReadOnly {
            wire.close()
            throw CoreDataError(
                .persistentStoreOpen,
                "A PostgreSQL store cannot be opened read-only (NSReadOnlyPersistentStoreOption): use a read-only database role instead"
            )
        }
        tracksHistory = description.isPersistentHistoryTrackingEnabled
        let predicted = RelationalSchema(model: model)
        let newIdentifier = description.storeUUID ?? UUID().uuidString
        let opened: (uuid: String, plist: [String: Any], layout: RelationalSchema.Layout)
        do {
            opened = try Self.openOrCreate(
                wire: wire, url: url, schemaName: schemaName, schema: predicted, model: model,
                identifier: newIdentifier, log: log)
        } catch {
            wire.close()
            throw error
        }
        identifier = opened.uuid
        metadata = opened.plist
        metadata["NSStoreUUID"] = opened.uuid
        schema = RelationalSchema(model: model, existing: opened.layout)
        do {
            try checkCompatibility()
            if tracksHistory { try prepareHistoryTables() }
        } catch {
            wire.close()
            throw error
        }
    }

    /// Reads the store's metadata and layout, creating the schema, tables and metadata first
    /// when the schema holds no store.
    private static func openOrCreate(
        wire: any PostgresWire, url: URL, schemaName: String, schema: RelationalSchema, model: ManagedObjectModel,
        identifier: String, log: SQLLog
    ) throws -> (uuid: String, plist: [String: Any], layout: RelationalSchema.Layout) {
        try mapping("Opening the store at", url) {
            try wire.withConnection { connection in
                let statements = PostgresStatements(connection: connection, log: log)
                if let existing = try readExisting(statements, url: url, schemaName: schemaName) { return existing }
                _ = try statements.query("BEGIN", [])
                // Serializes creators of this schema, in every process, until COMMIT.
                _ = try statements.query(
                    "SELECT pg_advisory_xact_lock(hashtext($1))", [("ObjectGraph " + schemaName).databaseValue])
                if let existing = try readExisting(statements, url: url, schemaName: schemaName) {
                    _ = try statements.query("COMMIT", [])
                    return existing
                }
                _ = try statements.query("CREATE SCHEMA IF NOT EXISTS \(identifier: schemaName)")
                for statement in PostgresSchema.creationStatements(for: schema) + PostgresFunctions.creationStatements {
                    _ = try statements.query(statement, [])
                }
                for entity in model.entities {
                    let parent = entity.parentEntityName.flatMap { model.entitiesByName[$0]?.entityNumber } ?? 0
                    _ = try statements.query(
                        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                        [entity.entityNumber.databaseValue, entity.name.databaseValue, parent.databaseValue])
                }
                let plist = model.metadata(replacingVersionKeysOf: ["NSStoreType": StoreType.postgres.rawValue])
                let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
                _ = try statements.query(
                    "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                    [identifier.databaseValue, data.databaseValue])
                _ = try statements.query("COMMIT", [])
                return (identifier, plist, try readLayout(statements, schemaName: schemaName))
            }
        }
    }

    /// The metadata and layout of the store in the schema, or nil when the schema has no tables.
    private static func readExisting(_ statements: PostgresStatements, url: URL, schemaName: String) throws -> (
        uuid: String, plist: [String: Any], layout: RelationalSchema.Layout
    )? {
        let tables = try statements.query(
            "SELECT upper(table_name) FROM information_schema.tables WHERE table_schema = ?", [schemaName.databaseValue]
        )
        let names = (0..<tables.rowCount).compactMap { tables[$0, 0].storage.value as? String }
        guard names.contains("Z_METADATA") else {
            guard names.isEmpty else {
                throw CoreDataError(
                    .persistentStoreInvalidType,
                    "The schema \(schemaName) of \(PostgresNames.redacted(url)) has tables but is not a Core Data store: it has no Z_METADATA table (its tables: \(names.sorted().joined(separator: ", ")))"
                )
            }
            return nil
        }
        let (uuid, plist) = try readMetadata(statements, url: url)
        return (uuid, plist, try readLayout(statements, schemaName: schemaName))
    }

    /// Reads Z_METADATA: the store UUID and the property list (without the UUID).
    static func readMetadata(_ statements: PostgresStatements, url: URL) throws -> (String, [String: Any]) {
        let row = try statements.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1", [])
        guard row.rowCount == 1, case .string(let uuid) = row[0, 0].storage, case .blob(let data) = row[0, 1].storage
        else {
            throw CoreDataError(
                .persistentStoreOpen, "The store at \(PostgresNames.redacted(url)) has no metadata row in Z_METADATA")
        }
        let plist = try RelationalMetadata.propertyList(from: data, storeAt: PostgresNames.redacted(url))
        return (uuid, plist)
    }

    /// The columns of every table in the schema, in upper case as the layout names them.
    static func readLayout(_ statements: PostgresStatements, schemaName: String) throws -> RelationalSchema.Layout {
        let rows = try statements.query(
            "SELECT upper(table_name), upper(column_name) FROM information_schema.columns WHERE table_schema = ?",
            [schemaName.databaseValue])
        var layout: RelationalSchema.Layout = [:]
        for i in 0..<rows.rowCount {
            guard case .string(let table) = rows[i, 0].storage, case .string(let column) = rows[i, 1].storage else {
                continue
            }
            layout[table, default: []].insert(column)
        }
        return layout
    }

    /// The metadata of the store a URL names, read without adding it
    /// (metadataForPersistentStoreOfType:URL:options:).
    static func metadata(at url: URL) throws -> [String: Any] {
        let wire = try PostgresWires.connector()(url, 1, StoreOption.defaultTimeout)
        defer { wire.close() }
        let schemaName = PostgresNames.schemaName(of: url)
        return try mapping("Reading the metadata of the store at", url) {
            try wire.withConnection { connection in
                let statements = PostgresStatements(connection: connection, log: SQLLog.ambient)
                guard let (uuid, plist, _) = try readExisting(statements, url: url, schemaName: schemaName) else {
                    throw CoreDataError(
                        .fileReadNoSuchFile,
                        "There is no store in the schema \(schemaName) of \(PostgresNames.redacted(url)) yet: adding the store creates it"
                    )
                }
                var result = plist
                result["NSStoreUUID"] = uuid
                return result
            }
        }
    }

    /// Error 134100 unless every entity's version hash matches the store's.
    private func checkCompatibility() throws {
        switch model.hashMatch(withStoreMetadata: metadata) {
        case .current?, .legacy?: return
        case nil: throw model.incompatibleStoreError(metadata, url: url)
        }
    }

    // MARK: Statements

    /// Runs `body` on one connection in one transaction: COMMIT when it returns, ROLLBACK
    /// when it throws. Errors become ``CoreDataError``s that say what was being done.
    func inTransaction<T>(_ operation: String, _ body: (PostgresStatements) throws -> T) throws -> T {
        try Self.mapping(operation, url, transaction: true) {
            try wire.withConnection { connection in
                let statements = PostgresStatements(connection: connection, log: log)
                _ = try statements.query("BEGIN", [])
                let result: T
                do {
                    result = try body(statements)
                } catch {
                    _ = try? statements.query("ROLLBACK", [])
                    throw error
                }
                do {
                    _ = try statements.query("COMMIT", [])
                } catch let error as PostgresWireError where error.isConnectionLoss {
                    // The one case where the outcome is unknown: the server may have committed
                    // and gone before it answered. Said so, for the caller to check.
                    throw PostgresWireError(sqlState: error.sqlState, message: error.message, statement: "COMMIT")
                }
                return result
            }
        }
    }

    /// Runs `body` on one connection, each statement committing on its own. With
    /// `retryingLostConnection`, a body the caller knows is safe to run twice runs again on a new
    /// connection when the first was lost (the wire retries only statements that change nothing).
    func withStatements<T>(
        _ operation: String, retryingLostConnection: Bool = false,
        _ body: (PostgresStatements) throws -> T
    ) throws -> T {
        try Self.mapping(operation, url) {
            func run() throws -> T {
                try wire.withConnection { try body(PostgresStatements(connection: $0, log: log)) }
            }
            do {
                return try run()
            } catch let error as PostgresWireError
                where retryingLostConnection && error.isConnectionLoss
                && error.sqlState != PostgresWireError.unableToConnect
            {
                return try run()
            }
        }
    }

    /// Runs `body`, turning a wire error into a ``CoreDataError`` that names the operation and
    /// the store (its URL without the password): a unique violation is 133021, a cancelled
    /// statement (statement_timeout) or a pool busy past the timeout 134090, a lost connection
    /// 134030 for a save and 134080 otherwise, anything else 134180 with the server's message.
    static func mapping<T>(
        _ operation: String, _ url: URL, transaction: Bool = false,
        _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch let error as PostgresWireError {
            let place = "\(operation) \(PostgresNames.redacted(url))"
            let isSave = operation.hasPrefix("Saving")
            switch error.sqlState {
            case "23505"?:
                throw CoreDataError(
                    .constraintMerge,
                    "\(place): the change breaks a uniqueness constraint of the model (\(error.message)). Nothing was saved"
                )
            case "57014"?:
                throw CoreDataError(
                    .persistentStoreTimeout,
                    """
                    \(place): PostgreSQL cancelled the statement (\(error.message); statement_timeout in the URL \
                    or the server's settings bounds each statement). Its transaction was rolled back: nothing of it \
                    was written
                    """)
            case PostgresWireError.poolTimeout?:
                throw CoreDataError(.persistentStoreTimeout, "\(place): \(error.message)")
            case _ where error.isConnectionLoss:
                let text = lostConnection(
                    place, PostgresNames.redacted(url), error, isSave: isSave,
                    transaction: transaction)
                throw CoreDataError(isSave ? .persistentStoreSave : .persistentStoreOpen, text)
            case nil:
                throw CoreDataError(.persistentStoreOpen, "\(place): \(error.message)")
            default:
                throw CoreDataError(.sqlite, "\(place): PostgreSQL failed: \(error)")
            }
        }
    }

    /// What a lost (or refused) connection means for the operation, and what to do.
    private static func lostConnection(
        _ place: String, _ where_: String, _ error: PostgresWireError, isSave: Bool,
        transaction: Bool
    ) -> String {
        // The place is said once; the server's sentence loses its full stop.
        var detail = error.message.replacingOccurrences(of: "Could not connect to \(where_): ", with: "")
        while detail.hasSuffix(".") { detail.removeLast() }
        let reason =
            error.sqlState == PostgresWireError.unableToConnect
            ? "the server cannot be reached: \(detail)"
            : "the connection to the server was lost: \(detail)"
        let outcome =
            !transaction || error.sqlState == PostgresWireError.unableToConnect
            ? ""
            : error.statement == "COMMIT"
                ? " The loss came during COMMIT, so whether the server committed the transaction is unknown: fetch to see."
                : " The transaction was rolled back: nothing of it was written."
        let next =
            isSave
            ? "The context keeps its changes; save again once the server is back, and the store reconnects"
            : "The store reconnects on its next use"
        return "\(place): \(reason).\(outcome) \(next)"
    }

    func close() throws {
        remoteChanges.stop()
        wire.close()
    }
}

/// One held connection as the store uses it, each statement in the store's SQL log
/// (`OBJECTGRAPH_SQL_DEBUG=1`). A ``SQLFragment`` is written out in PostgreSQL's dialect, its
/// bindings numbered `$1`, `$2`, ... as it is rendered; SQL text still written with `?`
/// placeholders (statements not yet built as fragments) is numbered by scanning it.
struct PostgresStatements {
    let connection: any PostgresWireConnection
    let log: SQLLog

    /// Runs one statement written with `?` placeholders.
    @discardableResult
    func query(_ sql: String, _ arguments: [DatabaseValue]) throws -> PostgresWireResult {
        try run(Self.numberingPlaceholders(sql), arguments)
    }

    /// Runs one fragment, rendered in PostgreSQL's dialect.
    @discardableResult
    func query(_ fragment: SQLFragment) throws -> PostgresWireResult {
        let (sql, arguments) = fragment.rendered(in: .postgres)
        return try run(sql, arguments)
    }

    /// Runs SQL whose placeholders are PostgreSQL's own.
    private func run(_ sql: String, _ arguments: [DatabaseValue]) throws -> PostgresWireResult {
        try log.measure(sql: sql, arguments: arguments) {
            try connection.query(sql, arguments)
        } rowCount: {
            $0.rowCount
        }
    }

    /// `?` placeholders as `$1`, `$2`, ...; a `?` inside a quoted string or identifier stays.
    static func numberingPlaceholders(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// The PostgreSQL store's held connection as batch requests use it.
extension PostgresStatements: SQLStoreStatements {
    func fetch(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[DatabaseValue]] {
        Self.rows(of: try query(sql, arguments))
    }

    func fetch(_ statement: SQLFragment) throws -> [[DatabaseValue]] {
        Self.rows(of: try query(statement))
    }

    /// A result's rows, each as its columns' values.
    private static func rows(of result: PostgresWireResult) -> [[DatabaseValue]] {
        (0..<result.rowCount).map { row in (0..<result.columnCount).map { result[row, $0] } }
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        try query(sql, arguments).affectedRows
    }
}
