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
    /// When the server drops the LISTEN (a restart) the wire listens again, and then one
    /// notification carries the store's last transaction: what was saved while nobody listened
    /// is found by fetching history after the observer's own last token.
    func start(store: PostgresStore, coordinator: PersistentStoreCoordinator) throws {
        let url = store.url
        let notification = PersistentStoreCoordinator.storeRemoteChangeNotification
        let post: @Sendable (String, Int64?) -> Void = { [weak coordinator] uuid, number in
            guard let coordinator else { return }
            var info: [AnyHashable: Any] = [
                PersistentStoreCoordinator.remoteChangeStoreURLKey: url,
                PersistentStoreCoordinator.remoteChangeStoreUUIDKey: uuid,
            ]
            if let number {
                let token = PersistentHistoryToken(storeTokens: [uuid: number])
                info[PersistentStoreCoordinator.remoteChangeHistoryTokenKey] = token
            }
            NotificationCenter.default.post(name: notification, object: coordinator, userInfo: info)
        }
        let handle = try PostgresStore.mapping("Listening for changes (LISTEN) to", url) {
            try store.wire.listen(
                channel: store.notificationChannel,
                reconnected: { [weak store] in
                    guard let store else { return }
                    post(store.identifier, try? store.lastTransactionNumber())
                },
                handler: { payload in
                    let parts = payload.split(separator: " ")
                    guard parts.count == 2, let number = Int64(parts[1]) else { return }
                    post(String(parts[0]), number)
                })
        }
        listening.withLock {
            $0?.cancel()
            $0 = handle
        }
    }

    /// Stops listening (UNLISTEN), at the store's close.
    func stop() {
        listening.withLock {
            $0?.cancel()
            $0 = nil
        }
    }
}

extension PostgresStore {
    /// Starts posting remote change notifications for `coordinator` when the description asks
    /// for them (``StoreOption/remoteChangeNotificationPost``), from LISTEN.
    func startPostingRemoteChanges(
        coordinator: PersistentStoreCoordinator, store: PersistentStore,
        description: PersistentStoreDescription
    ) throws {
        guard description.postsRemoteChanges else { return }
        try remoteChanges.start(store: self, coordinator: coordinator)
    }
}
