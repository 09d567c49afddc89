import Foundation

/// Models from several files or bundles as one, as Apple's mergedModel(from:) and
/// init(byMerging:) make them.
extension ManagedObjectModel {
    /// One model with the entities of all the models (init(byMerging:)); nil when two declare
    /// the same entity or a merged model would not be valid, as Apple's returns nil.
    public convenience init?(byMerging models: [ManagedObjectModel]?) {
        let models = models ?? []
        do {
            try self.init(
                entities: models.flatMap(\.entities),
                versionIdentifiers: models.reduce(into: Set<String>()) { $0.formUnion($1.versionIdentifiers) },
                configurations: models.flatMap(\.configurationDescriptions),
                fetchRequestTemplates: models.flatMap { $0.fetchRequestTemplatesByName.values })
        } catch {
            return nil
        }
    }

    /// The model made of every model file in the bundles' resources (mergedModel(from:)); with
    /// nil, the main bundle's and those of the SwiftPM resource bundles beside the executable.
    ///
    /// Apple's searches compiled models (`.momd`, `.mom`), which Xcode makes from the
    /// `.xcdatamodeld` source. On Linux SwiftPM copies resources as they are, so this searches
    /// each bundle's resources for `.xcdatamodeld` bundles (their current version) and
    /// `.xcdatamodel` files instead. Nil when no model is found or they do not merge.
    public static func mergedModel(from bundles: [Bundle]?) -> ManagedObjectModel? {
        let folders = bundles.map { $0.compactMap(\.resourceURL) } ?? ModelResources.searchFolders()
        let models = folders.flatMap(modelFiles(in:)).compactMap { ManagedObjectModel(contentsOf: $0) }
        guard !models.isEmpty else { return nil }
        return models.count == 1 ? models[0] : ManagedObjectModel(byMerging: models)
    }

    /// The Xcode model files in a folder of resources, in name order: `.xcdatamodeld` bundles,
    /// and `.xcdatamodel` files not inside one.
    static func modelFiles(in resources: URL) -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: resources.path) else { return [] }
        return names.sorted().filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
            .map { resources.appendingPathComponent($0) }
    }
}
