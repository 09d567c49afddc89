import Foundation

/// Optimistic locking at save: finding the objects another context saved first, and applying
/// a merge policy to them (Core Data Programming Guide, "Change Management"; NSMergePolicy).
extension ManagedObjectContext {
    /// How many times a save resolves conflicts and tries again before it gives up: a second
    /// round is needed only when another coordinator writes the same store in between.
    static let conflictRounds = 3

    /// The changed and deleted objects whose row in the store is no longer at the version this
    /// context read: changed since, or deleted. An object deleted here and in the store is no
    /// conflict: both sides want it gone.
    func detectConflicts(updated: [ManagedObject], deleted: [ManagedObject], in store: PersistentStore) throws
        -> [MergeConflict]
    {
        let candidates = (updated + deleted).filter { !$0.objectID.isTemporaryID }
        guard !candidates.isEmpty else { return [] }
        var rows: [ManagedObjectID: StoreRow] = [:]
        for row in try store.backend.rows(for: candidates.map(\.objectID), model: model) {
            rows[
                ManagedObjectID(
                    entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey)] = row
        }
        var conflicts: [MergeConflict] = []
        for (object, isDeletion) in updated.map({ ($0, false) }) + deleted.map({ ($0, true) })
        where !object.objectID.isTemporaryID {
            let row = rows[object.objectID]
            if isDeletion && row == nil { continue }
            guard row?.version != object.version else { continue }
            conflicts.append(conflict(for: object, row: row, isDeletion: isDeletion))
        }
        return conflicts
    }

    private func conflict(for object: ManagedObject, row: StoreRow?, isDeletion: Bool) -> MergeConflict {
        let entity = object.entity
        let read = object.committedStorage ?? object.storage
        let names = entity.propertyNames
        let changed = object.storage.indices.filter { i in
            guard let committed = object.committedStorage, i < committed.count else { return false }
            if isToMany(entity, i) && (committed[i].isNull || object.storage[i].isNull) { return false }
            return !AttributeValue.same(object.storage[i], committed[i])
        }
        let storeChanged: [Int] =
            row.map { row in
                row.values.indices.filter { i in
                    !isToMany(entity, i) && i < read.count && !AttributeValue.same(row.values[i], read[i])
                }
            } ?? []
        return MergeConflict(
            sourceObject: object, read: read, storeRow: row, isDeletion: isDeletion,
            changedKeys: changed.map { names[$0] }, storeChangedKeys: storeChanged.map { names[$0] })
    }

    private func isToMany(_ entity: EntityDescription, _ i: Int) -> Bool {
        i >= entity.attributes.count && entity.relationships[i - entity.attributes.count].isToMany
    }

    /// Applies one of Apple's policies to a conflict; the table in ``MergePolicy`` says what
    /// each does.
    func resolve(_ conflict: MergeConflict, type: MergePolicyType) throws {
        let object = conflict.sourceObject
        guard object.managedObjectContext === self else { return }
        let storeWins = type == .mergeByPropertyStoreTrump || type == .rollback
        guard let row = conflict.storeRow else {
            // Deleted in the store.
            if storeWins {
                forget(object)
            } else {
                // Saved again, whole, with its key: as a new row, every link of a loaded
                // many-to-many re-added.
                conflict.reinserts = true
                object.version = 0
                var base = object.committedStorage ?? object.storage
                for i in base.indices where isToMany(object.entity, i) { base[i] = .objectIDs([]) }
                object.committedStorage = base
            }
            return
        }
        if conflict.isDeletion {
            if storeWins {
                // The deletion is dropped; the object comes back with the store's values.
                deletedList.remove(object)
                take(row, into: object)
            } else {
                object.version = row.version
            }
            return
        }
        switch type {
        case .rollback:
            take(row, into: object)
        case .overwrite:
            try rebase(object, on: row) { _ in false }
        case .mergeByPropertyObjectTrump:
            let changed = Set(conflict.changedKeys)
            try rebase(object, on: row) { !changed.contains($0) }
        case .mergeByPropertyStoreTrump:
            let changed = Set(conflict.changedKeys)
            let storeChanged = Set(conflict.storeChangedKeys)
            try rebase(object, on: row) { !changed.contains($0) || storeChanged.contains($0) }
        case .error:
            break
        }
    }

    /// Makes the store's row the object's base: the properties `takesStoreValue` picks get the
    /// store's values, the others keep this context's. To-many relationships keep their
    /// changes (saved as links added and removed) and, unchanged, reload on next use.
    private func rebase(_ object: ManagedObject, on row: StoreRow, takesStoreValue: (String) -> Bool) throws {
        let entity = object.entity
        let names = entity.propertyNames
        var committed = object.committedStorage ?? object.storage
        for i in object.storage.indices where i < row.values.count {
            if isToMany(entity, i) {
                let changed = !committed[i].isNull && !AttributeValue.same(object.storage[i], committed[i])
                if changed {
                    try rebaseToMany(object, at: i, committed: &committed)
                } else {
                    object.loadedToMany.remove(i)
                    object.storage[i] = nil
                    committed[i] = nil
                }
                continue
            }
            committed[i] = row.values[i]
            if takesStoreValue(names[i]) { object.storage[i] = row.values[i] }
        }
        object.committedStorage = committed
        object.version = row.version
    }

    /// A to-many this context changed, on top of the store's current set: the store's members
    /// with this context's additions and removals applied; the store's set becomes the base
    /// the save compares with, so each side's links survive.
    func rebaseToMany(_ object: ManagedObject, at i: Int, committed: inout [AttributeValue]) throws {
        let r = object.entity.relationships[i - object.entity.attributes.count]
        let stored = try parentStore.relatedIDs(of: object.objectID, relationship: r, in: self)
        let now = object.storage[i].objectIDs ?? []
        let before = committed[i].objectIDs ?? []
        object.storage[i] = .objectIDs(stored.union(now.subtracting(before)).subtracting(before.subtracting(now)))
        object.loadedToMany.insert(i)
        committed[i] = .objectIDs(stored)
    }

    /// Drops this context's changes to an object: it takes the store's row as its values.
    private func take(_ row: StoreRow, into object: ManagedObject) {
        updatedList.remove(object)
        object.committedStorage = nil
        object.storage = row.values
        object.loadedToMany = []
        object.version = row.version
        object.isFault = false
    }

    /// Removes an object another context deleted from this one.
    private func forget(_ object: ManagedObject) {
        updatedList.remove(object)
        deletedList.remove(object)
        registered[object.objectID] = nil
        object.managedObjectContext = nil
    }
}
