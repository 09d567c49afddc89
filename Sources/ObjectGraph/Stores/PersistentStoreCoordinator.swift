import Foundation

/// The kinds of persistent store.
public enum StoreType: String, Hashable, Sendable {
    /// An atomic store held in memory only (NSInMemoryStoreType); its value in metadata is
    /// `InMemory`.
    case inMemory = "InMemory"
    /// Core Data's SQLite store (NSSQLiteStoreType): fetches run as SQL.
    case sqlite = "SQLite"
}

/// A store added to a coordinator: NSPersistentStore.
public final class PersistentStore {
    /// The store's kind.
    public let type: StoreType
    /// Where the store's file is; nil for an in-memory store.
    public let url: URL?
    /// The store's UUID (NSStoreUUIDKey).
    public var identifier: String { backend.identifier }
    /// The store's metadata: its type, UUID and the model's version hashes.
    public var metadata: [String: Any] { backend.metadata }
    let backend: PersistentStoreBackend

    init(type: StoreType, url: URL?, backend: PersistentStoreBackend) {
        self.type = type
        self.url = url
        self.backend = backend
    }
}

/// Connects a model to its stores: NSPersistentStoreCoordinator.
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(type: .inMemory)
/// let context = ManagedObjectContext(coordinator: coordinator)
/// ```
public final class PersistentStoreCoordinator {
    /// The model the stores hold.
    public let managedObjectModel: ManagedObjectModel
    /// The stores added so far.
    public private(set) var persistentStores: [PersistentStore] = []
    private let lock = NSRecursiveLock()
    /// The SQL debug log of this coordinator's SQLite stores (on with OBJECTGRAPH_SQL_DEBUG=1).
    public let sqlLog = SQLLog()

    /// A coordinator for a model, with no stores yet.
    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
    }

    /// Adds a store of a type at a URL (none for an in-memory store).
    @discardableResult
    public func addPersistentStore(type: StoreType, at url: URL? = nil, options: [String: Any] = [:]) throws -> PersistentStore {
        let backend: PersistentStoreBackend
        switch type {
        case .inMemory:
            backend = InMemoryStore(model: managedObjectModel, identifier: options[StoreOption.storeUUID] as? String)
        case .sqlite:
            guard let url else {
                throw CoreDataError(.persistentStoreOpen, "A SQLite store needs a file URL; use .inMemory for a store without a file")
            }
            lock.lock()
            let already = persistentStores.contains { $0.url?.standardizedFileURL == url.standardizedFileURL }
            lock.unlock()
            guard !already else {
                throw CoreDataError(.persistentStoreIncompatibleType, "The store at \(url.path) was already added to this coordinator")
            }
            backend = try SQLiteStore(url: url, model: managedObjectModel, options: options, log: sqlLog)
        }
        let store = PersistentStore(type: type, url: url, backend: backend)
        lock.lock(); defer { lock.unlock() }
        persistentStores.append(store)
        return store
    }

    /// A store's metadata, read from its file without adding it
    /// (metadataForPersistentStoreOfType:URL:options:): its type, UUID and version hashes.
    ///
    /// Throws `.fileRead` when there is no file and `.persistentStoreOpen` when it is not a store.
    public static func metadataForPersistentStore(type: StoreType, at url: URL) throws -> [String: Any] {
        switch type {
        case .sqlite: return try SQLiteStore.metadata(at: url)
        case .inMemory:
            throw CoreDataError(.persistentStoreOpen, "An in-memory store has no file to read metadata from")
        }
    }

    /// The store an object ID belongs to.
    func store(for id: ManagedObjectID) throws -> PersistentStore {
        lock.lock(); defer { lock.unlock() }
        if id.isTemporaryID, let first = persistentStores.first { return first }
        guard let store = persistentStores.first(where: { $0.identifier == id.storeIdentifier }) else {
            throw CoreDataError(.referentialIntegrity, "No store of this coordinator holds \(id.uriString)", objectURI: id.uriString)
        }
        return store
    }

    /// The store new objects are saved to: the first one added.
    func defaultStore() throws -> PersistentStore {
        lock.lock(); defer { lock.unlock() }
        guard let store = persistentStores.first else {
            throw CoreDataError(.persistentStoreOpen, "The coordinator has no persistent store; call addPersistentStore(type:at:options:) first")
        }
        return store
    }

    /// The object ID for a URI, if a store of this coordinator holds it
    /// (managedObjectIDForURIRepresentation:).
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(uriRepresentation: uri), !id.isTemporaryID,
              managedObjectModel.entitiesByName[id.entityName] != nil else { return nil }
        lock.lock(); defer { lock.unlock() }
        return persistentStores.contains { $0.identifier == id.storeIdentifier } ? id : nil
    }
}

/// Keys of the options dictionary of `addPersistentStore(type:at:options:)`.
public enum StoreOption {
    /// A fixed store UUID for a new store, so output that shows object URIs is the same on
    /// every run (the workbook uses it; applications need not).
    public static let storeUUID = "ObjectGraphStoreUUID"
}
