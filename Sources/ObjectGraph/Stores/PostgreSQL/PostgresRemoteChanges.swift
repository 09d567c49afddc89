import Foundation

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
    /// history; the notification only wakes, persistent history is the record.
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
    /// for every write, including other processes' (NSPersistentStoreRemoteChangeNotificationPostOptionKey);
    /// the PostgreSQL store with persistent history tracking posts it.
    public static let remoteChangeNotificationPost = "NSPersistentStoreRemoteChangeNotificationOptionKey"
}

/// The PostgreSQL store's LISTEN on its channel while it posts remote change notifications:
/// each NOTIFY a save sent (``PostgresStore/notificationChannel``, payload "<store UUID>
/// <transaction number>") becomes ``PersistentStoreCoordinator/storeRemoteChangeNotification``.
final class PostgresRemoteChanges: Sendable {
    private let listening = Lock<(any PostgresListening)?>(nil)

    /// The payload of a store's NOTIFY.
    static func payload(store: String, transaction: Int64) -> String {
        "\(store) \(transaction)"
    }

    /// Starts listening, posting for `coordinator` (held weakly) each transaction of the store.
    func start(store: PostgresStore, coordinator: PersistentStoreCoordinator) throws {
        let url = store.url
        let notification = PersistentStoreCoordinator.storeRemoteChangeNotification
        let handle = try PostgresStore.mapping("Listening for changes (LISTEN) to", url) {
            try store.wire.listen(channel: store.notificationChannel) { [weak coordinator] payload in
                let parts = payload.split(separator: " ")
                guard parts.count == 2, let number = Int64(parts[1]), let coordinator else { return }
                let uuid = String(parts[0])
                NotificationCenter.default.post(name: notification, object: coordinator, userInfo: [
                    PersistentStoreCoordinator.remoteChangeStoreURLKey: url,
                    PersistentStoreCoordinator.remoteChangeStoreUUIDKey: uuid,
                    PersistentStoreCoordinator.remoteChangeHistoryTokenKey: PersistentHistoryToken(storeTokens: [uuid: number]),
                ])
            }
        }
        listening.withLock { $0?.cancel(); $0 = handle }
    }

    /// Stops listening (UNLISTEN), at the store's close.
    func stop() {
        listening.withLock { $0?.cancel(); $0 = nil }
    }
}

extension PostgresStore {
    /// Starts posting remote change notifications for `coordinator` when the description asks
    /// for them (``StoreOption/remoteChangeNotificationPost``); the coordinator calls it once
    /// it has added the store.
    func startPostingRemoteChanges(coordinator: PersistentStoreCoordinator, description: PersistentStoreDescription) throws {
        guard let wanted = description.options[StoreOption.remoteChangeNotificationPost] else { return }
        guard (wanted as? Bool) ?? ((wanted as? NSNumber)?.boolValue ?? false) else { return }
        try remoteChanges.start(store: self, coordinator: coordinator)
    }
}
