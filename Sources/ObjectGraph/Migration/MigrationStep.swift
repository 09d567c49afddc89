import Foundation

/// One step of a store migration: from one model version to the next with a mapping model, inferred
/// or given.
///
/// A chain of steps is a progressive migration (v1 -> v2 -> v3); each step can be run, and tested,
/// on its own.
///
/// A lightweight step on a SQLite store runs in place, in SQL, in one transaction. Any other
/// step migrates the store into `<store>.migrating` beside it with a ``MigrationManager`` and
/// swaps the complete new file in with one rename, only on success; a crash at any moment
/// leaves the old store or the new one. A PostgreSQL store does the same in its database: in
/// place in one transaction, or into a new schema swapped in by one transaction.
public struct MigrationStep: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: its properties are constants; the models and the mapping model they
    // hold are only read while the step migrates.
    /// The version migrated from (nil when the model is not one of a versioned model's).
    public let sourceVersionName: String?
    /// The version migrated to.
    public let destinationVersionName: String?
    /// The model of the store before the step.
    public let sourceModel: ManagedObjectModel
    /// The model of the store after the step.
    public let destinationModel: ManagedObjectModel
    /// How instances are migrated.
    public let mappingModel: MappingModel

    /// A step between two models with a mapping model.
    public init(
        sourceVersionName: String? = nil, destinationVersionName: String? = nil, sourceModel: ManagedObjectModel,
        destinationModel: ManagedObjectModel, mappingModel: MappingModel
    ) {
        self.sourceVersionName = sourceVersionName
        self.destinationVersionName = destinationVersionName
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.mappingModel = mappingModel
    }

    /// Whether the mapping model was inferred: a lightweight migration.
    public var isLightweight: Bool { mappingModel.isInferred }

    /// "v1 -> v2 (lightweight)" or "(custom)".
    public var description: String {
        "\(sourceVersionName ?? "source") -> \(destinationVersionName ?? "destination") (\(isLightweight ? "lightweight" : "mapping model"))"
    }

    /// Migrates the store at `url`, which must have been made by ``sourceModel``, to
    /// ``destinationModel``, in place or by swapping in a migrated copy.
    public func migrateStore(
        at url: URL, type: StoreType, progress: MigrationProgressHandler? = nil, batchSize: Int? = nil
    ) throws {
        try migrateStore(at: url, type: type, progress: progress, batchSize: batchSize, log: .ambient)
    }

    /// ``migrateStore(at:type:progress:batchSize:)`` with its statements sent to `log` (the
    /// coordinator's, when adding a store migrates it).
    func migrateStore(at url: URL, type: StoreType, progress: MigrationProgressHandler?, batchSize: Int?, log: SQLLog)
        throws
    {
        try type.registeredKind().migrate(self, at: url, progress: progress, batchSize: batchSize, log: log)
    }

    /// Migrates the store file at `url` into a scratch file with a ``MigrationManager``, then
    /// swaps the scratch file in: a failure at any point leaves the store as it was.
    func migrateBySwappingFiles(
        at url: URL, type: StoreType, progress: MigrationProgressHandler?, batchSize: Int?,
        log: SQLLog
    ) throws {
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        guard sourceModel.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else {
            throw sourceModel.incompatibleStoreError(metadata, url: url)
        }
        let scratch = StoreFiles.migratingURL(for: url)
        StoreFiles.remove(scratch)
        do {
            try migrateWithManager(
                from: url, type: type, metadata: metadata, into: scratch, progress: progress, batchSize: batchSize,
                log: log)
            try StoreFiles.replace(url, with: scratch)
        } catch {
            StoreFiles.remove(scratch)
            throw error
        }
    }

    /// Streams the store at `url` (whose metadata is `metadata`) into a new store at `scratch`
    /// with a ``MigrationManager``; the new store keeps the old one's UUID, so object IDs stay.
    func migrateWithManager(
        from url: URL, type: StoreType, metadata: [String: Any], into scratch: URL,
        progress: MigrationProgressHandler?, batchSize: Int?, log: SQLLog
    ) throws {
        let manager = MigrationManager(sourceModel: sourceModel, destinationModel: destinationModel)
        manager.sqlLog = log
        manager.progressHandler = progress
        if let batchSize { manager.batchSize = batchSize }
        var options: [String: Any] = [:]
        if let uuid = metadata["NSStoreUUID"] as? String { options[StoreOption.storeUUID] = uuid }
        try manager.migrateStore(
            from: url, type: type, options: [:], with: mappingModel, to: scratch, type: type, options: options)
    }
}
