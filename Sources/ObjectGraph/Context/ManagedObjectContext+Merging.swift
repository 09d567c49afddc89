import Foundation

/// Merging: bringing objects up to date with what other contexts saved.
extension ManagedObjectContext {
    /// Refreshes an object from the parent store (refreshObject:mergeChanges:).
    ///
    /// Without merging, unsaved changes are discarded and the object becomes a fault; with merging,
    /// the parent store's values are read and the object's own changes applied again on top.
    /// The object is listed under ``refreshedObjectsKey`` at the end of the event. A store that
    /// cannot be read stops the program, where Apple's raises; ``checkedRefresh(_:mergeChanges:)``
    /// throws instead.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        do { try checkedRefresh(object, mergeChanges: mergeChanges) } catch { ManagedObject.raise(error) }
    }

    /// Refreshes an object from the parent store, throwing ``CoreDataError`` when the store
    /// cannot be read.
    public func checkedRefresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        checkConfinement()
        try refreshObject(object, mergeChanges: mergeChanges)
        noteRefreshed(object, keptChanges: mergeChanges)
    }

    /// Turns every registered object into a fault, keeping unsaved changes
    /// (refreshAllObjects); a store that cannot be read stops the program, where Apple's raises.
    public func refreshAllObjects() {
        do { try checkedRefreshAllObjects() } catch { ManagedObject.raise(error) }
    }

    /// Turns every registered object into a fault, throwing ``CoreDataError`` when the store
    /// cannot be read.
    public func checkedRefreshAllObjects() throws {
        checkConfinement()
        for object in Array(registered.values) where !isInserted(object) {
            try refreshObject(object, mergeChanges: true)
            noteRefreshed(object, keptChanges: true)
        }
    }

    /// Records a refresh in the current event; discarded changes are no longer the event's.
    private func noteRefreshed(_ object: ManagedObject, keptChanges: Bool) {
        guard object.managedObjectContext === self, !object.objectID.isTemporaryID else { return }
        if !keptChanges && events.updated.contains(object) {
            events.updated.remove(object)
            events.snapshots[ObjectIdentifier(object)] = nil
        }
        events.refreshed.append(object)
    }

    /// Merges another context's did-save notification into this one
    /// (mergeChangesFromContextDidSaveNotification:), as ``checkedMergeChanges(fromContextDidSave:)``
    /// does; a store that cannot be read while updated objects are refreshed stops the program
    /// with the error, where Apple's raises.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        raisingAsApple("NSInternalInconsistencyException") { try checkedMergeChanges(fromContextDidSave: notification) }
    }

    /// Brings in the changes another context saved, from its did-save notification
    /// (mergeChangesFromContextDidSaveNotification:): deleted objects leave this context,
    /// updated ones that are not faults are refreshed keeping this context's own unsaved
    /// changes, and inserted ones are registered as faults ("refreshes any objects which have
    /// been updated in the other context, faults in any newly-inserted objects, and invokes
    /// delete(_:) on those which have been deleted", Apple).
    ///
    /// The notification may carry object IDs (``insertedObjectIDsKey`` and the others),
    /// objects (``insertedObjectsKey`` and the others; objects of another context are matched
    /// by ID), or both. The merge ends the current event first, then posts its own
    /// ``objectsDidChangeNotification``: the objects registered under ``insertedObjectsKey``,
    /// the refreshed ones under ``refreshedObjectsKey``, the deleted ones under
    /// ``deletedObjectsKey``. A merge is not an undoable change. A context pinned to a query
    /// generation moves to the current one first.
    public func checkedMergeChanges(fromContextDidSave notification: Notification) throws {
        checkConfinement()
        guard let info = notification.userInfo else { return }
        try mergeChanges(
            inserted: Self.objectIDs(in: info, ids: Self.insertedObjectIDsKey, objects: Self.insertedObjectsKey),
            updated: Self.objectIDs(in: info, ids: Self.updatedObjectIDsKey, objects: Self.updatedObjectsKey),
            deleted: Self.objectIDs(in: info, ids: Self.deletedObjectIDsKey, objects: Self.deletedObjectsKey))
    }

    /// The IDs a did-save user info names under a key: the IDs themselves, else its objects'.
    static func objectIDs(in info: [AnyHashable: Any], ids idsKey: String, objects objectsKey: String) -> Set<
        ManagedObjectID
    > {
        if let ids = info[idsKey] as? Set<ManagedObjectID> { return ids }
        if let objects = info[objectsKey] as? Set<ManagedObject> { return Set(objects.map(\.objectID)) }
        return []
    }

    /// Merges a save's object IDs: the work of ``checkedMergeChanges(fromContextDidSave:)``.
    func mergeChanges(inserted: Set<ManagedObjectID>, updated: Set<ManagedObjectID>, deleted: Set<ManagedObjectID>)
        throws
    {
        processPendingChanges()
        // A pinned context moves to the current generation first, so that what it refreshes
        // is what the save wrote.
        advanceQueryGeneration()
        var deletedObjects: [ManagedObject] = []
        var refreshedObjects: [ManagedObject] = []
        var insertedObjects: [ManagedObject] = []
        defer { postObjectsDidChange(inserted: insertedObjects, deleted: deletedObjects, refreshed: refreshedObjects) }
        for id in deleted {
            guard let object = registered[id] else { continue }
            registered[id] = nil
            insertedList.remove(object)
            updatedList.remove(object)
            deletedList.remove(object)
            object.managedObjectContext = nil
            deletedObjects.append(object)
        }
        for id in updated {
            guard let object = registered[id], !object.isFault else { continue }
            try refreshObject(object, mergeChanges: true)
            refreshedObjects.append(object)
        }
        // Loaded to-many sets may now miss inserted objects: reload them on next use.
        if !inserted.isEmpty {
            for object in registered.values where object.committedStorage == nil && !isInserted(object) {
                object.loadedToMany = []
            }
        }
        for id in inserted where model.entitiesByName[id.entityName] != nil {
            let id = temporaryIDs[id] ?? id
            guard registered[id] == nil else { continue }
            insertedObjects.append(registeredObject(for: id))
        }
    }

    /// Whether the context merges the changes its parent store saves
    /// (automaticallyMergesChangesFromParent): for a child context, each save of its parent
    /// context; for a context on a coordinator, each save of another context on that
    /// coordinator (not of a child context, which saves into its parent only).
    ///
    /// A `.privateQueue` or `.mainQueue` context merges on its own queue, after the save,
    /// as a `perform` block; a context made with ``init(coordinator:)`` merges at once, on
    /// the thread that saved, so it is for code that keeps both contexts on one thread.
    public var automaticallyMergesChangesFromParent: Bool {
        get { parentSaveObserver != nil }
        set {
            checkConfinement()
            if newValue == (parentSaveObserver != nil) { return }
            if let parentSaveObserver { NotificationCenter.default.removeObserver(parentSaveObserver) }
            parentSaveObserver = newValue ? observeParentSaves() : nil
        }
    }

    /// Observes the did-save notifications of this context's parent store.
    private func observeParentSaves() -> NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: Self.didSaveNotification, object: nil, queue: nil) {
            [weak self] notification in
            guard let self, let sender = notification.object as? ManagedObjectContext, self.isParentStore(of: sender)
            else { return }
            let info = notification.userInfo ?? [:]
            let inserted = Self.objectIDs(in: info, ids: Self.insertedObjectIDsKey, objects: Self.insertedObjectsKey)
            let updated = Self.objectIDs(in: info, ids: Self.updatedObjectIDsKey, objects: Self.updatedObjectsKey)
            let deleted = Self.objectIDs(in: info, ids: Self.deletedObjectIDsKey, objects: Self.deletedObjectsKey)
            guard self.concurrencyType != .confinement else {
                try? self.mergeChanges(inserted: inserted, updated: updated, deleted: deleted)
                return
            }
            self.perform { [weak self] in
                // A merge refreshes objects from the parent store; one that fails (the store
                // went away) leaves them as they were, as Core Data's merge does not fail.
                try? self?.mergeChanges(inserted: inserted, updated: updated, deleted: deleted)
            }
        }
    }

    /// Whether a save by `sender` reached this context's parent store: `sender` is the parent
    /// context, or, for a context on a coordinator, another context on that coordinator.
    private func isParentStore(of sender: ManagedObjectContext) -> Bool {
        guard sender !== self else { return false }
        if let parent { return sender === parent }
        return sender.parent == nil && sender.persistentStoreCoordinator === persistentStoreCoordinator
    }
}
