import Foundation

/// The PostgreSQL store's kind: a store is a schema of a database a `postgres://` URL names,
/// migrated under the schema's migration lock, never a file.
struct PostgresStoreKind: PersistentStoreKind {
    let type = StoreType.postgres
    let swiftName = ".postgres"
    let isAtomic = false
    let isServer = true
    let usesFiles = false

    func open(
        at url: URL?, description: PersistentStoreDescription, model: ManagedObjectModel,
        log: SQLLog
    ) throws -> any PersistentStoreBackend {
        guard let url else {
            throw CoreDataError(
                .persistentStoreOpen,
                "A PostgreSQL store needs a postgres:// URL naming its database (and ?schema= its schema)")
        }
        return try PostgresStore.open(url: url, model: model, description: description, log: log)
    }

    func metadata(at url: URL) throws -> [String: Any] {
        try PostgresStore.metadata(at: url)
    }

    /// Whether the schema exists (a migration drops a destination schema only if it made it).
    func placeExists(at url: URL) throws -> Bool {
        try PostgresMigration.schemaExists(at: url)
    }

    func removeFailedMigrationDestination(at url: URL) {
        PostgresMigration.dropSchema(at: url)
    }

    /// A store to migrate must have its tables, not only its schema: adding one that is not
    /// there would make an empty one.
    func requireMigrationSource(at url: URL) throws {
        do {
            _ = try PostgresStore.metadata(at: url)
        } catch let error as CoreDataError where error.code == .fileReadNoSuchFile {
            throw CoreDataError(
                .migrationManagerSourceStore, "There is no store to migrate at \(MigrationManager.place(url))",
                detailedErrors: [error])
        }
    }

    /// Under the store's migration lock: a migration killed in another process has left at
    /// most a scratch schema, and one running there ends before this reads the metadata.
    func migrateIfNeeded(at url: URL, _ request: AutomaticMigration.Request) throws {
        try PostgresMigration.whileMigrating(url, log: request.log) { session in
            try session.removeAbandonedDestination()
            guard let metadata = try session.metadata() else { return } // a new store
            try AutomaticMigration.run(AutomaticMigration.steps(for: metadata, request), progress: request.progress) {
                step, scaled in
                try session.migrate(step, progress: scaled, batchSize: nil)
            }
        }
    }

    func migrate(
        _ step: MigrationStep, at url: URL, progress: MigrationProgressHandler?, batchSize: Int?,
        log: SQLLog
    ) throws {
        try PostgresMigration.whileMigrating(url, log: log) { session in
            try session.removeAbandonedDestination()
            try session.migrate(step, progress: progress, batchSize: batchSize)
        }
    }
}
