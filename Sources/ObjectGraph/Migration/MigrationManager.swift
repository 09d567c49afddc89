import Foundation
import GRDB

/// Migrates a store from one model version to another with a mapping model:
/// NSMigrationManager.
///
/// ```swift
/// let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
/// manager.progressHandler = { print($0.fractionCompleted) }
/// try manager.migrateStore(from: oldURL, type: .sqlite, with: mapping, to: newURL, type: .sqlite)
/// ```
///
/// Like Core Data it makes two stacks, processes the entity mappings in order in three
/// passes (create instances, create relationships, validate) and keeps association tables
/// between source and destination instances. Unlike Core Data, memory does not grow with the
/// store: source instances are read in batches of ``batchSize`` by primary key, the
/// destination context is saved and reset after each batch, and the association tables live
/// in a scratch SQLite file. Objects therefore do not outlive their batch: a policy that
/// keeps something across batches keeps object IDs, not objects.
///
/// The source store is only read. If the destination file did not exist and the migration
/// fails or is cancelled, the half-written destination is removed.
open class MigrationManager: FunctionReceiver, KeyValueCoding {
    /// The model of the store being migrated.
    public let sourceModel: ManagedObjectModel
    /// The model it is migrated to.
    public let destinationModel: ManagedObjectModel
    /// The mapping model of the migration under way (or the last one).
    public internal(set) var mappingModel: MappingModel?
    /// The context the source instances are read in (a migration is under way).
    public var sourceContext: ManagedObjectContext { state!.sourceContext }
    /// The context the destination instances are created in (a migration is under way).
    public var destinationContext: ManagedObjectContext { state!.destinationContext }
    /// The entity mapping being processed (currentEntityMapping).
    public internal(set) var currentEntityMapping: EntityMapping?
    /// The fraction done, 0 to 1; 1 when no migration is under way, as Apple documents.
    public internal(set) var migrationProgress: Float = 1
    /// Called after each batch and at the end of each mapping's pass.
    public var progressHandler: MigrationProgressHandler?
    /// Source instances read, and destination instances saved, per batch.
    public var batchSize = 5000
    /// Free-form information for the application and its policies.
    public var userInfo: [String: Any] = [:]

    var state: MigrationState?
    /// Where the statements of the migration's stores go: the process-wide log, or the log of
    /// the coordinator whose store is being migrated.
    var sqlLog: SQLLog = .ambient
    var cancellation: Error?

    /// A manager for a source and a destination model.
    public init(sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
    }

    /// Migrates the store at `sourceURL` into `destinationURL` with a mapping model
    /// (migrateStoreFromURL:type:options:withMappingModel:toDestinationURL:destinationType:destinationOptions:error:).
    ///
    /// A store at the destination URL is appended to, as Apple documents; otherwise one is
    /// created. Throws 134110 when the URLs are the same or a save fails, 134120 (or the given
    /// error) when cancelled, 134170 when a value expression fails, and validation errors
    /// (1570...) from the third pass.
    public func migrateStore(
        from sourceURL: URL, type sourceType: StoreType, options sourceOptions: [String: Any] = [:],
        with mapping: MappingModel, to destinationURL: URL, type destinationType: StoreType,
        options destinationOptions: [String: Any] = [:]
    ) throws {
        guard sourceURL.standardizedFileURL != destinationURL.standardizedFileURL else {
            throw CoreDataError(
                .migration,
                "Migration source and destination URLs must be different (\(Self.place(sourceURL))): migrate into a new file and replace the old one afterwards"
            )
        }
        // Association tables that killed migrations left beside the destination go first.
        StoreFiles.removeAbandonedScratchFiles(in: StoreFiles.scratchDirectory(for: destinationURL))
        // A PostgreSQL destination is a schema: one the migration made goes when it fails.
        let destinationKind = try destinationType.registeredKind()
        let createdDestination = !(try destinationKind.placeExists(at: destinationURL))
        do {
            try sqlLog.migration("of \(Self.logName(sourceURL)) into \(Self.logName(destinationURL))") {
                try runMigration(
                    from: sourceURL, type: sourceType, options: sourceOptions, with: mapping,
                    to: destinationURL, type: destinationType, options: destinationOptions)
            }
        } catch {
            if createdDestination {
                destinationKind.removeFailedMigrationDestination(at: destinationURL)
            }
            throw Self.migrationError(error, source: sourceURL)
        }
    }

    /// A migration's failure in the 134110 family: a SQLite failure (134180, or GRDB's own
    /// error from a scratch table) becomes 134110 with the SQLite error, and its code, kept as
    /// the underlying error; other errors pass as they are.
    static func migrationError(_ error: Error, source: URL) -> Error {
        var sqlite = error as? CoreDataError
        if let database = error as? DatabaseError {
            sqlite = CoreDataError(sqlite: database, operation: "Migrating the store at", url: source)
        }
        guard let sqlite, sqlite.code == .sqlite else { return error }
        let engine = source.isFileURL ? "SQLite" : "the database"
        return CoreDataError(
            .migration, "Migration of \(place(source)) failed in \(engine), the store is unchanged: \(sqlite.message)",
            detailedErrors: [sqlite], sqliteCode: sqlite.sqliteCode)
    }

    /// A store's name in the SQL log: its file's name, or its schema on a server.
    static func logName(_ url: URL) -> String {
        url.isFileURL ? url.lastPathComponent : "schema \(PostgresNames.schemaName(of: url))"
    }

    /// A store's place for messages: a file's path, a server URL without its password.
    static func place(_ url: URL) -> String {
        url.isFileURL ? url.path : PostgresNames.redacted(url)
    }

    /// Records that `destination` was made from `source` by `mapping`, for
    /// ``destinationInstances(forEntityMappingName:sourceInstances:)`` and the second pass
    /// (associateSourceInstance:withDestinationInstance:forEntityMapping:).
    public func associate(
        sourceInstance source: ManagedObject, withDestinationInstance destination: ManagedObject,
        for mapping: EntityMapping
    ) {
        state?.associate(source: source, destination: destination, mappingName: mapping.name)
    }

    /// The destination instances that `mapping` made from the source instances, in the destination
    /// context (destinationInstancesForEntityMappingNamed:sourceInstances:).
    ///
    /// Nil sources means every source instance of the mapping.
    public func destinationInstances(forEntityMappingName name: String, sourceInstances: [ManagedObject]?) throws
        -> [ManagedObject]
    {
        guard let state else { throw Self.notMigrating }
        return try state.destinationInstances(mappingNames: [name], sources: sourceInstances)
    }

    /// The source instances that `mapping` made the destination instances from
    /// (sourceInstancesForEntityMappingNamed:destinationInstances:).
    ///
    /// Nil destinations means every destination instance of the mapping.
    public func sourceInstances(forEntityMappingName name: String, destinationInstances: [ManagedObject]?) throws
        -> [ManagedObject]
    {
        guard let state else { throw Self.notMigrating }
        return try state.sourceInstances(mappingName: name, destinations: destinationInstances)
    }

    /// The source model's entity of a mapping, found by version hash (sourceEntityForEntityMapping:).
    public func sourceEntity(for mapping: EntityMapping) -> EntityDescription? {
        Self.entity(named: mapping.sourceEntityName, hash: mapping.sourceEntityVersionHash, in: sourceModel)
    }

    /// The destination model's entity of a mapping, found by version hash (destinationEntityForEntityMapping:).
    public func destinationEntity(for mapping: EntityMapping) -> EntityDescription? {
        Self.entity(
            named: mapping.destinationEntityName, hash: mapping.destinationEntityVersionHash, in: destinationModel)
    }

    /// The request Xcode's source expressions make: the entity's own instances (not its
    /// sub-entities') that match the predicate (fetchRequestForSourceEntityNamed:predicateString:).
    public func fetchRequest(forSourceEntityNamed name: String, predicateString: String) throws -> FetchRequest<
        ManagedObject
    > {
        let request = FetchRequest(entityName: name)
        request.includesSubentities = false
        let trimmed = predicateString.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty && trimmed.uppercased() != "TRUEPREDICATE" {
            request.predicate = try Predicate(checkedFormat: trimmed)
        }
        return request
    }

    /// Stops the migration under way: `migrateStore` throws `error` after the current object
    /// (cancelMigrationWithError:).
    ///
    /// Nothing of the destination is kept.
    public func cancelMigration(with error: Error = CoreDataError(.migrationCancelled, "The migration was cancelled")) {
        cancellation = error
    }

    /// Forgets the association tables (reset); the contexts are kept, as Apple documents.
    public func reset() throws {
        try state?.associations.removeAll()
    }

    /// `$manager.sourceContext`, `$manager.destinationContext`, the models and the progress.
    public func checkedValue(forKey key: String) throws -> Any? {
        switch key {
        case "sourceContext": return state?.sourceContext
        case "destinationContext": return state?.destinationContext
        case "sourceModel": return sourceModel
        case "destinationModel": return destinationModel
        case "mappingModel": return mappingModel
        case "currentEntityMapping": return currentEntityMapping
        case "migrationProgress": return migrationProgress
        case "userInfo": return userInfo
        default: throw PredicateError.unknownKey(key, on: self)
        }
    }

    /// Answers the manager's selectors in value expressions: `fetchRequestForSourceEntityNamed:predicateString:`,
    /// `destinationInstancesForEntityMappingNamed:sourceInstances:`,
    /// `sourceInstancesForEntityMappingNamed:destinationInstances:` and
    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:` (inferred mappings').
    public func performFunction(_ selector: String, arguments: [Any?]) throws -> FunctionResult? {
        func string(_ i: Int) throws -> String {
            guard i < arguments.count, let s = arguments[i] as? String else {
                throw CoreDataError(
                    .migration,
                    "\(selector) needs a string as argument \(i + 1), got \(i < arguments.count ? describeArgument(arguments[i]) : "nothing")"
                )
            }
            return s
        }
        func objects(_ i: Int) -> [ManagedObject]? {
            i < arguments.count ? Self.sourceObjects(arguments[i]) : []
        }
        switch selector {
        case "fetchRequestForSourceEntityNamed:predicateString:":
            return FunctionResult(try fetchRequest(forSourceEntityNamed: try string(0), predicateString: try string(1)))
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            return FunctionResult(
                try destinationInstances(forEntityMappingName: try string(0), sourceInstances: objects(1)))
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            return FunctionResult(
                try sourceInstances(forEntityMappingName: try string(0), destinationInstances: objects(1)))
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            guard let state else { throw Self.notMigrating }
            return FunctionResult(try state.destinationInstances(forRelationshipSources: objects(1) ?? []))
        default:
            return nil
        }
    }

    static let notMigrating = CoreDataError(
        .migration, "No migration is under way: the association tables exist only during migrateStore")

    static func entity(named name: String?, hash: Data?, in model: ManagedObjectModel) -> EntityDescription? {
        if let hash, let byHash = model.entities.first(where: { Data($0.versionHash) == hash }) { return byHash }
        return name.flatMap { model.entitiesByName[$0] }
    }
}
