import Foundation

/// How a container adds one store: NSPersistentStoreDescription.
///
/// Automatic migration and mapping-model inference are on by default, as Apple's are.
public struct PersistentStoreDescription {
    /// The store's kind.
    public var type: StoreType
    /// Where the store's file is (nil for an in-memory store).
    public var url: URL?
    /// More options for addPersistentStore.
    public var options: [String: Any]
    /// Migrate a store made by another version when it is loaded (default true).
    public var shouldMigrateStoreAutomatically = true
    /// Infer a mapping model when none matches (default true).
    public var shouldInferMappingModelAutomatically = true
    /// Told about the progress of a migration while the store loads.
    public var migrationProgressHandler: MigrationProgressHandler?

    /// A description of a store at a URL.
    public init(type: StoreType = .sqlite, url: URL?, options: [String: Any] = [:]) {
        self.type = type
        self.url = url
        self.options = options
    }

    /// The options addPersistentStore receives.
    var effectiveOptions: [String: Any] {
        var result = options
        result[StoreOption.migratePersistentStoresAutomatically] = shouldMigrateStoreAutomatically
        result[StoreOption.inferMappingModelAutomatically] = shouldInferMappingModelAutomatically
        if let migrationProgressHandler { result[StoreOption.migrationProgressHandler] = migrationProgressHandler }
        return result
    }
}

/// The Core Data stack in one object: NSPersistentContainer.
///
/// ```swift
/// let container = PersistentContainer(name: "ToDo", versionedModel: versions)
/// container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
/// try container.loadPersistentStores()      // migrates an older store first
/// let context = container.viewContext
/// ```
///
/// Its store descriptions turn on automatic migration and inference, so a store made by an
/// older version is migrated when it loads: lightweight where Core Data can infer it, with a
/// mapping model of the versioned model otherwise.
public final class PersistentContainer {
    /// The container's name; the default store is `<name>.sqlite` in ``defaultDirectoryURL()``.
    public let name: String
    /// The current model.
    public var managedObjectModel: ManagedObjectModel { persistentStoreCoordinator.managedObjectModel }
    /// The coordinator, with the versions to migrate from.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The stores ``loadPersistentStores()`` adds.
    public var persistentStoreDescriptions: [PersistentStoreDescription]
    /// The context for the main thread, made on first use.
    public private(set) lazy var viewContext = ManagedObjectContext(coordinator: persistentStoreCoordinator)

    /// A container for one model (no versions: a store of another model fails with 134130).
    public convenience init(name: String, managedObjectModel: ManagedObjectModel) {
        self.init(name: name, coordinator: PersistentStoreCoordinator(managedObjectModel: managedObjectModel))
    }

    /// A container for the current version of a versioned model.
    public convenience init(name: String, versionedModel: VersionedModel) {
        self.init(name: name, coordinator: PersistentStoreCoordinator(versionedModel: versionedModel))
    }

    private init(name: String, coordinator: PersistentStoreCoordinator) {
        self.name = name
        self.persistentStoreCoordinator = coordinator
        self.persistentStoreDescriptions = [PersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
    }

    /// Where stores go by default: `$XDG_DATA_HOME`, or `~/.local/share` (Application Support
    /// on Apple's platforms).
    public class func defaultDirectoryURL() -> URL {
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
    }

    /// Adds every described store, migrating as needed, and calls `completionHandler` once per
    /// store with the error, if any (loadPersistentStoresWithCompletionHandler:).
    public func loadPersistentStores(completionHandler: (PersistentStoreDescription, Error?) -> Void) {
        for description in persistentStoreDescriptions {
            do {
                if let url = description.url {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                try persistentStoreCoordinator.addPersistentStore(type: description.type, at: description.url, options: description.effectiveOptions)
                completionHandler(description, nil)
            } catch {
                completionHandler(description, error)
            }
        }
    }

    /// Adds every described store, migrating as needed; throws the first error.
    @discardableResult
    public func loadPersistentStores() throws -> [PersistentStore] {
        var firstError: Error?
        loadPersistentStores { _, error in if firstError == nil { firstError = error } }
        if let firstError { throw firstError }
        return persistentStoreCoordinator.persistentStores
    }

    /// A new context on the container's coordinator.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(coordinator: persistentStoreCoordinator)
    }
}
