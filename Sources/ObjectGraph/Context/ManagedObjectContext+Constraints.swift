import Foundation

/// Uniqueness constraints at save: finding the objects that share constrained values, with
/// each other or with stored rows, on every store type, and applying a merge policy to them
/// (NSConstraintConflict; NSMergePolicy's resolve(constraintConflicts:)).
extension ManagedObjectContext {
    /// Finds the constraint conflicts of the pending changes and lets the merge policy resolve
    /// them; the `.error` policy throws 133021. Runs before the store is written, so a store
    /// without UNIQUE indexes (XML, binary, in-memory) enforces constraints too.
    func enforceUniquenessConstraints(in store: PersistentStore) throws {
        let conflicts = try detectConstraintConflicts(in: store)
        guard !conflicts.isEmpty else { return }
        try mergePolicy.resolve(constraintConflicts: conflicts)
    }

    /// The conflicts: per constraint and shared values, the objects of the save holding them
    /// and the stored row holding them, if any. Objects with a nil constrained value never
    /// conflict, as NULLs never collide in a UNIQUE index.
    func detectConstraintConflicts(in store: PersistentStore) throws -> [ConstraintConflict] {
        // Most models declare no constraint: then a save pays nothing here, not even a pass
        // over its objects.
        guard model.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) else { return [] }
        let candidates = (insertedList.elements + updatedList.elements).filter { !deletedList.contains($0) }
        guard candidates.contains(where: { !constraints(of: $0.entity).isEmpty }) else { return [] }
        struct Group {
            var owner: String
            var constraint: [String]
            var values: [Any]
            var objects: [ManagedObject]
        }
        var groups: [Group] = []
        var index: [[AnyHashable]: Int] = [:]
        for object in candidates {
            for (owner, constraint) in constraints(of: object.entity) {
                var values: [Any] = []
                for key in constraint {
                    guard let i = object.entity.propertyNames.firstIndex(of: key), i < object.storage.count,
                        let value = object.storage[i].any
                    else { break }
                    values.append(value)
                }
                guard values.count == constraint.count else { continue }
                let key: [AnyHashable] =
                    [owner, constraint] + values.map { ($0 as? AnyHashable) ?? AnyHashable("\($0)") }
                if let g = index[key] {
                    groups[g].objects.append(object)
                } else {
                    index[key] = groups.count
                    groups.append(Group(owner: owner, constraint: constraint, values: values, objects: [object]))
                }
            }
        }
        // The save's own objects speak for their rows: rows of objects it changes or deletes
        // are not compared with.
        let inSave = Set((candidates + deletedList.elements).map(\.objectID))
        var conflicts: [ConstraintConflict] = []
        for group in groups {
            let request = FetchRequest(entityName: group.owner)
            let format = group.constraint.map { _ in "%K == %@" }.joined(separator: " AND ")
            request.predicate = try Predicate(
                checkedFormat: format,
                argumentArray: zip(group.constraint, group.values).flatMap { [$0.0 as Any?, $0.1] })
            let rows = try store.backend.fetchRows(request, model: model).filter {
                !inSave.contains(
                    ManagedObjectID(
                        entityName: $0.entityName, storeIdentifier: store.identifier, primaryKey: $0.primaryKey))
            }
            guard group.objects.count > 1 || !rows.isEmpty else { continue }
            let row = rows.first
            let databaseObject = row.map {
                registeredObject(
                    for: ManagedObjectID(
                        entityName: $0.entityName, storeIdentifier: store.identifier, primaryKey: $0.primaryKey))
            }
            conflicts.append(
                ConstraintConflict(
                    constraint: group.constraint, entityName: group.owner,
                    constraintValues: Dictionary(zip(group.constraint, group.values), uniquingKeysWith: { a, _ in a }),
                    databaseObject: databaseObject, databaseRow: row, conflictingObjects: group.objects))
        }
        return conflicts
    }

    /// An entity's constraints with the entity declaring each: its own and its ancestors'.
    private func constraints(of entity: EntityDescription) -> [(String, [String])] {
        var result: [(String, [String])] = []
        var current: EntityDescription? = entity
        var seen: Set<String> = []
        while let e = current, seen.insert(e.name).inserted {
            for constraint in e.uniquenessConstraints where !constraint.isEmpty { result.append((e.name, constraint)) }
            current = e.parentEntityName.flatMap { model.entitiesByName[$0] }
        }
        return result
    }

    /// Applies one of Apple's policies to a constraint conflict; ``MergePolicy`` says what each
    /// does. The objects of the save collapse into one, the survivor; with a stored row, the
    /// survivor takes the row's identity, so the save updates the row instead of adding one.
    /// What pointed at a discarded duplicate points at the survivor afterwards
    /// (ManagedObjectContext+ConstraintCollapse.swift).
    func resolve(_ conflict: ConstraintConflict, type: MergePolicyType) throws {
        let objects = conflict.conflictingObjects.filter {
            $0.managedObjectContext === self && !deletedList.contains($0)
        }
        guard !objects.isEmpty else { return }
        if type == .error { throw ConstraintConflict.error(for: [conflict]) }
        let row = conflict.databaseRow
        // The constraint may be declared on a parent entity whose sub-entities share it: then
        // the objects and the row can be of different entities.
        let entityNames = Set(objects.map(\.entity.name) + (row.map { [$0.entityName] } ?? []))
        // Stored objects of the save keep their identity; new ones go.
        let stored = objects.filter { !$0.objectID.isTemporaryID }
        if type == .rollback {
            // The stored state wins: new objects are discarded, stored ones lose their changes.
            for object in stored { try refreshObject(object, mergeChanges: false) }
            let new = objects.filter(\.objectID.isTemporaryID)
            let keep = (row == nil && stored.isEmpty) ? new.first : nil
            // References to a discarded object move to the object that stays for the values:
            // the kept one, the stored row's, or a stored object of the save; across entities
            // there is no such object, and they are cleared as a deletion would.
            let stays = entityNames.count > 1 ? nil : (keep ?? stored.first ?? conflict.databaseObject)
            for object in new where object !== keep {
                try moveReferences(from: object, to: stays, takesItsToOne: false)
                discardInserted(object)
            }
            return
        }
        if entityNames.count > 1 {
            // An object cannot become another entity, and merging a Car into a Van would drop
            // the properties only a Car has: fail, naming both, rather than lose data.
            throw ConstraintConflict.error(acrossEntities: entityNames.sorted(), conflict: conflict)
        }
        // The survivor: the stored row's object when a stored object of the save took the
        // row's values (the row keeps them, and the changed object merges into it), else a
        // stored object of the save, else the first new one. Overwrite saves the last changed
        // object whole; the merge policies merge every object's attributes into the
        // survivor, by property.
        let survivor: ManagedObject
        if row != nil, !stored.isEmpty, let databaseObject = conflict.databaseObject,
            databaseObject.managedObjectContext === self
        {
            try fireFault(databaseObject)
            survivor = databaseObject
        } else {
            survivor = stored.first ?? objects[0]
        }
        let others = objects.filter { $0 !== survivor }
        let attributeCount = survivor.entity.attributes.count
        var values = Array(survivor.storage.prefix(attributeCount))
        if type == .overwrite, let last = others.last {
            values = Array(last.storage.prefix(attributeCount))
        } else {
            for other in others {
                for i in values.indices where i < other.storage.count {
                    let theirs = other.storage[i].any
                    // Object trump: the later object's value wins where it has one; store
                    // trump: the earlier object's value stays where it has one.
                    if theirs != nil && (type != .mergeByPropertyStoreTrump || values[i].isNull) {
                        values[i] = other.storage[i]
                    }
                }
            }
        }
        // Relationships move before a duplicate goes: its to-many members and its place in
        // other objects' relationships become the survivor's; a to-one follows the policy.
        for other in others {
            try moveReferences(from: other, to: survivor, takesItsToOne: type != .mergeByPropertyStoreTrump)
        }
        for other in others {
            if other.objectID.isTemporaryID { discardInserted(other) } else { try checkedDelete(other) }
        }
        if let row, survivor.objectID.isTemporaryID {
            guard let id = conflict.databaseObject?.objectID else { throw ConstraintConflict.error(for: [conflict]) }
            try adopt(row, id: id, into: survivor)
            for i in values.indices where i < row.values.count {
                let mine = values[i].any
                let stored = row.values[i].any
                switch type {
                case .overwrite: break
                case .mergeByPropertyObjectTrump: if mine == nil { values[i] = row.values[i] }
                default: if stored != nil { values[i] = row.values[i] }
                }
            }
            try mergeToOnes(of: survivor, with: row, type: type)
        }
        if !insertedList.contains(survivor) { willChange(survivor) }
        for i in values.indices { survivor.storage[i] = values[i] }
    }

    /// A new object takes over a stored row's identity: it is registered under the row's ID
    /// (references to its temporary ID follow), compares with the row when saved, and
    /// replaces any object registered for the row. Its to-many relationships hold the row's
    /// stored members and its own, the stored ones being the base the save compares with.
    private func adopt(_ row: StoreRow, id: ManagedObjectID, into object: ManagedObject) throws {
        if let previous = registered[id], previous !== object {
            updatedList.remove(previous)
            registered[id] = nil
            previous.managedObjectContext = nil
        }
        insertedList.remove(object)
        adoptPermanentIDs([object.objectID: id])
        var base = row.values
        for (n, r) in object.entity.relationships.enumerated() where r.isToMany {
            let i = object.entity.attributes.count + n
            guard i < base.count else { continue }
            if object.storage[i].isNull || r.isOrdered {
                // Not loaded: it loads from the row when used. Ordered: its links are saved as
                // added to the row's.
                base[i] = object.storage[i].isNull ? .null : .objectIDs([])
                continue
            }
            let mine = object.storage[i].objectIDs ?? []
            let storedMembers = try parentStore.relatedIDs(of: id, relationship: r, in: self)
            object.storage[i] = .objectIDs(storedMembers.union(mine))
            object.loadedToMany.insert(i)
            base[i] = .objectIDs(storedMembers)
        }
        object.committedStorage = base
        object.version = row.version
        updatedList.append(object)
    }

    /// The to-one relationships of a new object that took over a stored row: where the row
    /// and the object point at different objects the policy picks one (object trump: the
    /// object's, where it has one; store trump: the row's, where it has one; overwrite: the
    /// object's, nil included), and both targets' inverses agree with the pick.
    private func mergeToOnes(of object: ManagedObject, with row: StoreRow, type: MergePolicyType) throws {
        for (n, r) in object.entity.relationships.enumerated() where !r.isToMany {
            let i = object.entity.attributes.count + n
            guard i < row.values.count, i < object.storage.count else { continue }
            let mine = object.storage[i].objectID
            let theirs = row.values[i].objectID
            guard mine != theirs else { continue }
            let pick: ManagedObjectID?
            switch type {
            case .overwrite: pick = mine
            case .mergeByPropertyObjectTrump: pick = mine ?? theirs
            default: pick = theirs ?? mine
            }
            // Start from the side not picked, then set the pick through the inverse-keeping
            // path: the target not picked loses the object from its inverse.
            if pick != theirs { object.storage[i] = .toOne(theirs) }
            try setValue(pick.map { registeredObject(for: $0) }, of: object, at: i)
        }
    }

    /// Removes a new object from the context, as if it had never been inserted.
    private func discardInserted(_ object: ManagedObject) {
        insertedList.remove(object)
        updatedList.remove(object)
        registered[object.objectID] = nil
        object.managedObjectContext = nil
    }
}
