import Foundation

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
    /// The options the store was added with, every typed option under its key (options).
    public let options: [AnyHashable: Any]?
    /// The model configuration the store holds: Apple's name for the default one
    /// (configurationName), since a store here holds every entity of its model.
    public var configurationName: String { PersistentStore.defaultConfigurationName }
    /// Apple's name for a model's default configuration, every entity
    /// (PF_DEFAULT_CONFIGURATION_NAME).
    public static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"
    let backend: PersistentStoreBackend

    init(type: StoreType, url: URL?, options: [String: Any] = [:], backend: PersistentStoreBackend) {
        self.type = type
        self.url = url
        self.options = Dictionary(uniqueKeysWithValues: options.map { (AnyHashable($0.key), $0.value) })
        self.backend = backend
    }
}
