import Foundation

/// The notifications a context posts as its objects change, and the keys of their user info
/// (Apple's NSManagedObjectContext notifications and their NS…ObjectsKey constants).
extension ManagedObjectContext {
    /// Posted at the end of each event that changed objects (NSManagedObjectContextObjectsDidChange):
    /// its user info holds `Set<ManagedObject>` under ``insertedObjectsKey``,
    /// ``updatedObjectsKey``, ``deletedObjectsKey``, ``refreshedObjectsKey`` and
    /// ``invalidatedObjectsKey``, each present only when not empty.
    public static let objectsDidChangeNotification = Notification.Name(
        "NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted when a save begins, before any object is validated or written
    /// (NSManagedObjectContextWillSave); it has no user info.
    public static let willSaveNotification = Notification.Name("NSManagedObjectContextWillSaveNotification")

    /// User-info key: `Set<ManagedObject>` inserted (NSInsertedObjectsKey).
    public static let insertedObjectsKey = "inserted"
    /// User-info key: `Set<ManagedObject>` updated (NSUpdatedObjectsKey).
    public static let updatedObjectsKey = "updated"
    /// User-info key: `Set<ManagedObject>` deleted (NSDeletedObjectsKey).
    public static let deletedObjectsKey = "deleted"
    /// User-info key: `Set<ManagedObject>` refreshed from the store (NSRefreshedObjectsKey).
    public static let refreshedObjectsKey = "refreshed"
    /// User-info key: `Set<ManagedObject>` invalidated: gone from the store (NSInvalidatedObjectsKey).
    public static let invalidatedObjectsKey = "invalidated"
    /// User-info key: present when every object was invalidated by a reset (NSInvalidatedAllObjectsKey).
    public static let invalidatedAllObjectsKey = "invalidatedAll"
}
