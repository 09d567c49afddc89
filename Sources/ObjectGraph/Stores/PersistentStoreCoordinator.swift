import Foundation

/// Connects a model to its stores: NSPersistentStoreCoordinator.
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(type: .inMemory)
/// let context = ManagedObjectContext(coordinator: coordinator)
/// ```
///
/// A coordinator is shared by contexts on different threads: its list of stores is guarded by
/// a lock, and saves run one at a time through ``performAndWait(_:)``. It is the parent store
/// of the contexts made on it (PersistentStoreCoordinator+ParentStore.swift).
public final class PersistentStoreCoordinator: @unchecked Sendable {
    // @unchecked Sendable: the list of stores is reachable only through `stores`' lock, the
    // other properties are constants, and each store guards its own state (the SQLite store
    // through GRDB's serialized connection, an atomic store with its lock).

    /// The model the stores hold.
    public let managedObjectModel: ManagedObjectModel
    /// The stores added so far.
    public var persistentStores: [PersistentStore] {
        stores.withLock { $0 }
    }
    private let stores = Lock<[PersistentStore]>([])
    /// Held while a block of `performAndWait` runs: saves of different contexts, one at a time.
    /// Recursive, so a block may save again inside.
    private let requestLock = Lock((), recursive: true)
    /// The SQL debug log of this coordinator's SQLite stores (on with OBJECTGRAPH_SQL_DEBUG=1).
    public let sqlLog = SQLLog()

    /// The versions automatic migration searches for a store's model and mapping models (the
    /// application bundle, in Core Data); nil for a coordinator made with a plain model.
    public let versionedModel: VersionedModel?

    /// A coordinator for a model, with no stores yet. The model is frozen now, as Apple's is
    /// when a coordinator uses it; a model that is not valid throws its error from
    /// ``addPersistentStore(with:)`` (the check runs there again).
    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
        self.versionedModel = nil
        try? managedObjectModel.checkValidity()
    }

    /// A coordinator for the current version of a versioned model.
    ///
    /// With the options ``StoreOption/migratePersistentStoresAutomatically`` and
    /// ``StoreOption/inferMappingModelAutomatically``, a store made by an older version is migrated
    /// when it is added: its version is found among the versions by its entity hashes, as Core Data
    /// finds it among the bundle's models.
    public init(versionedModel: VersionedModel) {
        self.managedObjectModel = versionedModel.currentModel
        self.versionedModel = versionedModel
    }

    /// Runs a block while no other block of this coordinator runs, and returns its result
    /// (performAndWait(_:)). Reentrant. Contexts save through it, so that finding conflicts,
    /// resolving them and writing the store is one step no other save interleaves with.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try requestLock.run(block)
    }

    /// Adds a store of a type at a URL (none for an in-memory store).
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "Books.sqlite")
    /// let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
    /// ```
    ///
    /// A file that does not exist becomes a new, empty store; an existing one is opened and
    /// checked against the model. New objects are saved to the first store added. Options:
    /// ``StoreOption/storeUUID`` fixes the UUID of a new store. See <doc:OpeningStores>.
    ///
    /// A store made by another version of the model is refused with 134100, unless the
    /// options ask for automatic migration (``StoreOption/migratePersistentStoresAutomatically``,
    /// with ``StoreOption/inferMappingModelAutomatically`` for lightweight migration): the
    /// store is then migrated before it is added; see
    /// ``VersionedModel/migrationSteps(forStoreMetadata:to:inferringMappingModels:)``.
    ///
    /// - Throws: ``CoreDataError``, and the coordinator is left as it was:
    ///   - 134080 (``CoreDataError/Code/persistentStoreOpen``) for a SQLite, XML or binary store
    ///     without a URL (use `.inMemory`) or with one that is not a file URL (a `postgres://`
    ///     URL needs the `.postgres` type), or a file that cannot be opened or is damaged;
    ///   - 134000 (``CoreDataError/Code/persistentStoreInvalidType``) for a file that is no
    ///     store at all (a SQLite database without `Z_METADATA`, say), and 134010
    ///     (``CoreDataError/Code/persistentStoreTypeMismatch``) for an XML or binary store added
    ///     as the other type, or a SQLite store added as either;
    ///   - 134081 (``CoreDataError/Code/persistentStoreAlreadyAdded``) when this coordinator
    ///     already has a store at that URL;
    ///   - 134100 (``CoreDataError/Code/persistentStoreIncompatibleVersionHash``) when the store
    ///     was made with a model whose entities differ (the message names them): open it with
    ///     its own model, or migrate it;
    ///   - NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``) for an
    ///     option of the wrong type, naming its key: the dictionary is parsed into a
    ///     ``PersistentStoreDescription`` first, see ``addPersistentStore(with:)``.
    @discardableResult
    public func addPersistentStore(type: StoreType, at url: URL? = nil, options: [String: Any] = [:]) throws
        -> PersistentStore
    {
        try addPersistentStore(with: PersistentStoreDescription.parsing(type: type, url: url, options: options))
    }

    /// Adds the store a description describes (addPersistentStoreWithDescription:), reading
    /// every option from its typed properties.
    ///
    /// ```swift
    /// let description = PersistentStoreDescription(url: URL(fileURLWithPath: "Books.sqlite"))
    /// description.isPersistentHistoryTrackingEnabled = true
    /// try coordinator.addPersistentStore(with: description)
    /// ```
    ///
    /// A description migrates a store made by another version automatically, as Apple's does
    /// (``PersistentStoreDescription/shouldMigrateStoreAutomatically``). Throws as
    /// ``addPersistentStore(type:at:options:)`` does.
    @discardableResult
    public func addPersistentStore(with description: PersistentStoreDescription) throws -> PersistentStore {
        // The store keeps its own copy: a change to the caller's description does not reach it.
        let description = description.copied()
        let type = description.type
        let url = description.url
        // A model built in code is checked (and frozen) by its first use: its error is this one.
        try managedObjectModel.checkValidity()
        let kind = try type.registeredKind()
        // A file store given a server's URL would otherwise make a file at the URL's path
        // (`/postgres` for postgres://host/postgres), far from where the caller meant.
        // Only Core Data's own file types: a store kind registered by an application decides
        // for itself what its URLs name.
        if let url, [StoreType.sqlite, .xml, .binary].contains(type), !url.isFileURL {
            throw CoreDataError(
                .persistentStoreOpen,
                "A \(type.rawValue) store is a file, and \(url.textWithoutPassword) is not a file URL: for a postgres:// URL set the description's type to .postgres"
            )
        }
        if let url, description.shouldMigrateStoreAutomatically {
            try AutomaticMigration.migrateIfNeeded(
                url: url, type: type, model: managedObjectModel,
                versions: description.versionedModel ?? versionedModel,
                infer: description.shouldInferMappingModelAutomatically,
                progress: description.migrationProgressHandler,
                log: sqlLog)
        }
        // Scratch files of migrations killed beside the store go when it is next opened.
        if let url, kind.usesFiles { StoreFiles.removeAbandonedScratchFiles(in: url.deletingLastPathComponent()) }
        if let url, kind.usesFiles || kind.isServer { try refuseDuplicate(url) }
        let backend = try kind.open(at: url, description: description, model: managedObjectModel, log: sqlLog)
        let store = PersistentStore(type: type, url: url, options: description.options, backend: backend)
        // NSPersistentStoreRemoteChangeNotificationPostOptionKey: the PostgreSQL store listens,
        // the SQLite store watches its file.
        do {
            try backend.startPostingRemoteChanges(coordinator: self, store: store, description: description)
        } catch {
            try? backend.close()
            throw error
        }
        stores.withLock { $0.append(store) }
        return store
    }

    /// Adds the store a description describes and calls `completionHandler` with the
    /// description and the error, if any (addPersistentStore(with:completionHandler:)).
    ///
    /// With ``PersistentStoreDescription/shouldAddStoreAsynchronously`` the store is added on a
    /// background queue and the handler is called there, as Apple's is; otherwise both happen
    /// on the calling thread before this returns.
    public func addPersistentStore(
        with description: PersistentStoreDescription,
        completionHandler: @escaping @Sendable (PersistentStoreDescription, Error?) -> Void
    ) {
        // The description travels to the background queue as a copy no other thread sees.
        nonisolated(unsafe) let copy = description.copied()
        let add: @Sendable () -> Void = { [self] in
            do {
                try addPersistentStore(with: copy)
                completionHandler(copy, nil)
            } catch {
                completionHandler(copy, error)
            }
        }
        if description.shouldAddStoreAsynchronously {
            DispatchQueue.global().async(execute: add)
        } else {
            add()
        }
    }

    private func refuseDuplicate(_ url: URL) throws {
        if persistentStores.contains(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) {
            let place = url.isFileURL ? url.path : url.textWithoutPassword
            throw CoreDataError(
                .persistentStoreAlreadyAdded,
                "The store at \(place) was already added to this coordinator")
        }
    }

    /// Removes a store from the coordinator (removePersistentStore:error:); its file stays.
    public func remove(_ store: PersistentStore) throws {
        let removed = stores.withLock { stores -> Bool in
            guard let index = stores.firstIndex(where: { $0 === store }) else { return false }
            stores.remove(at: index)
            return true
        }
        guard removed else {
            throw CoreDataError(
                exception: .invalidArgument, "The store \(store.identifier) is not one of this coordinator's stores")
        }
    }

    /// Moves a store to a new file of another type, with every object and relationship
    /// (migratePersistentStore:toURL:options:withType:error:).
    ///
    /// The new store keeps the old store's UUID, so object IDs stay valid; it replaces the old one
    /// in the coordinator, and the old file is left as it was. A file already at `url` is an error.
    @discardableResult
    public func migratePersistentStore(
        _ store: PersistentStore, to url: URL?, type: StoreType, options: [String: Any] = [:]
    ) throws -> PersistentStore {
        if let url, FileManager.default.fileExists(atPath: url.path) {
            throw CoreDataError(
                .fileWriteFileExists, "There is already a file at \(url.path); migrate to a new path or remove it first"
            )
        }
        let contents = try store.backend.exportContents()
        var newOptions = options
        newOptions[StoreOption.storeUUID] = store.identifier
        try remove(store)
        do {
            let target = try addPersistentStore(type: type, at: url, options: newOptions)
            try target.backend.importContents(contents)
            return target
        } catch {
            // Put the old store back: a failed move changes nothing.
            stores.withLock { $0.append(store) }
            if let url { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    /// A store's metadata, read from its file without adding it
    /// (metadataForPersistentStoreOfType:URL:options:): its type, UUID and version hashes.
    ///
    /// Throws `.fileRead` when there is no file, or (SQLite) an empty one: no store yet, which
    /// adding the store creates; `.persistentStoreOpen` when it is not a store; 134180 when
    /// SQLite fails otherwise (a lock held past the default timeout).
    public static func metadataForPersistentStore(type: StoreType, at url: URL) throws -> [String: Any] {
        try type.registeredKind().metadata(at: url)
    }

    /// The store an object ID belongs to.
    func store(for id: ManagedObjectID) throws -> PersistentStore {
        let stores = persistentStores
        if id.isTemporaryID, let first = stores.first { return first }
        guard let store = stores.first(where: { $0.identifier == id.storeIdentifier }) else {
            throw CoreDataError(
                .referentialIntegrity, "No store of this coordinator holds \(id.uriString)", objectURI: id.uriString)
        }
        return store
    }

    /// The store new objects are saved to: the first one added.
    func defaultStore() throws -> PersistentStore {
        guard let store = persistentStores.first else {
            throw CoreDataError(
                exception: .internalInconsistency,
                "The coordinator has no persistent store; call addPersistentStore(type:at:options:) first")
        }
        return store
    }

    /// The object ID for a URI, if a store of this coordinator holds it
    /// (managedObjectIDForURIRepresentation:).
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(uriRepresentation: uri), !id.isTemporaryID,
            managedObjectModel.entitiesByName[id.entityName] != nil
        else { return nil }
        return persistentStores.contains { $0.identifier == id.storeIdentifier } ? id : nil
    }
}
