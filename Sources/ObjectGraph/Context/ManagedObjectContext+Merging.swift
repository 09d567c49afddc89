import Foundation

/// Merging: bringing objects up to date with what other contexts saved.
extension ManagedObjectContext {
    /// Refreshes an object from the parent store (refreshObject:mergeChanges:).
    ///
    /// Without merging, unsaved changes are discarded and the object becomes a fault; with merging,
    /// the parent store's values are read and the object's own changes applied again on top.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        checkConfinement()
        try refreshObject(object, mergeChanges: mergeChanges)
    }

    /// Turns every registered object into a fault, keeping unsaved changes
    /// (refreshAllObjects).
    public func refreshAllObjects() throws {
        checkConfinement()
        for object in Array(registered.values) where !isInserted(object) {
            try refreshObject(object, mergeChanges: true)
        }
    }

    /// Brings in the changes another context saved, from its did-save notification
    /// (mergeChangesFromContextDidSaveNotification:): deleted objects leave this context,
    /// updated ones are refreshed keeping this context's own unsaved changes, inserted ones
    /// are seen by the next fetch.
    public func mergeChanges(fromContextDidSave notification: Notification) throws {
        checkConfinement()
        guard let info = notification.userInfo else { return }
        try mergeChanges(inserted: info[Self.insertedObjectIDsKey] as? Set<ManagedObjectID> ?? [],
                         updated: info[Self.updatedObjectIDsKey] as? Set<ManagedObjectID> ?? [],
                         deleted: info[Self.deletedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
    }

    /// Merges a save's object IDs: the work of ``mergeChanges(fromContextDidSave:)``.
    func mergeChanges(inserted: Set<ManagedObjectID>, updated: Set<ManagedObjectID>, deleted: Set<ManagedObjectID>) throws {
        for id in deleted {
            guard let object = registered[id] else { continue }
            registered[id] = nil
            insertedList.remove(object)
            updatedList.remove(object)
            deletedList.remove(object)
            object.managedObjectContext = nil
        }
        for id in updated {
            guard let object = registered[id], !object.isFault else { continue }
            try refreshObject(object, mergeChanges: true)
        }
        // Loaded to-many sets may now miss inserted objects: reload them on next use.
        if !inserted.isEmpty {
            for object in registered.values where object.committedStorage == nil && !isInserted(object) { object.loadedToMany = [] }
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
        NotificationCenter.default.addObserver(forName: Self.didSaveNotification, object: nil, queue: nil) { [weak self] notification in
            guard let self, let sender = notification.object as? ManagedObjectContext, self.isParentStore(of: sender) else { return }
            let info = notification.userInfo ?? [:]
            let inserted = info[Self.insertedObjectIDsKey] as? Set<ManagedObjectID> ?? []
            let updated = info[Self.updatedObjectIDsKey] as? Set<ManagedObjectID> ?? []
            let deleted = info[Self.deletedObjectIDsKey] as? Set<ManagedObjectID> ?? []
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
