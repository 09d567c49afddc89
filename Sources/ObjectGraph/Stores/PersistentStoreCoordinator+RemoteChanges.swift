import Foundation

// The remote change notification and its keys, which the SQLite and PostgreSQL stores post.

extension PersistentStoreCoordinator {
    /// Posted after a store of the coordinator was written, by this process or another
    /// (NSPersistentStoreRemoteChangeNotification), when the store was added with
    /// ``StoreOption/remoteChangeNotificationPost``. Its object is the coordinator; its user
    /// info holds the store's URL (``remoteChangeStoreURLKey``), UUID
    /// (``remoteChangeStoreUUIDKey``) and the history token of the transaction
    /// (``remoteChangeHistoryTokenKey``). Posted on a private thread: move to your context's
    /// queue, then fetch history after your last token and merge it.
    ///
    /// The PostgreSQL store posts it, woken by PostgreSQL's NOTIFY from each save that records
    /// history; the SQLite store, when a commit by any connection to its file (another
    /// process's included) changes the file (see `SQLiteRemoteChanges`). The notification only
    /// wakes; persistent history is the record.
    public static let storeRemoteChangeNotification = Notification.Name("NSPersistentStoreRemoteChangeNotification")
    /// The changed store's URL in a remote change notification (NSPersistentStoreURLKey).
    public static let remoteChangeStoreURLKey = "storeURL"
    /// The changed store's UUID in a remote change notification (NSStoreUUIDKey).
    public static let remoteChangeStoreUUIDKey = "NSStoreUUID"
    /// The ``PersistentHistoryToken`` of the transaction in a remote change notification
    /// (NSPersistentHistoryTokenKey).
    public static let remoteChangeHistoryTokenKey = "historyToken"
}

extension StoreOption {
    /// Whether the store posts ``PersistentStoreCoordinator/storeRemoteChangeNotification``
    /// for every write, including other processes' (NSPersistentStoreRemoteChangeNotificationPostOptionKey):
    /// the SQLite and PostgreSQL stores post it; the atomic stores, which read their file once,
    /// do not.
    public static let remoteChangeNotificationPost = "NSPersistentStoreRemoteChangeNotificationOptionKey"
}
