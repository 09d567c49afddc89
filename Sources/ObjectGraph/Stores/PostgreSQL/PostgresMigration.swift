import Foundation
import GRDB

/// Migration of a PostgreSQL store, as ``MigrationStep`` and automatic migration run it.
///
/// A store is its schema, as a SQLite store is its file, and a migration keeps the SQLite
/// store's promise: a failure or a killed process leaves the store untouched or completely
/// migrated.
///
/// - Lightweight (a ``RelationalMigrationPlan`` in PostgreSQL's words): every statement, the new
///   Z_PRIMARYKEY and the metadata in one transaction. PostgreSQL's DDL is transactional, so a
///   failure or a lost connection rolls the schema back as it was.
/// - With a mapping model: a ``MigrationManager`` streams the store into a new store in the
///   schema `<schema>_migrating`, then one transaction renames the schemas (`ALTER SCHEMA ...
///   RENAME`) and drops the old one. A migration killed before that commit leaves its
///   `_migrating` schema, which the next migration of the store drops.
///
/// Every migration of a store holds a session advisory lock on its schema's name for its whole
/// run, so of two processes opening an old store at once one migrates and the other then finds
/// the store current; the server releases the lock of a killed process with its connection.
/// The schema belongs to the store: the swap replaces the whole schema.
enum PostgresMigration {
    /// The suffix of the schema a migration with a mapping model writes into.
    static let migratingSuffix = "_migrating"
    /// PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1): longer names are cut.
    static let maximumIdentifierLength = 63

    /// The same URL with another `schema` query item.
    static func url(_ url: URL, schema: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "schema" }
        items.append(URLQueryItem(name: "schema", value: schema))
        components.queryItems = items
        return components.url ?? url
    }

    /// The URL of the scratch store a migration with a mapping model writes into.
    static func migratingURL(for url: URL) throws -> URL {
        let schema = PostgresNames.schemaName(of: url)
        guard schema.utf8.count + migratingSuffix.utf8.count <= maximumIdentifierLength else {
            throw CoreDataError(
                .migration,
                "The schema name \(schema) of \(PostgresNames.redacted(url)) is too long to migrate with a mapping model: \(schema)\(migratingSuffix) must fit PostgreSQL's \(maximumIdentifierLength) bytes; use a schema name of at most \(maximumIdentifierLength - migratingSuffix.utf8.count) bytes"
            )
        }
        return self.url(url, schema: schema + migratingSuffix)
    }

    /// Runs `body` holding the store's migration lock, on one connection of its own whose
    /// search_path is the store's schema.
    static func whileMigrating<T>(_ url: URL, log: SQLLog, _ body: (Session) throws -> T) throws -> T {
        let wire: any PostgresWire
        do {
            wire = try PostgresWires.connector()(url, 1, StoreOption.defaultTimeout)
        } catch let error as CoreDataError {
            throw error
        } catch {
            throw CoreDataError(
                .migrationManagerSourceStore,
                "Can't reach the PostgreSQL store at \(PostgresNames.redacted(url)) to migrate it: \(error)")
        }
        defer { wire.close() }
        let key = ("ObjectGraph migration " + PostgresNames.schemaName(of: url)).databaseValue
        return try PostgresStore.mapping("Migrating the store at", url) {
            try wire.withConnection { connection in
                let session = Session(
                    url: url, statements: PostgresStatements(connection: connection, log: log), log: log)
                // Waits for a migration of this store in another process to end (or die).
                try session.statements.query("SELECT pg_advisory_lock(hashtext(?))", [key])
                defer { _ = try? session.statements.query("SELECT pg_advisory_unlock(hashtext(?))", [key]) }
                return try body(session)
            }
        }
    }

    /// The work of one migration run, on the connection that holds the store's migration lock.
    struct Session {
        let url: URL
        let statements: PostgresStatements
        let log: SQLLog

        var schemaName: String { PostgresNames.schemaName(of: url) }

        /// Drops the `_migrating` schema a killed migration of this store left: no migration of
        /// the store is running (this session holds the lock), so it is worthless.
        func removeAbandonedDestination() throws {
            guard schemaName.utf8.count + migratingSuffix.utf8.count <= maximumIdentifierLength else { return }
            try statements.query(
                "DROP SCHEMA IF EXISTS \(identifier: schemaName + migratingSuffix) CASCADE")
        }

        /// The store's metadata with its UUID, or nil when the schema holds no store yet.
        func metadata() throws -> [String: Any]? {
            let tables = try statements.query(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND upper(table_name) = 'Z_METADATA'",
                [schemaName.databaseValue])
            guard tables.rowCount > 0 else { return nil }
            var (uuid, plist) = try PostgresStore.readMetadata(statements, url: url)
            plist["NSStoreUUID"] = uuid
            return plist
        }

        /// Migrates the store one step: in place when the step is lightweight and SQL can
        /// express it, else through a migration manager and a schema swap.
        func migrate(_ step: MigrationStep, progress: MigrationProgressHandler?, batchSize: Int?) throws {
            if step.isLightweight,
                let plan = RelationalMigrationPlan(
                    source: step.sourceModel, destination: step.destinationModel,
                    mapping: step.mappingModel, dialect: .postgres)
            {
                try log.migration("\(step.description) of schema \(schemaName), in place") {
                    try migrateInPlace(plan, progress: progress)
                }
                return
            }
            try migrateIntoNewSchema(step, progress: progress, batchSize: batchSize)
        }

        /// Runs the plan, the primary keys and the metadata in one transaction.
        func migrateInPlace(_ plan: RelationalMigrationPlan, progress: MigrationProgressHandler?) throws {
            let total = plan.statements.count + 2
            func report(_ done: Int, _ label: String?) {
                progress?(
                    MigrationProgress(
                        fractionCompleted: Float(done) / Float(total), pass: 1, entityMappingName: label,
                        completedUnits: done, totalUnits: total))
            }
            report(0, nil)
            try statements.query("BEGIN", [])
            do {
                let (_, plist) = try PostgresStore.readMetadata(statements, url: url)
                guard plan.source.isConfiguration(withName: nil, compatibleWithStoreMetadata: plist) else {
                    throw plan.source.incompatibleStoreError(plist, url: url)
                }
                let oldRows = try statements.query("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY", [])
                let old = (0..<oldRows.rowCount).compactMap { i -> (name: String, maximum: Int64)? in
                    guard case .string(let name) = oldRows[i, 0].storage else { return nil }
                    if case .int64(let maximum) = oldRows[i, 1].storage { return (name, maximum) }
                    return (name, 0)
                }
                for (i, statement) in plan.statements.enumerated() {
                    try statements.query(statement.sql, [])
                    report(i + 1, statement.label)
                }
                let keys = try plan.primaryKeyRows(old: old) { table in
                    let highest = try statements.query("SELECT MAX(Z_PK) FROM \(table)", [])
                    guard highest.rowCount == 1, case .int64(let key) = highest[0, 0].storage else { return nil }
                    return key
                }
                try statements.query("DELETE FROM Z_PRIMARYKEY", [])
                for key in keys {
                    try statements.query(
                        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                        [
                            key.entityNumber.databaseValue, key.name.databaseValue, key.superNumber.databaseValue,
                            key.maximum.databaseValue,
                        ])
                }
                report(total - 1, nil)
                try statements.query(
                    "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
                    [try plan.migratedMetadata(plist).databaseValue])
                try statements.query("COMMIT", [])
            } catch {
                _ = try? statements.query("ROLLBACK", [])
                guard let wire = error as? PostgresWireError else { throw error }
                // PostgreSQL's failure is kept as the underlying error, with its SQLSTATE.
                let underlying = CoreDataError(
                    .sqlite, "Migrating \(PostgresNames.redacted(url)) in place: PostgreSQL failed: \(wire)")
                throw CoreDataError(
                    .migration,
                    "Lightweight migration of \(PostgresNames.redacted(url)) failed and was rolled back, the store is unchanged: \(underlying.message)",
                    detailedErrors: [underlying])
            }
            report(total, nil)
        }

        /// Streams the store into `<schema>_migrating` with a migration manager, then swaps the
        /// schemas in one transaction. The scratch schema goes when anything fails.
        func migrateIntoNewSchema(_ step: MigrationStep, progress: MigrationProgressHandler?, batchSize: Int?) throws {
            guard let metadata = try metadata() else {
                throw CoreDataError(
                    .migrationManagerSourceStore,
                    "There is no store to migrate in the schema \(schemaName) of \(PostgresNames.redacted(url))")
            }
            guard step.sourceModel.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else {
                throw step.sourceModel.incompatibleStoreError(metadata, url: url)
            }
            let scratch = try migratingURL(for: url)
            let scratchSchema = PostgresNames.schemaName(of: scratch)
            try statements.query("DROP SCHEMA IF EXISTS \(identifier: scratchSchema) CASCADE")
            do {
                try step.migrateWithManager(
                    from: url, type: .postgres, metadata: metadata, into: scratch, progress: progress,
                    batchSize: batchSize, log: log)
                try swap(in: scratchSchema)
            } catch {
                _ = try? statements.query("DROP SCHEMA IF EXISTS \(identifier: scratchSchema) CASCADE")
                throw error
            }
        }

        /// The commit point of a migration with a mapping model: the complete new schema takes
        /// the store's name, and the old one goes, in one transaction.
        func swap(in scratchSchema: String) throws {
            let old = schemaName
            let replaced = schemaName + "_replaced"
            try statements.query("BEGIN", [])
            do {
                try statements.query("DROP SCHEMA IF EXISTS \(identifier: replaced) CASCADE")
                try statements.query("ALTER SCHEMA \(identifier: old) RENAME TO \(identifier: replaced)")
                try statements.query("ALTER SCHEMA \(identifier: scratchSchema) RENAME TO \(identifier: old)")
                try statements.query("DROP SCHEMA \(identifier: replaced) CASCADE")
                try statements.query("COMMIT", [])
            } catch {
                _ = try? statements.query("ROLLBACK", [])
                throw error
            }
        }
    }

    /// Whether the schema a URL names exists (a store, or anything else, may be in it).
    static func schemaExists(at url: URL) throws -> Bool {
        let wire = try PostgresWires.connector()(url, 1, StoreOption.defaultTimeout)
        defer { wire.close() }
        return try PostgresStore.mapping("Looking for the schema of", url) {
            try wire.withConnection { connection in
                try connection.query(
                    "SELECT 1 FROM pg_namespace WHERE nspname = $1", [PostgresNames.schemaName(of: url).databaseValue]
                ).rowCount > 0
            }
        }
    }

    /// Drops the schema a URL names, with everything in it: a migration's destination that it
    /// created and that failed. Errors are ignored, as a scratch file's removal's are.
    static func dropSchema(at url: URL) {
        guard let wire = try? PostgresWires.connector()(url, 1, StoreOption.defaultTimeout) else { return }
        defer { wire.close() }
        _ = try? wire.withConnection { connection in
            try connection.query(
                "DROP SCHEMA IF EXISTS \(PostgresNames.quoted(PostgresNames.schemaName(of: url))) CASCADE", [])
        }
    }
}
