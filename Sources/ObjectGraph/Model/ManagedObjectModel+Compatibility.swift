import Foundation

extension ManagedObjectModel {
    /// How a store's version hashes match this model.
    enum StoreHashMatch {
        /// Core Data's hashes of this model: the store opens as it is.
        case current
        /// The hashes ObjectGraph wrote before it computed Core Data's, of this model: the data
        /// is this model's, and opening the store rewrites its metadata with Core Data's hashes.
        case legacy
    }

    /// Whether the store's entity version hashes equal this model's
    /// (isConfiguration:compatibleWithStoreMetadata:), the documented "is migration needed?"
    /// check.
    ///
    /// `nil`, `"Default"` and `"PF_DEFAULT_CONFIGURATION_NAME"` name the default configuration
    /// and compare every entity; a configuration the model declares compares its entities; a
    /// name the model does not have is compatible with nothing. A store this package wrote
    /// before it computed Core Data's hashes is compatible with the model that wrote it too
    /// (opening it rewrites its metadata with Core Data's hashes).
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any])
        -> Bool
    {
        hashMatch(withStoreMetadata: metadata, configuration: configuration) != nil
    }

    /// How the store's hashes match this model's, or nil when they do not.
    func hashMatch(withStoreMetadata metadata: [String: Any], configuration: String? = nil) -> StoreHashMatch? {
        guard let entities = self.entities(forConfigurationName: configuration) else { return nil }
        let names = Set(entities.map(\.name))
        let stored = Self.storedHashes(metadata)
        guard Set(stored.keys) == names else { return nil }
        if names.allSatisfy({ stored[$0] == entityVersionHashesByName[$0] }) { return .current }
        if names.allSatisfy({ stored[$0] == legacyEntityVersionHashesByName[$0] }) { return .legacy }
        return nil
    }

    /// The entities whose hashes differ from the store's, each with how: "ToDo (changed)",
    /// "Note (only in the store)", "Tag (only in the model)". Empty when compatible.
    func incompatibleEntities(withStoreMetadata metadata: [String: Any]) -> [String] {
        guard hashMatch(withStoreMetadata: metadata) == nil else { return [] }
        let stored = Self.storedHashes(metadata)
        let current = entityVersionHashesByName
        return Set(stored.keys).union(current.keys).filter { stored[$0] != current[$0] }.sorted().map { name in
            switch (stored[name] != nil, current[name] != nil) {
            case (true, false): return "\(name) (only in the store)"
            case (false, true): return "\(name) (only in the model)"
            default: return "\(name) (changed)"
            }
        }
    }

    /// NSStoreModelVersionHashes of a store's metadata.
    static func storedHashes(_ metadata: [String: Any]) -> [String: Data] {
        metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
    }

    /// Error 134100 for a store this model does not match, naming the entities that differ
    /// and what to do.
    func incompatibleStoreError(_ metadata: [String: Any], url: URL?) -> CoreDataError {
        let place = url.map { " at \($0.path)" } ?? ""
        return CoreDataError(
            .persistentStoreIncompatibleVersionHash,
            "The model used to open the store\(place) is incompatible with the one used to create the store: entities that differ: \(incompatibleEntities(withStoreMetadata: metadata).joined(separator: ", ")). Open it with the options migratePersistentStoresAutomatically and inferMappingModelAutomatically (a PersistentContainer sets both) and the model's versions, or with the model that created it"
        )
    }
}
