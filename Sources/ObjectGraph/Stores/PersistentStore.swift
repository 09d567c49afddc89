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

extension PersistentStore: CustomStringConvertible, CustomDebugStringConvertible {
    /// Apple's shape, `<NSPersistentStore> (type: SQLite, URL: …)`, without a password the URL holds.
    public var description: String { "<NSPersistentStore> (type: \(type), URL: \(url?.textWithoutPassword ?? "nil"))" }
    /// The description: a store's password is never printed.
    public var debugDescription: String { description }
}

extension URL {
    /// The URL as text, any password (in its user part or a `password` query item, as libpq
    /// takes one) shown as `***`: for descriptions, messages and logs of server stores.
    var textWithoutPassword: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
            return "(a URL that does not parse)"
        }
        let queryHasPassword = components.queryItems?.contains { $0.name.lowercased() == "password" } ?? false
        guard components.password != nil || queryHasPassword else { return absoluteString }
        if components.password != nil { components.password = "***" }
        if queryHasPassword {
            components.queryItems = components.queryItems?.map {
                $0.name.lowercased() == "password" ? URLQueryItem(name: $0.name, value: "***") : $0
            }
        }
        // Never the original: a URL whose parts do not recombine is not shown at all.
        return components.string ?? "(a URL with a password)"
    }
}
