import Foundation

/// What one kind of store does for the coordinator, migrations and inspection: open a store,
/// read its metadata without opening it, destroy, replace and inspect it, and migrate it.
///
/// Each kind is registered under its ``StoreType`` (``PersistentStoreKinds``), as Apple's
/// store classes are (`registerStoreClass(_:type:)`), so code outside a store's own folder asks
/// the kind instead of switching on the type. The defaults here are those of a store that is
/// one file (and its companions) at its URL.
protocol PersistentStoreKind: Sendable {
    /// The type the kind is registered under.
    var type: StoreType { get }
    /// The type as Swift code spells it (`.sqlite`), for messages that say what to write.
    var swiftName: String { get }
    /// Whether stores of this kind hold every object in memory and evaluate fetches there.
    var isAtomic: Bool { get }
    /// Whether stores of this kind live in a database server, named by their URL.
    var isServer: Bool { get }
    /// Whether a store of this kind is a file at its URL, with scratch files of killed
    /// migrations beside it.
    var usesFiles: Bool { get }

    /// Opens (or creates) the store at `url` for a coordinator.
    func open(
        at url: URL?, description: PersistentStoreDescription, model: ManagedObjectModel,
        log: SQLLog
    ) throws -> any PersistentStoreBackend
    /// The metadata of the store at `url`, read without adding it.
    func metadata(at url: URL) throws -> [String: Any]
    /// Deletes the store at `url` (destroyPersistentStore).
    func destroy(at url: URL) throws
    /// Replaces the store at `destination` with a copy of the one at `source`.
    func replace(_ destination: URL, withStoreAt source: URL) throws
    /// Whether the place a store lives in exists at `url`: its file, or its database schema.
    func placeExists(at url: URL) throws -> Bool
    /// Throws 134150 (NSMigrationManagerSourceStoreError) when there is no store at `url` to
    /// migrate from.
    func requireMigrationSource(at url: URL) throws
    /// Removes what a migration that failed made at `url`.
    func removeFailedMigrationDestination(at url: URL)
    /// Brings the store at `url` to `request`'s model, if it was made by another version
    /// (NSMigratePersistentStoresAutomaticallyOption).
    func migrateIfNeeded(at url: URL, _ request: AutomaticMigration.Request) throws
    /// Runs one migration step on the store at `url`.
    func migrate(
        _ step: MigrationStep, at url: URL, progress: MigrationProgressHandler?, batchSize: Int?,
        log: SQLLog) throws
    /// What the store file at `url` holds, read without a model and without changing it.
    func inspect(at url: URL) throws -> StoreInspection.Contents
}

extension PersistentStoreKind {
    var isAtomic: Bool { true }
    var isServer: Bool { false }
    var usesFiles: Bool { true }

    func destroy(at url: URL) throws {
        StoreFiles.remove(url)
    }

    func replace(_ destination: URL, withStoreAt source: URL) throws {
        throw CoreDataError(.persistentStoreUnsupportedRequestType, "A \(type.rawValue) store has no file to replace")
    }

    func placeExists(at url: URL) throws -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    func requireMigrationSource(at url: URL) throws {
        guard try placeExists(at: url) else {
            throw CoreDataError(.migrationManagerSourceStore, "There is no store to migrate at \(url.path)")
        }
    }

    func removeFailedMigrationDestination(at url: URL) {
        StoreFiles.remove(url)
    }

    func migrateIfNeeded(at url: URL, _ request: AutomaticMigration.Request) throws {
        try AutomaticMigration.migrateFileIfNeeded(at: url, type: type, request)
    }

    func migrate(
        _ step: MigrationStep, at url: URL, progress: MigrationProgressHandler?, batchSize: Int?,
        log: SQLLog
    ) throws {
        try step.migrateBySwappingFiles(at: url, type: type, progress: progress, batchSize: batchSize, log: log)
    }

    func inspect(at url: URL) throws -> StoreInspection.Contents {
        throw CoreDataError(.persistentStoreOpen, "A \(type.rawValue) store has no file")
    }

    /// The URL a store of this kind needs, or the error that says so.
    func requiredURL(_ url: URL?) throws -> URL {
        guard let url else {
            throw CoreDataError(
                .persistentStoreOpen,
                "A \(type.rawValue) store needs a file URL; use .inMemory for a store without a file")
        }
        return url
    }
}

/// The registered store kinds, by type: the built-in ones.
enum PersistentStoreKinds {
    private static let kinds: [StoreType: any PersistentStoreKind] = Dictionary(
        uniqueKeysWithValues: ([
            SQLiteStoreKind(), AtomicStoreKind(type: .xml), AtomicStoreKind(type: .binary),
            InMemoryStoreKind(), PostgresStoreKind(),
        ] as [any PersistentStoreKind]).map { ($0.type, $0) })

    /// The kind registered for `type`, or nil.
    static func kind(for type: StoreType) -> (any PersistentStoreKind)? {
        kinds[type]
    }

    /// Every registered type, sorted by name.
    static var registeredTypes: [StoreType] {
        kinds.keys.sorted { $0.rawValue < $1.rawValue }
    }
}
