import Foundation

extension VersionedModel {
    /// A versioned model with the versions of an Xcode model bundle, in the bundle's order,
    /// and its current version.
    ///
    /// ```swift
    /// let versions = try VersionedModel(contentsOf: URL(fileURLWithPath: "ToDo.xcdatamodeld"))
    /// let coordinator = PersistentStoreCoordinator(versionedModel: versions)
    /// ```
    public convenience init(_ bundle: ModelBundle, name: String = "Model", mappingModels: [MappingModel] = []) throws {
        try self.init(
            name: name, versions: bundle.versions.map { ($0.name, $0.model) },
            currentVersionName: bundle.currentVersionName, mappingModels: mappingModels)
    }

    /// Loads an `.xcdatamodeld` bundle as a versioned model named after the bundle, with
    /// `mappingModels` and then the mapping models beside the bundle (its folder's `.cdm` files and
    /// its own `.xcmappingmodel` folders), as Core Data finds `.cdm` files in the app's bundle.
    ///
    /// Throws what ``ModelBundle/init(contentsOf:classes:)`` throws for a missing or malformed
    /// file, and what ``MappingModel/init(contentsOf:)`` throws for a mapping model beside it.
    public convenience init(
        contentsOf url: URL, classes: [String: ManagedObject.Type] = [:], mappingModels: [MappingModel] = []
    ) throws {
        let bundle = try ModelBundle(contentsOf: url, classes: classes)
        let beside = try Self.mappingModels(besideBundleAt: url, versions: bundle)
        try self.init(
            bundle, name: url.deletingPathExtension().lastPathComponent, mappingModels: mappingModels + beside)
    }
}
