import Foundation

/// What a child context's save hands its parent: the new objects, the changed properties of
/// changed objects, and the deleted objects' IDs.
///
/// The parent reads the child's new objects while it takes them in; that is safe because it
/// happens inside the child's save, with the child's queue waiting for the parent's
/// (performAndWait), so nothing else touches the child meanwhile. Only values (attribute values
/// and object IDs, copy-on-write arrays shared, not copied) cross into the parent's objects.
struct ChildChanges {
    /// A changed object: each changed property's index and new value (a to-many as its whole
    /// new set of IDs).
    struct Updated {
        let id: ManagedObjectID
        let values: [(index: Int, value: AttributeValue)]
        /// The new order of each ordered to-many whose order changed (ToManyOrder.swift).
        var orders: [Int: ToManyOrder] = [:]
    }
    /// The child's new objects, in insertion order.
    var inserted: [ManagedObject] = []
    var updated: [Updated] = []
    var deleted: [ManagedObjectID] = []
    /// The child's changed objects, for what the child keeps afterwards.
    var updatedObjects: [ManagedObject] = []
}

/// Saving a child context into its parent: the child's side (its changes, validated, and
/// what it keeps afterwards) and the parent's (taking them in as its own unsaved changes).
extension ManagedObjectContext {
    /// This context's changes for its parent, validated as a save to a store would be (runs on
    /// this context's queue).
    func changesForParent() throws -> ChildChanges {
        try runWillSave()
        let toInsert = insertedList.filter { !deletedList.contains($0) }
        let toUpdate = updatedList.filter { !deletedList.contains($0) }
        if validatesOnSave {
            try Validation.validate(inserted: toInsert, updated: toUpdate, deleted: deletedList.elements, context: self)
        }
        var changes = ChildChanges()
        changes.inserted = toInsert
        changes.updatedObjects = toUpdate
        for object in toUpdate {
            let entity = object.entity.shared
            var values: [(index: Int, value: AttributeValue)] = []
            for i in object.storage.indices {
                let committed = object.committedStorage.map { i < $0.count ? $0[i] : nil } ?? nil
                if i >= entity.attributeCount && entity.relationships[i - entity.attributeCount].isToMany {
                    // A to-many counts when it was loaded before it changed (its committed set
                    // is known) and differs from it.
                    guard object.loadedToMany.contains(i), !committed.isNull,
                        !AttributeValue.same(object.storage[i], committed)
                    else { continue }
                } else if AttributeValue.same(object.storage[i], committed) {
                    continue
                }
                values.append((i, object.storage[i]))
            }
            changes.updated.append(
                .init(id: object.objectID, values: values, orders: object.toManyOrders.filter { $0.value.changed }))
        }
        // Objects inserted and deleted again here never reach the parent.
        changes.deleted = deletedList.filter { !insertedList.contains($0) }.map(\.objectID)
        return changes
    }

    /// Takes a child's changes in as this context's own unsaved changes (runs on this
    /// context's queue). Everything that can fail (loading the objects changed) happens before
    /// anything changes, so a failed child save leaves the parent as it was.
    func absorb(_ changes: ChildChanges) throws {
        // Objects changed: loaded, with the to-many sets the child changed, first.
        var changed: [(object: ManagedObject, values: [(index: Int, value: AttributeValue)])] = []
        for update in changes.updated {
            let object = registeredObject(for: update.id)
            // Deleted here since the child read it: the deletion stands.
            if isDeleted(object) { continue }
            changed.append((object, update.values))
        }
        try fireFaults(changed.map(\.object))
        for (object, values) in changed {
            try fireFault(object)
            for (i, _) in values where object.entity.isToManyIndex(i) { _ = try relatedIDs(of: object, at: i) }
        }
        var deleted: [ManagedObject] = []
        for id in changes.deleted {
            let object = registeredObject(for: id)
            if isDeleted(object) { continue }
            if !isInserted(object) { try fireFault(object) }
            deleted.append(object)
        }

        registered.reserveCapacity(registered.count + changes.inserted.count)
        // New objects come in runs of one entity: its description and class are read once a run.
        var entity: EntityDescription?
        var objectClass: ManagedObject.Type = ManagedObject.self
        for new in changes.inserted {
            if entity?.shared !== new.entity.shared {
                entity = new.entity
                objectClass = new.entity.managedObjectClass
            }
            let object = objectClass.init(entity: entity!, insertInto: nil)
            object.objectID = new.objectID
            object.managedObjectContext = self
            object.isFault = false
            object.storage = new.storage
            object.loadedToMany = new.loadedToMany
            object.toManyOrders = new.toManyOrders
            registered[new.objectID] = object
            insertedList.append(object)
        }
        let orders = Dictionary(changes.updated.map { ($0.id, $0.orders) }) { first, _ in first }
        for (object, values) in changed {
            willChange(object)
            for (i, value) in values {
                object.storage[i] = value
                if object.entity.isToManyIndex(i) { object.loadedToMany.insert(i) }
            }
            for (i, order) in orders[object.objectID] ?? [:] {
                object.setOrder(order.ids, at: i) { temporaryIDs[$0] ?? $0 }
            }
        }
        // The child ran the delete rules already; their effects came as changes above.
        for object in deleted { deletedList.append(object) }
    }

    /// After the parent took the changes in: this context holds them as saved (runs on this
    /// context's queue); returns the did-save notification's user info.
    func didPushChangesToParent(_ changes: ChildChanges) -> [String: Set<ManagedObjectID>] {
        for object in changes.updatedObjects {
            object.committedStorage = nil
            object.orderSaved()
        }
        for object in changes.inserted { object.orderSaved() }
        let deleted = Set(changes.deleted)
        let deletedObjects = deletedList.filter { !insertedList.contains($0) }
        for object in deletedList {
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        }
        clearChangeLists()
        runDidSave(changes.inserted, changes.updatedObjects, deletedObjects)
        var inserted = Set<ManagedObjectID>(minimumCapacity: changes.inserted.count)
        for object in changes.inserted { inserted.insert(object.objectID) }
        return [
            Self.insertedObjectIDsKey: inserted,
            Self.updatedObjectIDsKey: Set(changes.updated.map(\.id)),
            Self.deletedObjectIDsKey: deleted,
        ]
    }
}

extension EntityDescription {
    /// Whether a property index is a to-many relationship's.
    func isToManyIndex(_ i: Int) -> Bool {
        i >= attributes.count && i < attributes.count + relationships.count
            && relationships[i - attributes.count].isToMany
    }
}
