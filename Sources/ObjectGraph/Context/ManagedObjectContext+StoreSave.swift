import Foundation

/// Saving to the coordinator's stores: permanent IDs, the rows of one save, optimistic locking
/// with the merge policy, and what the context keeps afterwards.
extension ManagedObjectContext {
    /// Validates and writes the changes to the stores; returns the did-save notification's
    /// user info. The coordinator runs it while no other save of the coordinator runs.
    func writeChangesToStores() throws -> [String: Set<ManagedObjectID>] {
        // willSave first: what it changes, inserts or deletes is part of this save. A
        // migration's destination (reset after each save) has no application objects to tell.
        if !isResetAfterEachSave { try runWillSave() }
        // Uniqueness constraints first: resolving them changes which objects are inserted,
        // updated and deleted.
        try enforceUniquenessConstraints(in: try coordinator.defaultStore())
        // Objects removed before ever being saved need no store work.
        let toInsert = insertedList.filter { !deletedList.contains($0) }
        var toUpdate = updatedList.filter { !deletedList.contains($0) }
        var toDelete = deletedList.filter { !$0.objectID.isTemporaryID }
        if validatesOnSave {
            try Validation.validate(inserted: toInsert, updated: toUpdate, deleted: deletedList.elements, context: self)
        }

        let store = try coordinator.defaultStore()
        // Permanent IDs for the new objects, by position in toInsert. Keys come in one call per
        // entity, entities in name order, objects in insertion order. Objects that obtained
        // theirs already (obtainPermanentIDs(for:)) keep them.
        var permanentIDs = [ManagedObjectID?](repeating: nil, count: toInsert.count)
        let allTemporary = toInsert.allSatisfy { $0.objectID.isTemporaryID }
        if allTemporary, let first = toInsert.first?.entity.shared, toInsert.allSatisfy({ $0.entity.shared === first })
        {
            // One entity, the common case: no grouping.
            let keys = try store.backend.allocatePrimaryKeys(
                for: toInsert[0].entity, count: toInsert.count, model: model)
            for k in toInsert.indices {
                permanentIDs[k] = ManagedObjectID(
                    entityName: first.name, storeIdentifier: store.identifier, primaryKey: keys[k])
            }
        } else {
            for k in toInsert.indices where !toInsert[k].objectID.isTemporaryID {
                permanentIDs[k] = toInsert[k].objectID
            }
            let needingKeys = toInsert.indices.filter { permanentIDs[$0] == nil }
            for (entityName, positions) in Dictionary(grouping: needingKeys, by: { toInsert[$0].entity.name }).sorted(
                by: { $0.key < $1.key })
            {
                let keys = try store.backend.allocatePrimaryKeys(
                    for: toInsert[positions[0]].entity, count: positions.count, model: model)
                for (k, key) in zip(positions, keys) {
                    permanentIDs[k] = ManagedObjectID(
                        entityName: entityName, storeIdentifier: store.identifier, primaryKey: key)
                }
            }
        }
        let newIDs = permanentIDs.map { $0! }
        // Temporary IDs other objects still refer to (to-one values, to-many sets) map through
        // this; it is built only when a saved entity has relationships to refer with.
        var idMap: [ManagedObjectID: ManagedObjectID] = [:]
        if toInsert.contains(where: { !$0.entity.shared.relationships.isEmpty })
            || toUpdate.contains(where: { !$0.entity.shared.relationships.isEmpty })
        {
            idMap.reserveCapacity(toInsert.count)
            for (k, object) in toInsert.enumerated() { idMap[object.objectID] = newIDs[k] }
        }
        func permanent(_ id: ManagedObjectID) -> ManagedObjectID { id.isTemporaryID ? (idMap[id] ?? id) : id }
        func row(_ object: ManagedObject, id: ManagedObjectID, version: Int64) -> StoreRow {
            // The object's values as they are, shared, not copied; only relationship slots
            // change: to-many ones are nil in a row, to-one IDs become permanent.
            let shared = object.entity.shared
            var values = object.storage
            for n in shared.relationships.indices {
                let i = shared.attributeCount + n
                if shared.relationships[n].isToMany {
                    if !values[i].isNull { values[i] = .null }
                } else if let target = values[i].objectID, target.isTemporaryID {
                    values[i] = .objectID(permanent(target))
                }
            }
            return StoreRow(entityName: shared.name, primaryKey: id.primaryKey, version: version, values: values)
        }
        // Objects a merge policy saves again after another context deleted them.
        var reinserted: Set<ObjectIdentifier> = []
        func buildChanges() -> StoreChanges {
            var changes = StoreChanges()
            changes.inserted.reserveCapacity(toInsert.count)
            for (k, object) in toInsert.enumerated() { changes.inserted.append(row(object, id: newIDs[k], version: 1)) }
            for object in toUpdate {
                let updated = row(object, id: permanent(object.objectID), version: object.version + 1)
                if reinserted.contains(ObjectIdentifier(object)) {
                    changes.inserted.append(updated)
                } else {
                    changes.updated.append((updated, object.version))
                    changes.updatedProperties.append(Self.updatedProperties(of: object))
                }
            }
            changes.deleted = toDelete.map { ($0.objectID, $0.version) }
            // Many-to-many links, recorded from the side that names the pair.
            for objects in [toInsert, toUpdate] {
                for object in objects where !object.entity.shared.relationships.isEmpty {
                    for (n, r) in object.entity.relationships.enumerated() where r.isToMany {
                        guard let inverse = model.inverseRelationship(of: r), inverse.isToMany else { continue }
                        let (key, isOwner) = model.manyToManyKey(entity: object.entity.name, relationship: r)
                        guard isOwner else { continue }
                        let i = object.entity.attributes.count + n
                        guard object.loadedToMany.contains(i) else { continue }
                        let now = object.storage[i].objectIDs ?? []
                        let before = (object.committedStorage?[i].objectIDs) ?? (isInserted(object) ? [] : now)
                        for added in now.subtracting(before).sorted(by: { $0.primaryKey < $1.primaryKey }) {
                            changes.linksAdded.append((key, permanent(object.objectID), permanent(added)))
                        }
                        for removed in before.subtracting(now).sorted(by: { $0.primaryKey < $1.primaryKey }) {
                            changes.linksRemoved.append((key, permanent(object.objectID), permanent(removed)))
                        }
                    }
                }
            }
            // The order of each ordered to-many that changed (ToManyOrder.swift).
            for objects in [toInsert, toUpdate] {
                for object in objects where !object.toManyOrders.isEmpty {
                    for (i, order) in object.toManyOrders.sorted(by: { $0.key < $1.key }) where order.changed {
                        let r = object.entity.relationships[i - object.entity.attributes.count]
                        let ids = object.orderedIDs(at: i) { self.temporaryIDs[$0] ?? $0 }.map(permanent)
                        changes.orderings.append(
                            (
                                "\(model.declaringEntity(of: r.name, in: object.entity.name)).\(r.name)",
                                permanent(object.objectID), ids
                            ))
                    }
                }
            }
            return changes
        }
        // Optimistic locking: the store refuses rows another context saved since they were
        // read; the merge policy resolves those conflicts and the save is tried again.
        for round in 1... {
            do {
                try store.backend.save(buildChanges(), model: model, by: self)
                break
            } catch let error as CoreDataError where error.code == .merge && round <= Self.conflictRounds {
                let conflicts = try detectConflicts(updated: toUpdate, deleted: toDelete, in: store)
                guard !conflicts.isEmpty else { throw error }
                try mergePolicy.resolve(optimisticLockingConflicts: conflicts)
                for conflict in conflicts where conflict.reinserts {
                    reinserted.insert(ObjectIdentifier(conflict.sourceObject))
                }
                toUpdate = updatedList.filter { !deletedList.contains($0) }
                toDelete = deletedList.filter { !$0.objectID.isTemporaryID }
            }
        }

        if isResetAfterEachSave {
            // newIDs, not permanent(_:): the temporary-to-permanent map is only built when an
            // entity has relationships.
            for (k, object) in toInsert.enumerated() { object.objectID = newIDs[k] }
            clearChangeLists()
            return [:]
        }
        // The store has it all: make IDs permanent and forget the change lists.
        let inserted = Set(newIDs)
        let updated = Set(toUpdate.map(\.objectID))
        let deleted = Set(toDelete.map(\.objectID))
        if toInsert.count >= registered.count / 2 {
            // Mostly new objects: building the identity map again costs less than moving each
            // entry. After the save no entry keeps a temporary ID (inserted objects move to
            // their permanent one; inserted and deleted ones are forgotten below).
            var map = [ManagedObjectID: ManagedObject](minimumCapacity: registered.count)
            for (id, object) in registered where !id.isTemporaryID { map[id] = object }
            for (k, object) in toInsert.enumerated() { map[newIDs[k]] = object }
            registered = map
        } else {
            for (k, object) in toInsert.enumerated() {
                registered[object.objectID] = nil
                registered[newIDs[k]] = object
            }
        }
        temporaryIDs.reserveCapacity(temporaryIDs.count + toInsert.count)
        for (k, object) in toInsert.enumerated() {
            if object.objectID.isTemporaryID { temporaryIDs[object.objectID] = newIDs[k] }
            object.objectID = newIDs[k]
            object.version = 1
        }
        for object in toUpdate { object.version += 1 }
        for objects in [toInsert, toUpdate] {
            for object in objects {
                object.committedStorage = nil
                object.orderSaved()
                let attributeCount = object.entity.shared.attributeCount
                for i in attributeCount..<object.storage.count {
                    if let id = object.storage[i].objectID, id.isTemporaryID {
                        object.storage[i] = .objectID(permanent(id))
                    }
                    if let ids = object.storage[i].objectIDs, ids.contains(where: \.isTemporaryID) {
                        object.storage[i] = .objectIDs(Set(ids.map(permanent)))
                    }
                }
            }
        }
        for object in deletedList {
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        }
        clearChangeLists()
        runDidSave(toInsert, toUpdate, toDelete)
        return [
            Self.insertedObjectIDsKey: inserted, Self.updatedObjectIDsKey: updated, Self.deletedObjectIDsKey: deleted,
        ]
    }

    /// The stored properties of an updated object whose values differ from its committed ones
    /// (what it was read or last saved with), so the store writes only those, as Core Data's
    /// UPDATE sets only the changed columns. After a merge policy resolved a conflict the
    /// committed values are the store's current row (`rebase(_:on:takesStoreValue:)`), so the difference is again
    /// exactly what the row needs. Nil when the object has no committed values: it is written
    /// whole. To-many relationships have no column and are left out.
    static func updatedProperties(of object: ManagedObject) -> UpdatedProperties? {
        guard let committed = object.committedStorage, committed.count == object.storage.count else { return nil }
        let shared = object.entity.shared
        var changed = PropertyIndexSet()
        object.storage.withUnsafeBufferPointer { values in
            committed.withUnsafeBufferPointer { before in
                for i in 0..<min(shared.attributeCount, values.count) where !Self.unchanged(values, before, at: i) {
                    changed.insert(i)
                }
                for n in shared.relationships.indices where !shared.relationships[n].isToMany {
                    let i = shared.attributeCount + n
                    if i < values.count, !Self.unchanged(values, before, at: i) { changed.insert(i) }
                }
            }
        }
        return UpdatedProperties(changed: changed, committed: committed)
    }

    /// Whether a value is the committed one, as `changedValues()` compares them
    /// (`AttributeValue.same`), with the common cases first: most values are the very value
    /// the object was read with, and the cases compare their payloads directly (a string byte
    /// for byte, as `same` does, so a change of Unicode normalization is a change).
    @inline(__always)
    private static func unchanged(
        _ values: UnsafeBufferPointer<AttributeValue>, _ before: UnsafeBufferPointer<AttributeValue>, at i: Int
    ) -> Bool {
        switch (values[i], before[i]) {
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.objectID(let x), .objectID(let y)): return x == y
        case (.null, .null): return true
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        default: return AttributeValue.same(values[i], before[i])
        }
    }
}
