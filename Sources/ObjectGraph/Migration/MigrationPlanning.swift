import Foundation

extension VersionedModel {
    /// The steps that bring a store with this metadata to `destinationVersion` (the current
    /// version by default): a pre-flight answer to "will it migrate, and how?".
    ///
    /// As Core Data does, a mapping model straight from the store's version to the
    /// destination wins, then (when `inferringMappingModels`) an inferred one. Beyond Core
    /// Data, when the versions between them have mapping models of their own, the store goes
    /// through each version in order (progressive migration), each step with its mapping
    /// model or an inferred one; and when no single step can be inferred, a chain of inferred
    /// steps is tried. An empty array means the store already matches.
    ///
    /// Throws 134130 when no version made the store, 134140 when no mapping model matches and
    /// none can be inferred (the message says what cannot be inferred).
    public func migrationSteps(
        forStoreMetadata metadata: [String: Any], to destinationVersion: String? = nil,
        inferringMappingModels: Bool = true
    ) throws -> [MigrationStep] {
        let target = destinationVersion ?? currentVersionName
        guard let destination = model(named: target) else {
            throw CoreDataError(
                .migration,
                "The versioned model \(name) has no version \(target); its versions are \(versionNames.joined(separator: ", "))"
            )
        }
        return try Self.steps(
            storeMetadata: metadata, destination: destination, destinationName: target, versions: self,
            infer: inferringMappingModels)
    }

    /// The one step between two named versions: the matching mapping model, or an inferred one.
    ///
    /// Throws 134140 when there is neither.
    public func migrationStep(from source: String, to destination: String, inferringMappingModel: Bool = true) throws
        -> MigrationStep
    {
        guard let s = model(named: source), let d = model(named: destination) else {
            throw CoreDataError(
                .migration,
                "The versioned model \(name) has no version \(model(named: source) == nil ? source : destination); its versions are \(versionNames.joined(separator: ", "))"
            )
        }
        return try Self.step(s, source, d, destination, versions: self, infer: inferringMappingModel)
    }

    static func step(
        _ s: ManagedObjectModel, _ sName: String?, _ d: ManagedObjectModel, _ dName: String?, versions: VersionedModel?,
        infer: Bool
    ) throws -> MigrationStep {
        if let mapping = MappingModel.mappingModel(
            from: versions?.mappingModels ?? [], forSourceModel: s, destinationModel: d)
        {
            return MigrationStep(
                sourceVersionName: sName, destinationVersionName: dName, sourceModel: s, destinationModel: d,
                mappingModel: mapping)
        }
        let between = "\(sName ?? "the store's version") to \(dName ?? "the model")"
        guard infer else {
            throw CoreDataError(
                .migrationMissingMappingModel,
                "Can't find mapping model for migration from \(between): add a MappingModel to the versioned model's mappingModels, or set inferMappingModelAutomatically for a lightweight migration"
            )
        }
        do {
            let mapping = try MappingModel.inferredMappingModel(forSourceModel: s, destinationModel: d)
            return MigrationStep(
                sourceVersionName: sName, destinationVersionName: dName, sourceModel: s, destinationModel: d,
                mappingModel: mapping)
        } catch let error as CoreDataError {
            throw CoreDataError(
                .migrationMissingMappingModel,
                "Can't find or automatically infer mapping model for migration from \(between). \(error.message). Write a MappingModel for this step and add it to the versioned model's mappingModels",
                detailedErrors: [error])
        }
    }

    static func steps(
        storeMetadata metadata: [String: Any], destination: ManagedObjectModel, destinationName: String?,
        versions: VersionedModel?, infer: Bool
    ) throws -> [MigrationStep] {
        if destination.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { return [] }
        guard let versions else {
            throw CoreDataError(
                .migrationMissingSourceModel,
                "Can't find model for source store: the store was made by another version of the model (entities that differ: \(destination.incompatibleEntities(withStoreMetadata: metadata).joined(separator: ", "))), and no versions were given to search. Make the coordinator with PersistentStoreCoordinator(versionedModel:) or pass StoreOption.versionedModel"
            )
        }
        guard let sourceName = versions.versionName(forStoreMetadata: metadata),
            let source = versions.model(named: sourceName)
        else {
            throw CoreDataError(
                .migrationMissingSourceModel,
                "Can't find model for source store: none of the versions \(versions.versionNames.joined(separator: ", ")) of \(versions.name) matches the store's entity hashes; add the version that created the store"
            )
        }
        let destinationName =
            destinationName
            ?? versions.versionNames.last {
                versions.model(named: $0)!.entityVersionHashesByName == destination.entityVersionHashesByName
            }
        // A mapping model straight to the destination wins, as in Core Data.
        if let mapping = MappingModel.mappingModel(
            from: versions.mappingModels, forSourceModel: source, destinationModel: destination)
        {
            return [
                MigrationStep(
                    sourceVersionName: sourceName, destinationVersionName: destinationName, sourceModel: source,
                    destinationModel: destination, mappingModel: mapping)
            ]
        }
        guard let destinationName, let path = versions.migrationPath(from: sourceName, to: destinationName),
            path.count > 2
        else {
            return [try step(source, sourceName, destination, destinationName, versions: versions, infer: infer)]
        }
        let pairs = zip(path, path.dropFirst()).map { ($0, $1) }
        let hasMappingModels = pairs.contains { a, b in
            MappingModel.mappingModel(
                from: versions.mappingModels, forSourceModel: versions.model(named: a)!,
                destinationModel: versions.model(named: b)!) != nil
        }
        if !hasMappingModels {
            // All lightweight: one inferred step if it can be inferred, as Core Data would.
            if let direct = try? step(
                source, sourceName, destination, destinationName, versions: versions, infer: infer)
            {
                return [direct]
            }
        }
        return try pairs.map { a, b in
            try step(versions.model(named: a)!, a, versions.model(named: b)!, b, versions: versions, infer: infer)
        }
    }
}

/// What addPersistentStore does with migratePersistentStoresAutomatically: the store's kind
/// decides how (``PersistentStoreKind/migrateIfNeeded(at:_:)``); a file is migrated here.
enum AutomaticMigration {
    /// The model to bring a store to, and how.
    struct Request {
        let model: ManagedObjectModel
        let versions: VersionedModel?
        let infer: Bool
        let progress: MigrationProgressHandler?
        let log: SQLLog
    }

    static func migrateIfNeeded(
        url: URL, type: StoreType, model: ManagedObjectModel, versions: VersionedModel?, infer: Bool,
        progress: MigrationProgressHandler?, log: SQLLog = .ambient
    ) throws {
        let request = Request(model: model, versions: versions, infer: infer, progress: progress, log: log)
        try type.registeredKind().migrateIfNeeded(at: url, request)
    }

    /// Migrates the store file at `url`, step by step, if another model version made it.
    static func migrateFileIfNeeded(at url: URL, type: StoreType, _ request: Request) throws {
        // Association tables of migrations killed in this directory are worthless.
        StoreFiles.removeAbandonedScratchFiles(in: url.deletingLastPathComponent())
        // A missing or empty file (a creation that was interrupted) is a new store: nothing
        // to migrate.
        guard FileManager.default.fileExists(atPath: url.path), !StoreFiles.isEmpty(url) else { return }
        // A migration killed before its swap leaves its scratch copy: it is worthless.
        StoreFiles.remove(StoreFiles.migratingURL(for: url))
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        try run(steps(for: metadata, request), progress: request.progress) { step, scaled in
            try step.migrateStore(at: url, type: type, progress: scaled, batchSize: nil, log: request.log)
        }
    }

    /// The steps from the store's version to the model's.
    static func steps(for metadata: [String: Any], _ request: Request) throws -> [MigrationStep] {
        let versions = request.versions
        let model = request.model
        let destinationName = versions.flatMap { v in
            v.versionNames.last { v.model(named: $0)?.entityVersionHashesByName == model.entityVersionHashesByName }
        }
        return try VersionedModel.steps(
            storeMetadata: metadata, destination: model, destinationName: destinationName, versions: versions,
            infer: request.infer)
    }

    /// Runs the steps in order, each reporting its progress as its share of the whole.
    static func run(
        _ steps: [MigrationStep], progress: MigrationProgressHandler?,
        _ migrate: (MigrationStep, @escaping MigrationProgressHandler) throws -> Void
    ) throws {
        for (i, step) in steps.enumerated() {
            try migrate(step) { p in
                var scaled = p
                scaled.step = i + 1
                scaled.stepCount = steps.count
                scaled.fractionCompleted = (Float(i) + p.fractionCompleted) / Float(steps.count)
                progress?(scaled)
            }
        }
    }
}
