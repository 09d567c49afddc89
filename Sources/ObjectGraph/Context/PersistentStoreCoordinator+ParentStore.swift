import Foundation

/// The coordinator as a context's parent store: it answers from its stores. With one SQLite
/// store a request runs as one statement, sorted and windowed in SQL. Atomic stores evaluate
/// predicates and sorts in memory, on the asking context's objects (as Core Data does, so
/// transient properties and block predicates work there); with several stores each is asked
/// for the head of its answer and the sort, `fetchOffset` and `fetchLimit` apply to the
/// merged result. Counts and IDs always agree with the objects a fetch returns. Each read runs
/// in the query generation the asking context reads, if it is pinned to one.
extension PersistentStoreCoordinator: ParentStore {
    func objects(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.readingStores {
            let stores = persistentStores
            // The common case: one store that runs the whole request itself.
            if stores.count == 1, !stores[0].backend.evaluatesInMemory {
                return try objects(of: stores[0], for: request, in: context)
            }
            var merged: [ManagedObject] = []
            for store in stores {
                let storeRequest = request.copy()
                storeRequest.fetchOffset = 0
                storeRequest.fetchLimit = 0
                if store.backend.evaluatesInMemory {
                    storeRequest.predicate = nil
                    storeRequest.sortDescriptors = []
                } else if request.fetchLimit > 0 {
                    // The merged window can only hold objects from the head of each store's
                    // sorted answer.
                    storeRequest.fetchLimit = request.fetchOffset + request.fetchLimit
                }
                var objects = try self.objects(of: store, for: storeRequest, in: context)
                if store.backend.evaluatesInMemory, let predicate = request.predicate {
                    objects = try objects.filter { try predicate.checkedEvaluate(with: $0) }
                }
                merged += objects
            }
            if !request.sortDescriptors.isEmpty && (stores.count > 1 || stores.first?.backend.evaluatesInMemory == true)
            {
                merged = try SortDescriptor.sort(merged, by: request.sortDescriptors)
            }
            if request.fetchOffset > 0 { merged = Array(merged.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { merged = Array(merged.prefix(request.fetchLimit)) }
            return merged
        }
    }

    /// One store's answer to a request as objects of `context`: rows, or with a batch size,
    /// faults that load a batch at a time.
    private func objects(of store: PersistentStore, for request: AnyFetchRequest, in context: ManagedObjectContext)
        throws -> [ManagedObject]
    {
        if request.fetchBatchSize > 0 {
            let ids = try store.backend.fetchIDs(request, model: managedObjectModel)
            return context.faults(
                for: ids, batchSize: request.fetchBatchSize, refreshing: request.shouldRefreshRefetchedObjects)
        }
        let rows = try store.backend.fetchRows(request, model: managedObjectModel)
        return try context.objects(
            from: rows, storeIdentifier: store.identifier, refreshing: request.shouldRefreshRefetchedObjects)
    }

    /// Whether the stores can answer a request for IDs or a count without objects: one store,
    /// or several without a window, none evaluating in memory.
    private func answersWithoutObjects(_ request: AnyFetchRequest, stores: [PersistentStore]) -> Bool {
        guard !stores.contains(where: { $0.backend.evaluatesInMemory }) else { return false }
        return stores.count <= 1
            || (request.fetchLimit == 0 && request.fetchOffset == 0 && request.sortDescriptors.isEmpty)
    }

    func objectIDs(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> [ManagedObjectID] {
        try context.readingStores {
            let stores = persistentStores
            guard answersWithoutObjects(request, stores: stores) else {
                return try objects(for: request, in: context).map(\.objectID)
            }
            var ids: [ManagedObjectID] = []
            for store in stores { ids += try store.backend.fetchIDs(request, model: managedObjectModel) }
            return ids
        }
    }

    func count(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> Int {
        try context.readingStores {
            let stores = persistentStores
            if stores.contains(where: { $0.backend.evaluatesInMemory }) {
                // Counted on the objects a fetch returns, so that the count agrees with the fetch
                // (an atomic store's own count would judge transient keys and block predicates on
                // its rows instead).
                let copy = request.copy()
                copy.resultType = .managedObject
                copy.fetchBatchSize = 0
                copy.relationshipKeyPathsForPrefetching = []
                return try objects(for: copy, in: context).count
            }
            if stores.count <= 1 {
                return try stores.first.map { try $0.backend.count(request, model: managedObjectModel) } ?? 0
            }
            // Several stores: the window applies to the total.
            let whole = request.copy()
            whole.fetchOffset = 0
            whole.fetchLimit = 0
            var total = 0
            for store in stores { total += try store.backend.count(whole, model: managedObjectModel) }
            total = max(0, total - request.fetchOffset)
            return request.fetchLimit > 0 ? min(total, request.fetchLimit) : total
        }
    }

    func dictionaries(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> [[String: Any]] {
        try context.readingStores {
            var results: [[String: Any]] = []
            for store in persistentStores {
                results += try store.backend.fetchDictionaries(request, model: managedObjectModel)
            }
            return results
        }
    }

    func row(for id: ManagedObjectID, in context: ManagedObjectContext) throws -> StoreRow? {
        try context.readingStores {
            guard !id.isTemporaryID else { return nil }
            return try store(for: id).backend.row(for: id, model: managedObjectModel)
        }
    }

    func rows(for ids: [ManagedObjectID], in context: ManagedObjectContext) throws -> [ManagedObjectID: StoreRow] {
        try context.readingStores {
            var result: [ManagedObjectID: StoreRow] = [:]
            for (storeIdentifier, group) in try idsByStore(ids) {
                let store = try self.store(for: group[0])
                for row in try store.backend.rows(for: group, model: managedObjectModel) {
                    result[
                        ManagedObjectID(
                            entityName: row.entityName, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey)] =
                        row
                }
            }
            return result
        }
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, in context: ManagedObjectContext)
        throws -> Set<ManagedObjectID>
    {
        try context.readingStores {
            guard !id.isTemporaryID else { return [] }
            return try store(for: id).backend.relatedIDs(of: id, relationship: relationship, model: managedObjectModel)
        }
    }

    func orderedRelatedIDs(
        of id: ManagedObjectID, relationship: RelationshipDescription, in context: ManagedObjectContext
    ) throws -> [ManagedObjectID] {
        try context.readingStores {
            guard !id.isTemporaryID else { return [] }
            return try store(for: id).backend.orderedRelatedIDs(
                of: id, relationship: relationship, model: managedObjectModel)
        }
    }

    func relatedIDs(of ids: [ManagedObjectID], relationship: RelationshipDescription, in context: ManagedObjectContext)
        throws -> [ManagedObjectID: Set<ManagedObjectID>]
    {
        try context.readingStores {
            var result: [ManagedObjectID: Set<ManagedObjectID>] = [:]
            for (_, group) in try idsByStore(ids) {
                let related = try store(for: group[0]).backend.relatedIDs(
                    of: group, relationship: relationship, model: managedObjectModel)
                result.merge(related) { a, _ in a }
            }
            return result
        }
    }

    /// Permanent IDs, grouped by the store that holds them, in a stable order; temporary IDs
    /// are no store's yet and are left out.
    private func idsByStore(_ ids: [ManagedObjectID]) throws -> [(String, [ManagedObjectID])] {
        var groups: [String: [ManagedObjectID]] = [:]
        var order: [String] = []
        for id in ids where !id.isTemporaryID {
            if groups[id.storeIdentifier] == nil { order.append(id.storeIdentifier) }
            groups[id.storeIdentifier, default: []].append(id)
        }
        return order.map { ($0, groups[$0]!) }
    }

    func save(changesOf context: ManagedObjectContext) throws -> [String: Set<ManagedObjectID>] {
        // Finding conflicts, resolving them and writing the store is one step no other save of
        // this coordinator interleaves with.
        // Its reads see the stores as they are now, whatever generation the context is pinned
        // to (query generations are for fetched data only).
        try performAndWait {
            try QueryGenerationScope.$isSuspended.withValue(true) { try context.writeChangesToStores() }
        }
    }

    func obtainPermanentIDs(for temporaryIDs: [ManagedObjectID], in context: ManagedObjectContext) throws
        -> [ManagedObjectID]
    {
        try performAndWait {
            let store = try defaultStore()
            var result = [ManagedObjectID?](repeating: nil, count: temporaryIDs.count)
            for (entityName, positions) in Dictionary(
                grouping: temporaryIDs.indices, by: { temporaryIDs[$0].entityName }
            ).sorted(by: { $0.key < $1.key }) {
                let entity = try managedObjectModel.entity(named: entityName)
                let keys = try store.backend.allocatePrimaryKeys(
                    for: entity, count: positions.count, model: managedObjectModel)
                for (k, key) in zip(positions, keys) {
                    result[k] = ManagedObjectID(
                        entityName: entityName, storeIdentifier: store.identifier, primaryKey: key)
                }
            }
            // An atomic store file holds its lock from allocating keys until the save that
            // follows; an empty save records the keys and lets the lock go now.
            if store.backend.evaluatesInMemory { try store.backend.save(StoreChanges(), model: managedObjectModel) }
            return result.compactMap { $0 }
        }
    }
}
