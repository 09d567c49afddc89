import Dispatch
import Foundation
import GRDB

/// The SQLite store's watch on its file while it posts remote change notifications
/// (NSPersistentStoreRemoteChangeNotificationPostOptionKey): a read-only connection of its own
/// asks SQLite's `PRAGMA data_version` every ``interval``, which changes exactly when another
/// connection (the store's own, another coordinator's, another process's) committed to the
/// file, and each change becomes one ``PersistentStoreCoordinator/storeRemoteChangeNotification``
/// carrying the store's latest history token.
///
/// Apple's SQLite store learns of other processes' writes from the system's file
/// notifications, which Linux has no counterpart of for a SQLite file's WAL; polling the
/// version costs one tiny query per interval and reads no row. Several commits within one
/// interval post one notification, whose token is the latest: the notification wakes, and
/// persistent history after the reader's last token is the record, as Apple's documentation
/// says to use it.
final class SQLiteRemoteChanges: Sendable {
    /// How often the file's version is read.
    static let interval = DispatchTimeInterval.milliseconds(50)

    private let watch = Lock<Watch?>(nil)

    /// A running watch: its connection, its timer and the version last seen.
    private final class Watch: @unchecked Sendable {
        // @unchecked Sendable: `version` is read and written on the timer's serial queue only.
        let connection: DatabaseQueue
        let timer: DispatchSourceTimer
        var version: Int64

        init(connection: DatabaseQueue, timer: DispatchSourceTimer, version: Int64) {
            (self.connection, self.timer, self.version) = (connection, timer, version)
        }

        func cancel() {
            timer.cancel()
            try? connection.close()
        }
    }

    /// Starts watching the store's file, posting for `coordinator` (held weakly) about `store`.
    func start(url: URL, storeIdentifier: String, store: PersistentStore, coordinator: PersistentStoreCoordinator)
        throws
    {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "ObjectGraph.SQLiteRemoteChanges"
        let connection = try CoreDataError.mappingSQLite("Watching for changes to", url) {
            try DatabaseQueue(path: url.path, configuration: configuration)
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ObjectGraph.SQLiteRemoteChanges"))
        let running = Watch(connection: connection, timer: timer, version: try Self.version(of: connection) ?? 0)
        timer.setEventHandler { [weak coordinator, weak store] in
            guard let coordinator, let store, let now = try? Self.version(of: connection), now != running.version else {
                return
            }
            running.version = now
            var info: [String: Any] = [
                PersistentStoreCoordinator.remoteChangeStoreURLKey: url,
                PersistentStoreCoordinator.remoteChangeStoreUUIDKey: storeIdentifier,
            ]
            if let token = try? coordinator.currentPersistentHistoryToken(fromStores: [store]) {
                info[PersistentStoreCoordinator.remoteChangeHistoryTokenKey] = token
            }
            NotificationCenter.default.post(
                name: PersistentStoreCoordinator.storeRemoteChangeNotification,
                object: coordinator, userInfo: info)
        }
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
        timer.resume()
        watch.withLock {
            $0?.cancel()
            $0 = running
        }
    }

    /// Stops watching, at the store's close.
    func stop() {
        watch.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    deinit { stop() }

    /// The file's version as this connection sees it (PRAGMA data_version).
    private static func version(of connection: DatabaseQueue) throws -> Int64? {
        try connection.read { try Int64.fetchOne($0, sql: "PRAGMA data_version") }
    }
}

extension SQLiteStore {
    /// Starts watching the file when the description asks for remote change notifications.
    func startPostingRemoteChanges(
        coordinator: PersistentStoreCoordinator, store: PersistentStore,
        description: PersistentStoreDescription
    ) throws {
        guard description.postsRemoteChanges else { return }
        try remoteChanges.start(url: url, storeIdentifier: identifier, store: store, coordinator: coordinator)
    }
}
