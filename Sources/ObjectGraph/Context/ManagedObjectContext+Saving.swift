import Foundation

/// Saving: committing the context's changes to its parent store, and the did-save
/// notification.
extension ManagedObjectContext {
    /// Name of the notification posted after a save; its user info holds the saved object IDs
    /// under ``insertedObjectIDsKey``, ``updatedObjectIDsKey`` and ``deletedObjectIDsKey``.
    public static let didSaveNotification = Notification.Name("ObjectGraphManagedObjectContextDidSave")
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
    /// With no changes it does nothing. After a successful save, new objects have permanent
    /// object IDs, and ``didSaveNotification`` is posted.
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
        guard hasChanges else { return }
        let userInfo = try parentStore.save(changesOf: self)
        if isResetAfterEachSave { return }
        NotificationCenter.default.post(name: Self.didSaveNotification, object: self, userInfo: userInfo)
    }
}
