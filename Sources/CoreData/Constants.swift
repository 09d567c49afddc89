import ObjectGraph

// Core Data's global constants: store types, store options, metadata keys and the user-info
// keys of its notifications, with Apple's values.

/// The SQLite store (NSSQLiteStoreType). A ``NSPersistentStore/StoreType`` here, where Apple's is
/// a `String`: it goes where Apple's goes (`addPersistentStore(ofType:…)`, `store.type ==`).
public let NSSQLiteStoreType = StoreType.sqlite
/// The XML store (NSXMLStoreType), which Apple ships on macOS only.
public let NSXMLStoreType = StoreType.xml
/// The binary store (NSBinaryStoreType).
public let NSBinaryStoreType = StoreType.binary
/// The in-memory store (NSInMemoryStoreType).
public let NSInMemoryStoreType = StoreType.inMemory

extension PersistentStore {
    /// A kind of store (NSPersistentStore.StoreType): `.sqlite`, `.binary`, `.inMemory`, `.xml`.
    public typealias StoreType = ObjectGraph.StoreType
}

/// Migrate a store made with another model version when it is added
/// (NSMigratePersistentStoresAutomaticallyOption).
public let NSMigratePersistentStoresAutomaticallyOption = StoreOption.migratePersistentStoresAutomatically
/// Infer a mapping model when no mapping model matches (NSInferMappingModelAutomaticallyOption).
public let NSInferMappingModelAutomaticallyOption = StoreOption.inferMappingModelAutomatically
/// Open the store read-only (NSReadOnlyPersistentStoreOption).
public let NSReadOnlyPersistentStoreOption = StoreOption.readOnly
/// How long to wait for a locked store, in seconds (NSPersistentStoreTimeoutOption).
public let NSPersistentStoreTimeoutOption = StoreOption.timeout
/// Record persistent history (NSPersistentHistoryTrackingKey).
public let NSPersistentHistoryTrackingKey = StoreOption.persistentHistoryTracking
/// SQLite pragmas to set when the store opens (NSSQLitePragmasOption).
public let NSSQLitePragmasOption = StoreOption.sqlitePragmas
/// Post remote change notifications for the store (NSPersistentStoreRemoteChangeNotificationPostOptionKey).
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = StoreOption.remoteChangeNotificationPost

/// A store's type in its metadata (NSStoreTypeKey).
public let NSStoreTypeKey = "NSStoreType"
/// A store's UUID in its metadata (NSStoreUUIDKey).
public let NSStoreUUIDKey = "NSStoreUUID"
/// The entity version hashes of the model that made a store, in its metadata
/// (NSStoreModelVersionHashesKey).
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
/// The model's version identifiers in a store's metadata (NSStoreModelVersionIdentifiersKey).
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"

/// Objects inserted, in a context's notifications (NSInsertedObjectsKey).
public let NSInsertedObjectsKey = ManagedObjectContext.insertedObjectsKey
/// Objects updated, in a context's notifications (NSUpdatedObjectsKey).
public let NSUpdatedObjectsKey = ManagedObjectContext.updatedObjectsKey
/// Objects deleted, in a context's notifications (NSDeletedObjectsKey).
public let NSDeletedObjectsKey = ManagedObjectContext.deletedObjectsKey
/// Objects refreshed from the store, in a context's notifications (NSRefreshedObjectsKey).
public let NSRefreshedObjectsKey = ManagedObjectContext.refreshedObjectsKey
/// Objects gone from the store, in a context's notifications (NSInvalidatedObjectsKey).
public let NSInvalidatedObjectsKey = ManagedObjectContext.invalidatedObjectsKey
/// Present when a reset invalidated every object (NSInvalidatedAllObjectsKey).
public let NSInvalidatedAllObjectsKey = ManagedObjectContext.invalidatedAllObjectsKey
/// IDs of objects a save inserted (NSInsertedObjectIDsKey).
public let NSInsertedObjectIDsKey = ManagedObjectContext.insertedObjectIDsKey
/// IDs of objects a save updated (NSUpdatedObjectIDsKey).
public let NSUpdatedObjectIDsKey = ManagedObjectContext.updatedObjectIDsKey
/// IDs of objects a save deleted (NSDeletedObjectIDsKey).
public let NSDeletedObjectIDsKey = ManagedObjectContext.deletedObjectIDsKey
/// The changed store's URL in a remote change notification (NSPersistentStoreURLKey).
public let NSPersistentStoreURLKey = PersistentStoreCoordinator.remoteChangeStoreURLKey
/// The transaction's history token in a remote change notification (NSPersistentHistoryTokenKey).
public let NSPersistentHistoryTokenKey = PersistentStoreCoordinator.remoteChangeHistoryTokenKey

extension Notification.Name {
    /// Posted at the end of each event that changed a context's objects.
    public static let NSManagedObjectContextObjectsDidChange = ManagedObjectContext.objectsDidChangeNotification
    /// Posted when a context's save begins.
    public static let NSManagedObjectContextWillSave = ManagedObjectContext.willSaveNotification
    /// Posted after a context saved.
    public static let NSManagedObjectContextDidSave = ManagedObjectContext.didSaveNotification
    /// Posted when a store was written, by this process or another.
    public static let NSPersistentStoreRemoteChange = PersistentStoreCoordinator.storeRemoteChangeNotification
}

/// Posted at the end of each event that changed a context's objects
/// (NSManagedObjectContextObjectsDidChangeNotification).
public let NSManagedObjectContextObjectsDidChangeNotification = ManagedObjectContext.objectsDidChangeNotification
/// Posted when a context's save begins (NSManagedObjectContextWillSaveNotification).
public let NSManagedObjectContextWillSaveNotification = ManagedObjectContext.willSaveNotification
/// Posted after a context saved (NSManagedObjectContextDidSaveNotification).
public let NSManagedObjectContextDidSaveNotification = ManagedObjectContext.didSaveNotification
