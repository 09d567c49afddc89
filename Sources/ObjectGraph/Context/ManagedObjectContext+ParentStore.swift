import Foundation

/// A context as its child's parent store: it answers on its own queue with its own objects,
/// its unsaved changes included (inserted objects found, changed ones with their new values,
/// deleted ones gone), and takes in the child's saves as its own unsaved changes.
extension ManagedObjectContext: ParentStore {
    func objects(for request: AnyFetchRequest, in child: ManagedObjectContext) throws -> [ManagedObject] {
        let rows: [(id: ManagedObjectID, row: StoreRow)] = try performAndWait {
            try fetchObjects(forChild: request).map { try snapshot(of: $0) }
        }
        // With a batch size too: the values came with the IDs, so the child fills its objects
        // at once rather than asking again a batch at a time.
        return try child.objects(from: rows.map(\.row), refreshing: request.shouldRefreshRefetchedObjects) { n, _ in
            rows[n].id
        }
    }

    /// This context's objects for a child's request: its unsaved changes always count, whatever
    /// the child asked for its own (they are the child's store).
    private func fetchObjects(forChild request: AnyFetchRequest) throws -> [ManagedObject] {
        let copy = request.copy()
        copy.includesPendingChanges = true
        copy.fetchBatchSize = 0
        copy.relationshipKeyPathsForPrefetching = []
        copy.shouldRefreshRefetchedObjects = false
        copy.resultType = .managedObject
        return try fetchObjects(copy)
    }

    /// An object's values as a row for a child: its ID and current values, to-many slots left
    /// to `relatedIDs`, as a store's rows leave them.
    private func snapshot(of object: ManagedObject) throws -> (id: ManagedObjectID, row: StoreRow) {
        try fireFault(object)
        let shared = object.entity.shared
        var values = object.storage
        for n in shared.relationships.indices where shared.relationships[n].isToMany {
            values[shared.attributeCount + n] = nil
        }
        return (
            object.objectID,
            StoreRow(
                entityName: shared.name, primaryKey: object.objectID.primaryKey, version: object.version, values: values
            )
        )
    }

    func objectIDs(for request: AnyFetchRequest, in child: ManagedObjectContext) throws -> [ManagedObjectID] {
        try performAndWait { try fetchObjects(forChild: request).map(\.objectID) }
    }

    func count(for request: AnyFetchRequest, in child: ManagedObjectContext) throws -> Int {
        try performAndWait {
            let copy = request.copy()
            copy.includesPendingChanges = true
            return try count(for: copy)
        }
    }

    func dictionaries(for request: AnyFetchRequest, in child: ManagedObjectContext) throws -> [[String: Any]] {
        // Dictionary results reflect the stores, not any context's unsaved changes.
        try parentStore.dictionaries(for: request, in: self)
    }

    func row(for id: ManagedObjectID, in child: ManagedObjectContext) throws -> StoreRow? {
        try rows(for: [id], in: child)[id]
    }

    func rows(for ids: [ManagedObjectID], in child: ManagedObjectContext) throws -> [ManagedObjectID: StoreRow] {
        try performAndWait {
            var result: [ManagedObjectID: StoreRow] = [:]
            let objects = ids.compactMap { id in knownObject(for: id).map { (id: id, object: $0) } }.filter {
                !isDeleted($0.object)
            }
            try fireFaults(objects.map(\.object))
            for (id, object) in objects {
                // One the store no longer has (another context deleted it) is left out.
                guard !object.isFault || (try? fireFault(object)) != nil else { continue }
                result[id] = try snapshot(of: object).row
            }
            return result
        }
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, in child: ManagedObjectContext)
        throws -> Set<ManagedObjectID>
    {
        try relatedIDs(of: [id], relationship: relationship, in: child)[id] ?? []
    }

    func orderedRelatedIDs(
        of id: ManagedObjectID, relationship: RelationshipDescription, in child: ManagedObjectContext
    ) throws -> [ManagedObjectID] {
        try performAndWait {
            guard let object = knownObject(for: id), !isDeleted(object),
                let i = object.entity.propertyIndex[relationship.name]
            else { return [] }
            // In this context's order, unsaved changes included; objects deleted here are gone.
            return try orderedIDs(of: object, at: i).filter { !isDeleted(registeredObject(for: $0)) }
        }
    }

    func relatedIDs(of ids: [ManagedObjectID], relationship: RelationshipDescription, in child: ManagedObjectContext)
        throws -> [ManagedObjectID: Set<ManagedObjectID>]
    {
        try performAndWait {
            var result: [ManagedObjectID: Set<ManagedObjectID>] = [:]
            for id in ids {
                guard let object = knownObject(for: id), !isDeleted(object),
                    let i = object.entity.propertyIndex[relationship.name]
                else { continue }
                // Objects deleted here are gone from the child's view as well.
                result[id] = try relatedIDs(of: object, at: i).filter { !isDeleted(registeredObject(for: $0)) }
            }
            return result
        }
    }

    /// The object for an ID a child asks about: registered, or a fault for a permanent ID; nil
    /// for a temporary ID this context never saw (an object only the child holds).
    private func knownObject(for id: ManagedObjectID) -> ManagedObject? {
        let id = temporaryIDs[id] ?? id
        if let object = registered[id] { return object }
        return id.isTemporaryID ? nil : registeredObject(for: id)
    }

    func save(changesOf child: ManagedObjectContext) throws -> [String: Set<ManagedObjectID>] {
        let changes = try child.changesForParent()
        try performAndWait { try absorb(changes) }
        return child.didPushChangesToParent(changes)
    }

    func obtainPermanentIDs(for temporaryIDs: [ManagedObjectID], in child: ManagedObjectContext) throws
        -> [ManagedObjectID]
    {
        try performAndWait {
            // Objects the child saved here already are this context's to re-key too; the others
            // exist only in the child, and get IDs from further up.
            let mine = temporaryIDs.map { registered[$0] }
            let held = mine.compactMap { $0 }
            let heldIDs = try obtainPermanentIDs(forObjects: held)
            let others = temporaryIDs.indices.filter { mine[$0] == nil }
            let otherIDs = try parentStore.obtainPermanentIDs(for: others.map { temporaryIDs[$0] }, in: self)
            var result = [ManagedObjectID?](repeating: nil, count: temporaryIDs.count)
            var next = heldIDs.makeIterator()
            for k in temporaryIDs.indices where mine[k] != nil { result[k] = next.next() }
            for (k, id) in zip(others, otherIDs) { result[k] = id }
            return result.compactMap { $0 }
        }
    }
}
