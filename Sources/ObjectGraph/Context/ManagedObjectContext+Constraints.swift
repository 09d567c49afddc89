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
        struct Group { var owner: String; var constraint: [String]; var values: [Any]; var objects: [ManagedObject] }
        var groups: [Group] = []
        var index: [[AnyHashable]: Int] = [:]
        for object in candidates {
            for (owner, constraint) in constraints(of: object.entity) {
                var values: [Any] = []
                for key in constraint {
                    guard let i = object.entity.propertyNames.firstIndex(of: key), i < object.storage.count,
                          let value = unwrapOptional(object.storage[i]) else { break }
                    values.append(value)
                }
                guard values.count == constraint.count else { continue }
                let key: [AnyHashable] = [owner, constraint] + values.map { ($0 as? AnyHashable) ?? AnyHashable("\($0)") }
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
            request.predicate = try Predicate(format: format, argumentArray: zip(group.constraint, group.values).flatMap { [$0.0 as Any?, $0.1] })
            let rows = try store.backend.fetchRows(request, model: model).filter {
                !inSave.contains(ManagedObjectID(entityName: $0.entityName, storeIdentifier: store.identifier, primaryKey: $0.primaryKey))
            }
            guard group.objects.count > 1 || !rows.isEmpty else { continue }
            let row = rows.first
            let databaseObject = row.map {
                registeredObject(for: ManagedObjectID(entityName: $0.entityName, storeIdentifier: store.identifier, primaryKey: $0.primaryKey))
            }
            conflicts.append(ConstraintConflict(
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
    func resolve(_ conflict: ConstraintConflict, type: MergePolicyType) throws {
        let objects = conflict.conflictingObjects.filter { $0.managedObjectContext === self && !deletedList.contains($0) }
        guard !objects.isEmpty else { return }
        let row = conflict.databaseRow
        if let row, let first = objects.first, row.entityName != first.entity.name || objects.contains(where: { $0.entity.name != row.entityName }) {
            // An object cannot take the identity of a row of another entity.
            throw ConstraintConflict.error(for: [conflict])
        }
        // Stored objects of the save keep their identity; new ones go.
        let stored = objects.filter { !$0.objectID.isTemporaryID }
        switch type {
        case .error:
            throw ConstraintConflict.error(for: [conflict])
        case .rollback:
            // The stored state wins: new objects are discarded, stored ones lose their changes.
            for object in stored { try refreshObject(object, mergeChanges: false) }
            let new = objects.filter(\.objectID.isTemporaryID)
            let keep = (row == nil && stored.isEmpty) ? new.first : nil
            for object in new where object !== keep { discardInserted(object) }
            return
        case .overwrite, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
            break
        }
        // The survivor: a stored object of the save if there is one, else the first new one.
        // Overwrite saves the last changed object whole; the merge policies merge every
        // object's values into the survivor, by property.
        let survivor = stored.first ?? objects[0]
        let others = objects.filter { $0 !== survivor }
        let toMany = Set(survivor.entity.relationships.enumerated().filter(\.element.isToMany).map { survivor.entity.attributes.count + $0.offset })
        var values = survivor.storage
        if type == .overwrite, let last = others.last {
            values = last.storage
        } else {
            for other in others {
                for i in values.indices where i < other.storage.count && !toMany.contains(i) {
                    let theirs = unwrapOptional(other.storage[i])
                    // Object trump: the later object's value wins where it has one; store
                    // trump: the earlier object's value stays where it has one.
                    if theirs != nil && (type != .mergeByPropertyStoreTrump || unwrapOptional(values[i]) == nil) { values[i] = other.storage[i] }
                }
            }
        }
        for other in others {
            if other.objectID.isTemporaryID { discardInserted(other) } else { try delete(other) }
        }
        if let row, survivor.objectID.isTemporaryID {
            guard let id = conflict.databaseObject?.objectID else { throw ConstraintConflict.error(for: [conflict]) }
            adopt(row, id: id, into: survivor)
            for i in values.indices where i < row.values.count && !toMany.contains(i) {
                let mine = unwrapOptional(values[i]), stored = unwrapOptional(row.values[i])
                switch type {
                case .overwrite: break
                case .mergeByPropertyObjectTrump: if mine == nil { values[i] = row.values[i] }
                default: if stored != nil { values[i] = row.values[i] }
                }
            }
        }
        for i in values.indices where !toMany.contains(i) { survivor.storage[i] = values[i] }
        if !insertedList.contains(survivor), survivor.committedStorage != nil { updatedList.append(survivor) }
    }

    /// A new object takes over a stored row's identity: it is registered under the row's ID,
    /// compares with the row when saved, and replaces any object registered for the row.
    private func adopt(_ row: StoreRow, id: ManagedObjectID, into object: ManagedObject) {
        if let previous = registered[id], previous !== object {
            updatedList.remove(previous)
            registered[id] = nil
            previous.managedObjectContext = nil
        }
        insertedList.remove(object)
        registered[object.objectID] = nil
        object.objectID = id
        registered[id] = object
        var base = row.values
        // To-many relationships: the object's links are saved as added to the row's.
        for (n, r) in object.entity.relationships.enumerated() where r.isToMany {
            let i = object.entity.attributes.count + n
            if i < base.count { base[i] = object.storage[i] == nil ? nil : Set<ManagedObjectID>() }
        }
        object.committedStorage = base
        object.version = row.version
        updatedList.append(object)
    }

    /// Removes a new object from the context, as if it had never been inserted.
    private func discardInserted(_ object: ManagedObject) {
        insertedList.remove(object)
        updatedList.remove(object)
        registered[object.objectID] = nil
        object.managedObjectContext = nil
    }
}
