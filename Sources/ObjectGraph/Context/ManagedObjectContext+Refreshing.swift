import Foundation

/// Bringing objects up to date with the store: refresh(_:mergeChanges:) and a fetch's
/// shouldRefreshRefetchedObjects.
extension ManagedObjectContext {
    /// refreshObject:mergeChanges:. Without merging, unsaved changes are discarded and the
    /// object becomes a fault, loaded again on next use. With merging, the parent store's current
    /// values are read and the object's own changes applied on top; the object then counts as
    /// read at the store's current version, so saving it is no conflict. As Apple says, merging
    /// always succeeds: for an object another context deleted, the local changes stay and the
    /// next save reports the conflict.
    func refreshObject(_ object: ManagedObject, mergeChanges: Bool) throws {
        guard object.managedObjectContext === self, !object.objectID.isTemporaryID else { return }
        if mergeChanges, object.committedStorage != nil, !object.isFault {
            if let row = try parentStore.row(for: object.objectID, in: self) {
                try merge(row, into: object)
            }
            return
        }
        turnIntoFault(object)
    }

    /// shouldRefreshRefetchedObjects: an object already registered takes the row the fetch
    /// read; its unsaved changes stay on top. Objects deleted in this context are left alone.
    func refreshRefetched(_ object: ManagedObject, from row: StoreRow) throws {
        guard !deletedList.contains(object) else { return }
        if object.committedStorage == nil {
            fill(object, from: row)
        } else {
            try merge(row, into: object)
        }
    }

    /// Store values with this context's changes on top. A to-many this context changed is the
    /// store's set with this context's additions and removals applied; the others reload on use.
    private func merge(_ row: StoreRow, into object: ManagedObject) throws {
        guard let committed = object.committedStorage else {
            fill(object, from: row)
            return
        }
        let entity = object.entity
        var storage = row.values
        var base = row.values
        var changedToMany: [Int] = []
        for i in object.storage.indices where i < committed.count && i < storage.count {
            let isToMany = i >= entity.attributes.count && entity.relationships[i - entity.attributes.count].isToMany
            if isToMany && (committed[i].isNull || object.storage[i].isNull) { continue }
            guard !AttributeValue.same(object.storage[i], committed[i]) else { continue }
            storage[i] = object.storage[i]
            if isToMany {
                base[i] = committed[i]
                changedToMany.append(i)
            }
        }
        object.storage = storage
        object.loadedToMany = []
        for i in changedToMany { try rebaseToMany(object, at: i, committed: &base) }
        object.committedStorage = base
        object.version = row.version
        object.isFault = false
    }
}
