import Foundation

extension MappingModel {
    /// Reads a mapping model file, as `NSMappingModel(contentsOf:)` reads a `.cdm`: a compiled
    /// `.cdm`, or Xcode's `.xcmappingmodel` folder (or its `xcmapping.xml`), compiled here
    /// against the two models it records, found from the folder it is in and the folders above.
    ///
    /// ```swift
    /// let mapping = try MappingModel(contentsOf: URL(fileURLWithPath: "ToDo1To2.xcmappingmodel"))
    /// ```
    ///
    /// A policy class name resolves through ``EntityMigrationPolicy/register(_:as:)`` when a
    /// migration runs. Throws ``CoreDataError`` 260 (NSFileReadNoSuchFileError) for a missing
    /// file or model, 259 (NSFileReadCorruptFileError) for a malformed one, naming the file.
    public convenience init(contentsOf url: URL) throws {
        let file = try MappingModelFile(url: url)
        try self.init(entityMappings: file.entityMappings(models: file.modelNearby(recordedPath:)))
    }

    /// Reads a mapping model file; Xcode's source form is compiled against these two models
    /// instead of the ones it records (a compiled `.cdm` carries its hashes and ignores them).
    public convenience init(contentsOf url: URL, sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel)
        throws
    {
        let file = try MappingModelFile(url: url)
        var given = [sourceModel, destinationModel].makeIterator()
        // The source's path is asked for first, then the destination's.
        try self.init(entityMappings: file.entityMappings(models: { _ in given.next() }))
    }

    /// The mapping model in `directories` that migrates stores of `sourceModel` to
    /// `destinationModel`, or nil: `NSMappingModel(from:forSourceModel:destinationModel:)`,
    /// with folders for bundles.
    ///
    /// Each folder's `.cdm` files and `.xcmappingmodel` folders (not its subfolders) are read
    /// in name order; files that cannot be read are passed over, as Core Data passes over a
    /// `.cdm` it cannot load. The first whose hashes fit wins
    /// (``matchesVersionHashes(ofSourceModel:destinationModel:)``).
    public convenience init?(
        from directories: [URL], forSourceModel sourceModel: ManagedObjectModel,
        destinationModel: ManagedObjectModel
    ) {
        for url in Self.mappingModelFiles(in: directories) {
            guard let found = try? MappingModel(contentsOf: url),
                found.matchesVersionHashes(ofSourceModel: sourceModel, destinationModel: destinationModel)
            else { continue }
            self.init(entityMappings: found.entityMappings)
            return
        }
        return nil
    }

    /// Whether the version hashes this mapping model records fit the two models, as Core Data
    /// decides it when searching bundles: the source hashes of its entity mappings are among the
    /// source model's entity hashes and the destination hashes among the destination model's,
    /// and each side records at least one (`+[NSMappingModel _newMappingModelFromBundles:
    /// forSourceHashes:destinationHashes:]`, a subset test, in the iOS 26.1 dump).
    public func matchesVersionHashes(
        ofSourceModel sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel
    ) -> Bool {
        let sources = Set(entityMappings.compactMap(\.sourceEntityVersionHash))
        let destinations = Set(entityMappings.compactMap(\.destinationEntityVersionHash))
        return !sources.isEmpty && !destinations.isEmpty
            && sources.isSubset(of: Set(sourceModel.entityVersionHashesByName.values))
            && destinations.isSubset(of: Set(destinationModel.entityVersionHashesByName.values))
    }

    /// The `.cdm` files and `.xcmappingmodel` folders directly in the folders, each folder's in
    /// name order.
    static func mappingModelFiles(in directories: [URL]) -> [URL] {
        directories.flatMap { folder -> [URL] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".cdm") || $0.hasSuffix(".xcmappingmodel") }.sorted()
                .map { folder.appendingPathComponent($0) }
        }
    }
}
