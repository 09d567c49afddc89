import Foundation

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
    /// for them (``StoreOption/remoteChangeNotificationPost``), from LISTEN.
    func startPostingRemoteChanges(coordinator: PersistentStoreCoordinator, store: PersistentStore,
                                   description: PersistentStoreDescription) throws {
        guard description.postsRemoteChanges else { return }
        try remoteChanges.start(store: self, coordinator: coordinator)
    }
}
