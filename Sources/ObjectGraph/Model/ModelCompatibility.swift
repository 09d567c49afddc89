import Foundation

extension ManagedObjectModel {
    /// Whether the store's entity version hashes equal this model's
    /// (isConfiguration:compatibleWithStoreMetadata:), the documented "is migration needed?"
    /// check.
    ///
    /// Models here have one configuration: `nil`, `"Default"` and `"PF_DEFAULT_CONFIGURATION_NAME"`
    /// all name it and compare every entity. Another name is a configuration the model does not
    /// have, which is compatible with nothing.
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard configuration == nil || configuration == "Default" || configuration == "PF_DEFAULT_CONFIGURATION_NAME" else { return false }
        return incompatibleEntities(withStoreMetadata: metadata).isEmpty
    }

    /// The entities whose hashes differ from the store's, each with how: "ToDo (changed)",
    /// "Note (only in the store)", "Tag (only in the model)". Empty when compatible.
    func incompatibleEntities(withStoreMetadata metadata: [String: Any]) -> [String] {
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
        return CoreDataError(.persistentStoreIncompatibleVersionHash,
                             "The model used to open the store\(place) is incompatible with the one used to create the store: entities that differ: \(incompatibleEntities(withStoreMetadata: metadata).joined(separator: ", ")). Open it with the options migratePersistentStoresAutomatically and inferMappingModelAutomatically (a PersistentContainer sets both) and the model's versions, or with the model that created it")
    }
}
