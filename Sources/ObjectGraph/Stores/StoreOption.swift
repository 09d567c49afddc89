import Foundation

/// Keys of the options dictionary of `addPersistentStore(type:at:options:)`.
///
/// Each key is a typed property of ``PersistentStoreDescription``, which the dictionary is
/// parsed into; a value of the wrong type for a key is an error naming the key.
public enum StoreOption {
    /// A fixed store UUID for a new store, so output that shows object URIs is the same on
    /// every run (the workbook uses it; applications need not).
    public static let storeUUID = "ObjectGraphStoreUUID"
    /// NSMigratePersistentStoresAutomaticallyOption: when the store was made by another version
    /// of the model, find that version and a mapping model and migrate the store (a Bool).
    public static let migratePersistentStoresAutomatically = "NSMigratePersistentStoresAutomaticallyOption"
    /// NSInferMappingModelAutomaticallyOption: with automatic migration, infer a mapping model
    /// (lightweight migration) when no mapping model matches (a Bool).
    public static let inferMappingModelAutomatically = "NSInferMappingModelAutomaticallyOption"
    /// The ``VersionedModel`` automatic migration searches for the store's model and mapping
    /// models, for a coordinator made with a plain model; a coordinator made with a versioned
    /// model uses its own.
    public static let versionedModel = "ObjectGraphVersionedModel"
    /// Internal: a store opened only to be read (a migration's source) keeps the version hashes
    /// an earlier ObjectGraph wrote instead of rewriting its metadata.
    static let keepsLegacyVersionHashes = "ObjectGraphKeepsLegacyVersionHashes"
    /// A ``MigrationProgressHandler`` that automatic migration reports to.
    public static let migrationProgressHandler = "ObjectGraphMigrationProgressHandler"
    /// NSPersistentStoreTimeoutOption: how many seconds a save waits for another connection or
    /// process to release the store's file (a `TimeInterval`; default
    /// ``defaultTimeout``). A save that still cannot write fails with 134180 (SQLITE_BUSY) for
    /// SQLite, or 134030 for an atomic store, instead of failing at once. For a PostgreSQL store,
    /// how long a fetch or save waits for a connection of its pool when all are busy (then
    /// 134090), and for the server to answer a new connection.
    public static let timeout = "NSPersistentStoreTimeoutOption"
    /// NSReadOnlyPersistentStoreOption: open the store only to read it (a Bool). Saving to it
    /// fails with 134030, and a SQLite store opened so leaves no file beside it (no `-shm`, no
    /// `-wal`), reading a WAL that has no index from a private copy.
    public static let readOnly = "NSReadOnlyPersistentStoreOption"
    /// NSPersistentHistoryTrackingKey: a SQLite store records every save in its persistent history (a Bool); see
    /// <doc:PersistentHistory>.
    public static let persistentHistoryTracking = "NSPersistentHistoryTrackingKey"
    /// NSSQLitePragmasOption: SQLite pragmas the store's connection runs when it opens, a
    /// dictionary of pragma names to String values; see
    /// ``PersistentStoreDescription/setValue(_:forPragmaNamed:)`` for the pragmas allowed.
    public static let sqlitePragmas = "NSSQLitePragmasOption"
    /// How many connections a PostgreSQL store keeps open at most (an Int, 1 or more; default 2).
    public static let connectionPoolSize = "ObjectGraphConnectionPoolSize"
    /// The wait when ``timeout`` is not given: long enough for ten processes saving small
    /// changes at once, short enough that a store held open by a stuck process is reported.
    public static let defaultTimeout: TimeInterval = 10
}
