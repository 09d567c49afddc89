import Foundation

/// The versions of one model and which is current: Xcode's `.xcdatamodeld` folder, compiled
/// to a `.momd` bundle with its `VersionInfo.plist`.
///
/// ```swift
/// let versions = try VersionedModel(name: "ToDo", versions: [("ToDo", v1), ("ToDo 2", v2)],
///                                   currentVersionName: "ToDo 2")
/// let coordinator = PersistentStoreCoordinator(versionedModel: versions)
/// try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
///     StoreOption.migratePersistentStoresAutomatically: true,
///     StoreOption.inferMappingModelAutomatically: true,
/// ])
/// ```
///
/// Core Data finds the model that created a store by searching the application's bundles
/// for a model whose entity version hashes equal the store's (`mergedModelFromBundles:
/// forStoreMetadata:`), and a mapping model by the hashes of its source and destination. On
/// Linux there are no bundles to search: a versioned model is where both are looked for.
/// Version names are only names, as Apple's version identifiers are only hints;
/// compatibility is decided by hashes alone. The order of ``versionNames`` is the order of
/// the versions, oldest first: progressive migration walks it.
public final class VersionedModel: @unchecked Sendable {
    // @unchecked Sendable: the versions are constants; `mappingModels` is set up before the
    // model is handed to a coordinator or migration, which only read it.
    /// The model's name (the `.xcdatamodeld` folder's name without its extension).
    public let name: String
    /// The version names, oldest first.
    public let versionNames: [String]
    /// The name of the current version (`.xccurrentversion`, NSManagedObjectModel_CurrentVersionName).
    public let currentVersionName: String
    /// Each version's model, by version name.
    public let modelsByVersionName: [String: ManagedObjectModel]
    /// Mapping models between versions, searched by entity version hashes as Core Data searches
    /// bundles for `.cdm` files (mappingModelFromBundles:forSourceModel:destinationModel:).
    public var mappingModels: [MappingModel]

    /// A versioned model from its versions, oldest first, and the name of the current one.
    ///
    /// Throws the exception NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``)
    /// for an empty list, a duplicate version name, or a current name that is not among the versions.
    public init(
        name: String = "Model", versions: [(name: String, model: ManagedObjectModel)], currentVersionName: String,
        mappingModels: [MappingModel] = []
    ) throws {
        guard !versions.isEmpty else {
            throw CoreDataError(exception: .invalidArgument, "A versioned model needs at least one version")
        }
        var byName: [String: ManagedObjectModel] = [:]
        for version in versions {
            guard byName[version.name] == nil else {
                throw CoreDataError(
                    exception: .invalidArgument, "The versioned model \(name) has two versions named \(version.name)")
            }
            byName[version.name] = version.model
        }
        guard byName[currentVersionName] != nil else {
            throw CoreDataError(
                exception: .invalidArgument,
                "The current version \(currentVersionName) of \(name) is not one of its versions: \(versions.map(\.name).joined(separator: ", "))"
            )
        }
        self.name = name
        self.versionNames = versions.map(\.name)
        self.currentVersionName = currentVersionName
        self.modelsByVersionName = byName
        self.mappingModels = mappingModels
    }

    /// The current version's model: the one a coordinator opens stores with.
    public var currentModel: ManagedObjectModel { modelsByVersionName[currentVersionName]! }

    /// The model of a version, or nil if there is no version of that name.
    public func model(named versionName: String) -> ManagedObjectModel? { modelsByVersionName[versionName] }

    /// The entity version hashes of every version, as `VersionInfo.plist` records them under
    /// NSManagedObjectModel_VersionHashes.
    public var versionHashes: [String: [String: Data]] { modelsByVersionName.mapValues(\.entityVersionHashesByName) }

    /// The name of the version whose hashes equal the store's, or nil when no version made the
    /// store (mergedModelFromBundles:forStoreMetadata: finds its model the same way).
    public func versionName(forStoreMetadata metadata: [String: Any]) -> String? {
        versionNames.last {
            modelsByVersionName[$0]!.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        }
    }

    /// The model that created a store, found by the hashes in its metadata.
    public func model(forStoreMetadata metadata: [String: Any]) -> ManagedObjectModel? {
        versionName(forStoreMetadata: metadata).flatMap { modelsByVersionName[$0] }
    }

    /// The versions a store passes through from `source` to `destination`, both included, in
    /// version order; nil when `destination` comes before `source` (migrations go forward).
    public func migrationPath(from source: String, to destination: String) -> [String]? {
        guard let from = versionNames.firstIndex(of: source), let to = versionNames.firstIndex(of: destination),
            from <= to
        else { return nil }
        return Array(versionNames[from...to])
    }
}
