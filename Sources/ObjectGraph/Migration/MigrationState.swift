import Foundation

/// Everything one run of a migration holds: the two stacks, the association tables, the
/// associations of the batch not saved yet, and a small cache of lookups.
final class MigrationState {
    let sourceCoordinator: PersistentStoreCoordinator
    let destinationCoordinator: PersistentStoreCoordinator
    let sourceStore: PersistentStore
    let destinationStore: PersistentStore
    let sourceContext: ManagedObjectContext
    let destinationContext: ManagedObjectContext
    let associations: AssociationTable
    let mappings: [EntityMapping]
    let mappingIndex: [String: Int]
    /// Whether the destination is saved and its context reset after each batch (SQLite);
    /// an atomic store rewrites its whole file at each save, so it is saved once per pass.
    let savesEachBatch: Bool
    let destinationURL: URL

    private struct PendingKey: Hashable {
        let mapping: Int
        let source: ManagedObjectID
    }
    /// Associations whose destination is not saved yet (it has a temporary ID).
    private var pending: [(mapping: Int, source: ManagedObjectID, destination: ManagedObject)] = []
    private var pendingBySource: [PendingKey: [ManagedObject]] = [:]
    /// How many of `pending` are in `pendingBySource`: it is built on the first lookup, as
    /// most migrations never look up a batch's own associations.
    private var pendingIndexed = 0
    /// How many of `pending` each mapping has: a lookup of other mappings' instances (the
    /// first pass's relationships) then skips indexing the batch's own.
    private var pendingCounts: [Int]
    /// During the second and third passes: each destination key of the batch with its source.
    var batchSources: [Int64: ManagedObjectID] = [:]
    var batchMapping = -1
    /// Recent source-to-destination lookups, by mapping (bounded).
    private var cache: [Int: [Int64: [ManagedObjectID]]] = [:]
    private var cacheCount = 0

    init(
        sourceURL: URL, sourceType: StoreType, sourceOptions: [String: Any], sourceModel: ManagedObjectModel,
        destinationURL: URL, destinationType: StoreType, destinationOptions: [String: Any],
        destinationModel: ManagedObjectModel,
        mapping: MappingModel, log: SQLLog
    ) throws {
        sourceCoordinator = PersistentStoreCoordinator(managedObjectModel: sourceModel)
        destinationCoordinator = PersistentStoreCoordinator(managedObjectModel: destinationModel)
        // The migration's reads and writes show in the log of whoever runs it.
        sourceCoordinator.sqlLog.parent = log
        destinationCoordinator.sqlLog.parent = log
        // Adding a store that is not there would make an empty one.
        try sourceType.registeredKind().requireMigrationSource(at: sourceURL)
        do {
            // The source is only read: a store with the hashes an earlier ObjectGraph wrote keeps
            // them (the migration writes Core Data's into the destination).
            var options = Self.plain(sourceOptions)
            options[StoreOption.keepsLegacyVersionHashes] = true
            sourceStore = try sourceCoordinator.addPersistentStore(type: sourceType, at: sourceURL, options: options)
        } catch let error as CoreDataError {
            throw CoreDataError(
                .migrationManagerSourceStore,
                "Can't add source store \(MigrationManager.place(sourceURL)): \(error.message)", detailedErrors: [error]
            )
        }
        do {
            destinationStore = try destinationCoordinator.addPersistentStore(
                type: destinationType, at: destinationURL, options: Self.plain(destinationOptions))
        } catch let error as CoreDataError {
            try? sourceStore.backend.close()
            throw CoreDataError(
                .migrationManagerDestinationStore,
                "Can't add destination store \(MigrationManager.place(destinationURL)): \(error.message)",
                detailedErrors: [error])
        }
        // The destination is flushed once, when it is complete (close), not at every batch.
        try destinationStore.backend.deferDurability(true)
        self.destinationURL = destinationURL
        sourceContext = ManagedObjectContext(coordinator: sourceCoordinator)
        destinationContext = ManagedObjectContext(coordinator: destinationCoordinator)
        destinationContext.migrationRole = MigrationDestinationRole()
        associations = try AssociationTable(directory: StoreFiles.scratchDirectory(for: destinationURL))
        mappings = mapping.entityMappings
        pendingCounts = Array(repeating: 0, count: mapping.entityMappings.count)
        mappingIndex = Dictionary(
            mapping.entityMappings.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        savesEachBatch = !destinationStore.backend.evaluatesInMemory
    }

    /// Options without the migration keys: the stores of a migration open as they are.
    private static func plain(_ options: [String: Any]) -> [String: Any] {
        options.filter {
            $0.key != StoreOption.migratePersistentStoresAutomatically
                && $0.key != StoreOption.inferMappingModelAutomatically
        }
    }

    /// Closes both stores and deletes the association tables.
    func close() {
        associations.destroy()
        sourceContext.reset()
        destinationContext.reset()
        try? sourceStore.backend.close()
        try? destinationStore.backend.close()
        if destinationURL.isFileURL { try? StoreFiles.sync(destinationURL) }
    }

    func index(ofMapping name: String) throws -> Int {
        guard let i = mappingIndex[name] else {
            throw CoreDataError(
                .migration,
                "Can't find mapping for name (\(name)): the mapping model's entity mappings are \(mappings.map(\.name).joined(separator: ", "))"
            )
        }
        return i
    }

    // MARK: Associations

    func associate(source: ManagedObject, destination: ManagedObject, mappingName: String) {
        guard let m = mappingIndex[mappingName] else { return }
        pending.append((m, source.objectID, destination))
        pendingCounts[m] += 1
    }

    /// How many associations are pending: where a batch's own begin.
    var pendingCount: Int { pending.count }

    /// The pending associations of one mapping from position `start` on, in order.
    func pendingAssociations(mapping: Int, from start: Int) -> [(source: ManagedObjectID, destination: ManagedObject)] {
        pending[start...].filter { $0.mapping == mapping }.map { ($0.source, $0.destination) }
    }

    private func indexPending() {
        guard pendingIndexed < pending.count else { return }
        for p in pending[pendingIndexed...] {
            pendingBySource[PendingKey(mapping: p.mapping, source: p.source), default: []].append(p.destination)
        }
        pendingIndexed = pending.count
    }

    /// After the destination context was saved: the pending associations, now with
    /// permanent destination keys, go to the table.
    func flushPending() throws {
        guard !pending.isEmpty else { return }
        let source = sourceCoordinator.managedObjectModel
        let destination = destinationCoordinator.managedObjectModel
        // Entity numbers by name, looked up once per run of one entity, not per pair.
        var lastSource = ("", 0)
        var lastDestination = ("", 0)
        try associations.insert(
            pending.map { p in
                if p.source.entityName != lastSource.0 {
                    lastSource = (p.source.entityName, source.entitiesByName[p.source.entityName]?.entityNumber ?? 0)
                }
                if p.destination.entity.name != lastDestination.0 {
                    lastDestination = (
                        p.destination.entity.name,
                        destination.entitiesByName[p.destination.entity.name]?.entityNumber ?? 0
                    )
                }
                return AssociationTable.Pair(
                    mapping: p.mapping, source: p.source.primaryKey, sourceEntity: lastSource.1,
                    destination: p.destination.objectID.primaryKey, destinationEntity: lastDestination.1)
            })
        pending.removeAll(keepingCapacity: true)
        pendingBySource.removeAll(keepingCapacity: true)
        pendingIndexed = 0
        for i in pendingCounts.indices { pendingCounts[i] = 0 }
    }

    var hasPending: Bool { !pending.isEmpty }

    private func destinationID(_ pair: AssociationTable.Pair) -> ManagedObjectID? {
        guard let entity = destinationCoordinator.managedObjectModel.entitiesByNumber[pair.destinationEntity] else {
            return nil
        }
        return ManagedObjectID(
            entityName: entity.name, storeIdentifier: destinationStore.identifier, primaryKey: pair.destination)
    }

    private func sourceID(_ pair: AssociationTable.Pair) -> ManagedObjectID? {
        guard let entity = sourceCoordinator.managedObjectModel.entitiesByNumber[pair.sourceEntity] else { return nil }
        return ManagedObjectID(
            entityName: entity.name, storeIdentifier: sourceStore.identifier, primaryKey: pair.source)
    }

    func destinationInstances(mappingNames: [String], sources: [ManagedObject]?) throws -> [ManagedObject] {
        let indexes = try mappingNames.map(index(ofMapping:))
        guard let sources else {
            var ids = try associations.pairs(mappings: indexes, sources: nil).compactMap(destinationID)
            ids += pending.filter { indexes.contains($0.mapping) }.map(\.destination.objectID)
            return ids.map(destinationContext.object(with:))
        }
        // Only the mappings asked about: the first pass looks up earlier mappings' instances
        // while its own batch is pending.
        let looksInPending = indexes.contains { pendingCounts[$0] > 0 }
        if looksInPending { indexPending() }
        var result: [ManagedObject] = []
        for source in sources {
            let sourceEntity =
                sourceCoordinator.managedObjectModel.entitiesByName[source.entity.name]?.entityNumber ?? 0
            for m in indexes {
                // None of these mappings' associations pending: no hashing of a key to find none.
                if looksInPending, let objects = pendingBySource[PendingKey(mapping: m, source: source.objectID)] {
                    result += objects
                    continue
                }
                if let ids = cache[m]?[source.objectID.primaryKey] {
                    result += ids.map(destinationContext.object(with:))
                    continue
                }
                let ids = try associations.pairs(mappings: [m], sources: [source.objectID.primaryKey])
                    .filter { $0.sourceEntity == sourceEntity }.compactMap(destinationID)
                if cacheCount > 20_000 {
                    cache.removeAll()
                    cacheCount = 0
                }
                cache[m, default: [:]][source.objectID.primaryKey] = ids
                cacheCount += 1
                result += ids.map(destinationContext.object(with:))
            }
        }
        return result
    }

    /// The destinations of a relationship's source objects, across every mapping of their
    /// entities (the inferred mappings' destinationInstancesForSourceRelationshipNamed:).
    func destinationInstances(forRelationshipSources sources: [ManagedObject]) throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        for source in sources {
            let names = mappings.filter { $0.sourceEntityName == source.entity.name && $0.destinationEntityName != nil }
                .map(\.name)
            result += try destinationInstances(mappingNames: names, sources: [source])
        }
        return result
    }

    func sourceInstances(mappingName: String, destinations: [ManagedObject]?) throws -> [ManagedObject] {
        let m = try index(ofMapping: mappingName)
        guard let destinations else {
            return try associations.pairs(mapping: m, destinations: nil).compactMap(sourceID).map(
                sourceContext.object(with:))
        }
        var result: [ManagedObject] = []
        for destination in destinations {
            if m == batchMapping, let id = batchSources[destination.objectID.primaryKey] {
                result.append(sourceContext.object(with: id))
                continue
            }
            if let p = pending.first(where: { $0.mapping == m && $0.destination === destination }) {
                result.append(sourceContext.object(with: p.source))
                continue
            }
            result += try associations.pairs(mapping: m, destinations: [destination.objectID.primaryKey])
                .compactMap(sourceID).map(sourceContext.object(with:))
        }
        return result
    }

    func clearCache() {
        cache.removeAll()
        cacheCount = 0
    }
}
