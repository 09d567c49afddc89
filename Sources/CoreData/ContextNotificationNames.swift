import ObjectGraph

// The Swift names Apple's SDK gives a context's notifications and their user-info keys
// (NSManagedObjectContext.didChangeObjectsNotification, NotificationKey.insertedObjects, ...):
// the same notifications as the NSManagedObjectContext... names in Constants.swift, under the
// spellings Apple's current documentation and samples use.

extension ManagedObjectContext {
    /// Posted at the end of each event that changed the context's registered objects
    /// (didChangeObjectsNotification); the same notification as
    /// `.NSManagedObjectContextObjectsDidChange`.
    public static let didChangeObjectsNotification = objectsDidChangeNotification
    /// Posted when a save begins (willSaveObjectsNotification), before any object is validated.
    public static let willSaveObjectsNotification = willSaveNotification
    /// Posted after a save, with the saved objects (didSaveObjectsNotification); the same
    /// notification as `.NSManagedObjectContextDidSave`.
    public static let didSaveObjectsNotification = didSaveNotification

    /// The keys of a context notification's user info (NSManagedObjectContext.NotificationKey),
    /// with Apple's raw values: look a set up with `userInfo[key.rawValue]`.
    public enum NotificationKey: String, Sendable, CaseIterable {
        /// `Set<NSManagedObject>` inserted ("inserted", NSInsertedObjectsKey).
        case insertedObjects = "inserted"
        /// `Set<NSManagedObject>` updated ("updated", NSUpdatedObjectsKey).
        case updatedObjects = "updated"
        /// `Set<NSManagedObject>` deleted ("deleted", NSDeletedObjectsKey).
        case deletedObjects = "deleted"
        /// `Set<NSManagedObject>` refreshed ("refreshed", NSRefreshedObjectsKey).
        case refreshedObjects = "refreshed"
        /// `Set<NSManagedObject>` invalidated ("invalidated", NSInvalidatedObjectsKey).
        case invalidatedObjects = "invalidated"
        /// Present when a reset invalidated every object ("invalidatedAll", NSInvalidatedAllObjectsKey).
        case invalidatedAllObjects = "invalidatedAll"
        /// `Set<NSManagedObjectID>` a save inserted ("inserted_objectIDs", NSInsertedObjectIDsKey).
        case insertedObjectIDs = "inserted_objectIDs"
        /// `Set<NSManagedObjectID>` a save updated ("updated_objectIDs", NSUpdatedObjectIDsKey).
        case updatedObjectIDs = "updated_objectIDs"
        /// `Set<NSManagedObjectID>` a save deleted ("deleted_objectIDs", NSDeletedObjectIDsKey).
        case deletedObjectIDs = "deleted_objectIDs"
    }
}
