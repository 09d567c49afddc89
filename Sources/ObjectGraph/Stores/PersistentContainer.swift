import Foundation

/// The Core Data stack in one object: NSPersistentContainer.
///
/// ```swift
/// let container = PersistentContainer(name: "ToDo", versionedModel: versions)
/// container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
/// try container.loadPersistentStores()      // migrates an older store first
/// let context = container.viewContext      // the main queue's context
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
    /// The main queue's context, on the coordinator, made on first use (viewContext): use it on
    /// the main thread, or inside its `perform` or `performAndWait`.
    public private(set) lazy var viewContext: ManagedObjectContext = {
        let context = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: persistentStoreCoordinator)
        context.name = "viewContext"
        return context
    }()

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
        self.persistentStoreDescriptions = [
            PersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))
        ]
    }

    /// Where stores go by default: `$XDG_DATA_HOME`, or `~/.local/share` (Application Support
    /// on Apple's platforms).
    public class func defaultDirectoryURL() -> URL {
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
    }

    /// Adds every described store, migrating as needed, and calls `completionHandler` once per
    /// store with the error, if any (loadPersistentStoresWithCompletionHandler:).
    public func loadPersistentStores(completionHandler: (PersistentStoreDescription, Error?) -> Void) {
        for description in persistentStoreDescriptions {
            do {
                // A file store's folder is made; a server store (postgres://) has none.
                if let url = description.url, url.isFileURL {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                try persistentStoreCoordinator.addPersistentStore(with: description)
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

    /// A new context on a private queue of its own, on the container's coordinator
    /// (newBackgroundContext()): use it inside its `perform` or `performAndWait`.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: persistentStoreCoordinator)
    }

    /// Runs a block on a new private-queue context and returns at once
    /// (performBackgroundTask(_:)); the context lives as long as the block runs.
    ///
    /// ```swift
    /// container.performBackgroundTask { context in
    ///     _ = try? context.insertNewObject(forEntityName: "Book")
    ///     try? context.save()
    /// }
    /// ```
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs a block on a new private-queue context and returns its result
    /// (performBackgroundTask(_:) for Swift concurrency); a thrown error is rethrown.
    public func performBackgroundTask<T>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws
        -> T
    {
        let context = newBackgroundContext()
        return try await context.perform(schedule: .enqueued) { try block(context) }
    }
}
