import Foundation

/// Events: a context groups its changes into events, and at the end of each one that changed
/// anything registers the changes with its undo manager and posts
/// ``objectsDidChangeNotification``.
extension ManagedObjectContext {
    /// Ends the current event (processPendingChanges): registers its changes with the undo
    /// manager, as one undo group when the manager groups by event, and posts
    /// ``objectsDidChangeNotification`` with the objects inserted, updated, deleted and
    /// refreshed in it.
    ///
    /// A context ends an event at the end of each `perform` block (Apple: performBlock
    /// "encapsulates ... a call to processPendingChanges"), at the start of `save()`, `undo()`
    /// and `redo()`, and when you call this. `performAndWait` does not end one, as in Core
    /// Data. There is no run loop here to end events for a context used outside `perform`:
    /// call this where an AppKit application's event would end.
    public func processPendingChanges() {
        checkConfinement()
        endEvent()
    }

    /// Ends the current event; returns the set posted as inserted, which a save that follows
    /// reuses for its did-save notification instead of hashing every new object again.
    @discardableResult
    func endEvent() -> Set<ManagedObject>? {
        guard !events.isEmpty, !events.isProcessing else { return nil }
        events.isProcessing = true
        defer { events.isProcessing = false }
        // Objects inserted and deleted within the event never existed for an observer.
        // Most events only insert, or only change: no list then needs filtering by another.
        let inserted =
            events.deleted.isEmpty
            ? events.inserted.elements : events.inserted.elements.filter { !events.deleted.contains($0) }
        let deleted =
            events.inserted.isEmpty
            ? events.deleted.elements : events.deleted.elements.filter { !events.inserted.contains($0) }
        let updated =
            events.updated.isEmpty
            ? []
            : events.updated.elements.filter {
                !events.inserted.contains($0) && !events.deleted.contains($0) && $0.managedObjectContext === self
            }
        let refreshed = events.refreshed
        let record: EventRecord? = events.undoManager.map { manager in
            guard manager.isUndoRegistrationEnabled else { return EventRecord(inserted: [], deleted: [], updated: []) }
            return EventRecord(
                inserted: inserted, deleted: deleted,
                updated: events.updated.elements.filter { !events.inserted.contains($0) }.map {
                    ($0, valuesAtEventStart(of: $0))
                })
        }
        // Cleared before anyone is told: an observer that changes objects starts a new event.
        events.clear()
        if let manager = events.undoManager, let record,
            !(record.inserted.isEmpty && record.deleted.isEmpty && record.updated.isEmpty)
        {
            manager.registerUndo(withTarget: self) { context in context.revert(record) }
            manager.endEventGroup()
        }
        return postObjectsDidChange(inserted: inserted, updated: updated, deleted: deleted, refreshed: refreshed)
    }

    /// Posts ``objectsDidChangeNotification`` with each non-empty set; nothing when all are
    /// empty. Returns the inserted set.
    @discardableResult
    func postObjectsDidChange(
        inserted: [ManagedObject] = [], updated: [ManagedObject] = [], deleted: [ManagedObject] = [],
        refreshed: [ManagedObject] = [], invalidated: [ManagedObject] = [], invalidatedAll: Bool = false
    ) -> Set<ManagedObject>? {
        var info: [String: Any] = [:]
        let insertedSet = inserted.isEmpty ? nil : Set(inserted)
        if let insertedSet { info[Self.insertedObjectsKey] = insertedSet }
        if !updated.isEmpty { info[Self.updatedObjectsKey] = Set(updated) }
        if !deleted.isEmpty { info[Self.deletedObjectsKey] = Set(deleted) }
        if !refreshed.isEmpty { info[Self.refreshedObjectsKey] = Set(refreshed) }
        if !invalidated.isEmpty { info[Self.invalidatedObjectsKey] = Set(invalidated) }
        if invalidatedAll { info[Self.invalidatedAllObjectsKey] = true }
        guard !info.isEmpty else { return nil }
        NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self, userInfo: info)
        return insertedSet
    }

    /// Records an object's first change in the current event (called by `willChange` when the
    /// object's event bits are clear): it joins the event's updated objects, and its values
    /// now are kept unless its committed values, about to be taken, are the same.
    @inline(never)
    func recordEventChange(_ object: ManagedObject) {
        if object.committedStorage != nil || isInserted(object) || !object.toManyOrders.isEmpty {
            events.snapshots[ObjectIdentifier(object)] = ValueSnapshot(
                storage: object.storage, orders: object.toManyOrders)
        }
        events.updated.append(object)
    }

    /// The values an object updated in this event had when the event began.
    func valuesAtEventStart(of object: ManagedObject) -> ValueSnapshot {
        if let snapshot = events.snapshots[ObjectIdentifier(object)] { return snapshot }
        return ValueSnapshot(storage: object.committedStorage ?? object.storage, orders: object.toManyOrders)
    }

    /// Records that a parent context took in a child's save: its new objects (appended to the
    /// inserted objects from `start` on, so that no ID is looked up) and deleted objects are
    /// this event's, as its changed objects already are (they were changed through willChange).
    func recordChildSave(insertedFrom start: Int, deleted: Set<ManagedObjectID>) {
        let elements = insertedList.elements
        if start < elements.count { for object in elements[start...] { events.inserted.append(object) } }
        for id in deleted { if let object = registered[id] { events.deleted.append(object) } }
    }

    // MARK: Undo

    /// Undoes one event: its deleted objects come back, its updated objects get their values
    /// from before it, and its inserted objects go. The changes are an event of their own,
    /// which the undo manager (undoing) registers as the redo.
    func revert(_ record: EventRecord) {
        for (object, before) in record.updated where object.managedObjectContext === self {
            restore(object, to: before)
        }
        for object in record.deleted { bringBack(object) }
        for object in record.inserted { remove(object) }
        processPendingChanges()
    }

    /// Gives an object the values of a snapshot, as a change of this event.
    private func restore(_ object: ManagedObject, to snapshot: ValueSnapshot) {
        if object.isFault { guard (try? fireFault(object)) != nil else { return } }
        willChange(object)
        let shared = object.entity.shared
        for i in snapshot.storage.indices where i < object.storage.count {
            let value = snapshot.storage[i]
            if i < shared.attributeCount {
                object.storage[i] = value
                continue
            }
            // IDs that were temporary when the snapshot was taken may be permanent now.
            if let ids = value.objectIDs {
                object.storage[i] = .objectIDs(temporaryIDs.isEmpty ? ids : Set(ids.map { temporaryIDs[$0] ?? $0 }))
                object.loadedToMany.insert(i)
            } else if let id = value.objectID {
                object.storage[i] = .objectID(temporaryIDs[id] ?? id)
            } else if !object.entity.isToManyIndex(i) {
                object.storage[i] = nil
            }
        }
        var orders = snapshot.orders
        for i in orders.keys { orders[i]?.changed = true }
        object.toManyOrders = orders
    }

    /// Undoes an insert: a new object leaves the context; one saved since is deleted.
    private func remove(_ object: ManagedObject) {
        if object.managedObjectContext === self && isInserted(object) {
            insertedList.remove(object)
            deletedList.remove(object)
            updatedList.remove(object)
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        } else if object.managedObjectContext === self && !isDeleted(object) {
            deletedList.append(object)
        } else {
            return
        }
        events.deleted.append(object)
    }

    /// Undoes a delete: a deleted object is not deleted any more; one that left the context
    /// (an undone insert, or a delete saved since) is inserted again. Without awakeFromInsert:
    /// Apple's page for it says a redone insert does not invoke it a second time.
    private func bringBack(_ object: ManagedObject) {
        if object.managedObjectContext === self {
            guard isDeleted(object) else { return }
            deletedList.remove(object)
        } else if object.managedObjectContext == nil, registered[object.objectID] == nil {
            object.managedObjectContext = self
            registered[object.objectID] = object
            insertedList.append(object)
        } else {
            return
        }
        events.inserted.append(object)
    }
}

extension ManagedObjectContext {
    /// A to-many loaded after the event began: its loaded set is what it held then.
    func recordLoadedToMany(_ ids: Set<ManagedObjectID>, of object: ManagedObject, at i: Int) {
        let key = ObjectIdentifier(object)
        guard let snapshot = events.snapshots[key], i < snapshot.storage.count, snapshot.storage[i].isNull else {
            return
        }
        var storage = snapshot.storage
        storage[i] = .objectIDs(ids)
        events.snapshots[key] = ValueSnapshot(storage: storage, orders: snapshot.orders)
    }
}
