import Foundation

/// Saving: committing the context's changes to its parent store, and the did-save
/// notification.
extension ManagedObjectContext {
    /// Name of the notification posted after a save (NSManagedObjectContextDidSave); its user
    /// info holds the saved objects as `Set<ManagedObject>` under ``insertedObjectsKey``,
    /// ``updatedObjectsKey`` and ``deletedObjectsKey``, and their IDs as
    /// `Set<ManagedObjectID>` under ``insertedObjectIDsKey``, ``updatedObjectIDsKey`` and
    /// ``deletedObjectIDsKey``.
    public static let didSaveNotification = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// User-info key: `Set<ManagedObjectID>` inserted by a save.
    public static let insertedObjectIDsKey = "inserted_objectIDs"
    /// User-info key: `Set<ManagedObjectID>` updated by a save.
    public static let updatedObjectIDsKey = "updated_objectIDs"
    /// User-info key: `Set<ManagedObjectID>` deleted by a save.
    public static let deletedObjectIDsKey = "deleted_objectIDs"

    /// Validates the changes and commits them to the parent store: for a context on a
    /// coordinator, writes every change to the store in one transaction.
    ///
    /// ```swift
    /// do {
    ///     try context.save()
    /// } catch let error as CoreDataError where error.code == .missingMandatoryProperty {
    ///     print(error.key ?? "", error.message)   // title Book.title of x-coredata:///Book/t1: is a required value
    /// }
    /// ```
    ///
    /// It ends the current event first (``processPendingChanges()``). With no changes it does
    /// nothing more. Otherwise it posts ``willSaveNotification`` before anything is validated or
    /// written; after a successful save, new objects have permanent object IDs, and
    /// ``didSaveNotification`` is posted with the objects saved and their IDs.
    ///
    /// A failed save writes nothing and leaves the context's changes in place, as Core Data does:
    /// fix the objects, or call ``rollback()``, and save again. Saves of all contexts on a
    /// coordinator run one at a time; the did-save notification is posted after the store is
    /// written, outside that lock.
    ///
    /// - Throws: ``CoreDataError``:
    ///   - a validation error, when an object breaks its model: 1570 a mandatory value is
    ///     missing, 1580 and 1590 a to-many count is out of range, 1600 a Deny relationship still
    ///     holds objects, 1610 and 1620 a number, 1630 and 1640 a date, 1660 and 1670 a string
    ///     length out of bounds, 1680 a string does not match its pattern; 1560
    ///     (``CoreDataError/Code/multipleErrors``) when there are several, each in
    ///     ``CoreDataError/detailedErrors``;
    ///   - 133020 (``CoreDataError/Code/merge``) when another context saved a changed
    ///     or deleted object first and ``mergePolicy`` is `.error`: refresh the object and
    ///     apply the change again, or choose another ``MergePolicy``;
    ///   - the exception NSInternalInconsistencyException
    ///     (``CoreDataError/ExceptionName/internalInconsistency``) when the coordinator has no store.
    ///
    /// A child context's save commits its changes to its parent context only ("If a context's
    /// parent store is another managed object context, then save() only updates managed objects
    /// in that parent store", Apple's save()): the parent holds them as its own unsaved changes
    /// until it saves in turn. New objects keep their temporary IDs, in the child and in the
    /// parent, until the parent saves them to the store; call ``obtainPermanentIDs(for:)``
    /// first for IDs that stay valid everywhere.
    public func save() throws {
        checkConfinement()
        if isResetAfterEachSave {
            // A migration's destination: no one observes it, and its events would cost a set
            // of every object a batch inserts.
            events.clear()
            if hasChanges { _ = try parentStore.save(changesOf: self) }
            return
        }
        let announced = endEvent()
        guard hasChanges else { return }
        NotificationCenter.default.post(name: Self.willSaveNotification, object: self)
        // Changes a will-save observer made are an event of their own, saved with the rest.
        processPendingChanges()
        // The objects the save may name, taken before it: afterwards the deleted ones have
        // left the context and the inserted ones have other IDs.
        let candidates = SavedObjects(
            inserted: deletedList.isEmpty
                ? insertedList.elements : insertedList.elements.filter { !deletedList.contains($0) },
            updated: updatedList.elements, deleted: deletedList.elements,
            announced: announced.flatMap { set in set.allSatisfy { isInserted($0) && !isDeleted($0) } ? set : nil })
        // Where the parent's inserted objects end now: the child's new objects are appended
        // after them.
        let parentInsertedCount = parent.map { parent in parent.performAndWait { parent.insertedList.count } } ?? 0
        let ids = try parentStore.save(changesOf: self)
        // "If a pinned context saves, its query generation will be updated after the save."
        if parent == nil { advanceQueryGeneration() }
        var userInfo: [String: Any] = ids
        let objects = candidates.objects(savedAs: ids)
        userInfo[Self.insertedObjectsKey] = objects.inserted
        userInfo[Self.updatedObjectsKey] = objects.updated
        userInfo[Self.deletedObjectsKey] = objects.deleted
        if let parent {
            // The parent took the changes in as its own: they are its current event's.
            let deleted = ids[Self.deletedObjectIDsKey] ?? []
            parent.performAndWait { parent.recordChildSave(insertedFrom: parentInsertedCount, deleted: deleted) }
        }
        NotificationCenter.default.post(name: Self.didSaveNotification, object: self, userInfo: userInfo)
    }
}

/// The objects a save may name, taken before it, matched afterwards against the IDs it
/// reports: the did-save notification's objects (NSInsertedObjectsKey and the others).
struct SavedObjects {
    let inserted: [ManagedObject]
    let updated: [ManagedObject]
    let deleted: [ManagedObject]
    /// The objects the save's event announced as inserted, all still inserted, if any.
    let announced: Set<ManagedObject>?

    /// Each of the save's ID sets as the objects that carry those IDs now.
    func objects(savedAs ids: [String: Set<ManagedObjectID>]) -> (
        inserted: Set<ManagedObject>, updated: Set<ManagedObject>, deleted: Set<ManagedObject>
    ) {
        let insertedIDs = ids[ManagedObjectContext.insertedObjectIDsKey] ?? []
        let updatedIDs = ids[ManagedObjectContext.updatedObjectIDsKey] ?? []
        let deletedIDs = ids[ManagedObjectContext.deletedObjectIDsKey] ?? []
        var inserted: Set<ManagedObject> = []
        var updated = Set<ManagedObject>(minimumCapacity: updatedIDs.count)
        var deleted = Set<ManagedObject>(minimumCapacity: deletedIDs.count)
        // Every ID the save reports inserted is one of the objects inserted before it (not
        // deleted), which are distinct: when the counts agree, they are the same objects, and
        // no ID needs hashing (and when the event's inserted set, a subset of them, has as many,
        // it is the same set). Otherwise a constraint's resolution turned an insert into an
        // update or dropped it, and each object is looked up.
        if insertedIDs.count == self.inserted.count {
            // The event's set, when it holds them all, is already built.
            if let announced, announced.count == self.inserted.count {
                inserted = announced
            } else {
                inserted = Set(self.inserted)
            }
        } else {
            inserted.reserveCapacity(insertedIDs.count)
            for object in self.inserted {
                if insertedIDs.contains(object.objectID) {
                    inserted.insert(object)
                } else if updatedIDs.contains(object.objectID) {
                    updated.insert(object)
                }
            }
        }
        for object in self.updated where updatedIDs.contains(object.objectID) { updated.insert(object) }
        for object in self.deleted where deletedIDs.contains(object.objectID) { deleted.insert(object) }
        return (inserted, updated, deleted)
    }
}
