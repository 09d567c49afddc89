import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

// Other processes' saves reach this process promptly on the PostgreSQL store: each save that
// records history sends NOTIFY on the store's channel at its commit, and a store added with
// NSPersistentStoreRemoteChangeNotificationPostOptionKey LISTENs and posts
// NSPersistentStoreRemoteChange with the transaction's token. The notification only wakes;
// history after the last token is the record that is merged. One trial in the suite, a
// hundred with
//
//     OBJECTGRAPH_LONG=1 swift test --skip-build --filter RemoteChangeNotification
@Suite struct RemoteChangeNotificationTests {
    static var options: [String: Any] { [StoreOption.persistentHistoryTracking: true] }

    @Test(
        "Each save of three other processes posts NSPersistentStoreRemoteChange to this coordinator (LISTEN/NOTIFY), with its transaction's token; merging the history they point to brings a live context up to date",
        .enabled(
            if: MultiProcessTests.childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"))
    func otherProcessesSavesArriveAsRemoteChanges() throws {
        for trial in 1...MultiProcessTests.trials {
            let directory = try TemporaryDirectory()
            guard let url = try writerStoreURL(.postgres, in: directory, name: "Counter") else { return }
            let seed = try writerContext(.postgres, url, options: Self.options)
            try seed.insertNewObject(forEntityName: "Counter").checkedSetValue(0, forKey: "value")
            try seed.save()

            var listening = Self.options
            listening[StoreOption.remoteChangeNotificationPost] = true
            let live = try writerContext(.postgres, url, options: listening)
            let coordinator: PersistentStoreCoordinator = live.persistentStoreCoordinator
            let counter = try #require(try live.fetch(FetchRequest(entityName: "Counter")).first)
            var token = try coordinator.currentPersistentHistoryToken()

            let arrived = Lock<[Int64]>([])
            let storeID = coordinator.persistentStores[0].identifier
            let signal = DispatchSemaphore(value: 0)
            let observer = NotificationCenter.default.addObserver(
                forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
            ) { notification in
                let info = notification.userInfo ?? [:]
                guard info[PersistentStoreCoordinator.remoteChangeStoreUUIDKey] as? String == storeID,
                    let number =
                        (info[PersistentStoreCoordinator.remoteChangeHistoryTokenKey] as? PersistentHistoryToken)?
                        .transactionNumber(forStore: storeID)
                else { return }
                arrived.withLock { $0.append(number) }
                signal.signal()
            }
            defer { NotificationCenter.default.removeObserver(observer) }

            let results = try MultiProcessTests.run(
                (0..<MultiProcessTests.processes).map { _ in
                    ["postgres-history", url.absoluteString, "increment", "\(MultiProcessTests.operations)"]
                })
            for result in results { #expect(result.status == 0, "trial \(trial): \(result.errors)") }
            let total = MultiProcessTests.processes * MultiProcessTests.operations
            // One notification per committed save; a generous bound, not a speed test.
            for _ in 0..<total where signal.wait(timeout: .now() + 60) == .timedOut { break }
            let numbers = arrived.withLock { $0 }
            #expect(numbers.count == total, "trial \(trial): \(numbers.count) notifications for \(total) saves")

            // The notifications name exactly the transactions history holds; merged, the live
            // context shows every increment.
            let transactions = try CrossProcessHistoryTests.history(live, after: token)
            #expect(Set(numbers) == Set(transactions.map(\.transactionNumber)), "trial \(trial)")
            #expect(transactions.count == total, "trial \(trial)")
            for transaction in transactions {
                try live.checkedMergeChanges(fromContextDidSave: transaction.objectIDNotification())
                token = transaction.token
            }
            #expect(try counter.checkedValue(forKey: "value") as? Int == total, "trial \(trial)")
            #expect(try CrossProcessHistoryTests.history(live, after: token).isEmpty)
        }
    }

    // https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes
    @Test(
        "Other processes' saves to a SQLite store post NSPersistentStoreRemoteChange, the last carrying the latest transaction's token",
        .enabled(
            if: MultiProcessTests.childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"))
    func otherProcessesSavesToSQLiteArriveAsRemoteChanges() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Counter.sqlite")
        let seed = try writerContext(.sqlite, url, options: Self.options)
        try seed.insertNewObject(forEntityName: "Counter").checkedSetValue(0, forKey: "value")
        try seed.save()
        var listening = Self.options
        listening[StoreOption.remoteChangeNotificationPost] = true
        let live = try writerContext(.sqlite, url, options: listening)
        let coordinator: PersistentStoreCoordinator = live.persistentStoreCoordinator
        let storeID = coordinator.persistentStores[0].identifier
        let tokens = Lock<[Int64]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
        ) { notification in
            let info = notification.userInfo ?? [:]
            guard (info[PersistentStoreCoordinator.remoteChangeStoreURLKey] as? URL)?.path == url.path,
                let number = (info[PersistentStoreCoordinator.remoteChangeHistoryTokenKey] as? PersistentHistoryToken)?
                    .transactionNumber(forStore: storeID)
            else { return }
            tokens.withLock { $0.append(number) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let results = try MultiProcessTests.run(
            (0..<MultiProcessTests.processes).map { _ in
                ["sqlite-history", url.path, "increment", "\(MultiProcessTests.operations)"]
            })
        for result in results { #expect(result.status == 0, "\(result.errors)") }
        let last = try #require(try CrossProcessHistoryTests.history(live, after: nil).last?.transactionNumber)
        // Commits within one polling interval post once: the last notification names the last
        // transaction, and every notification names one that history holds, in order.
        let deadline = Date().addingTimeInterval(10)
        while tokens.withLock({ $0.last }) != last, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let numbers = tokens.withLock { $0 }
        #expect(numbers.last == last)
        #expect(numbers == numbers.sorted() && !numbers.isEmpty)
    }

    @Test(
        "Without NSPersistentStoreRemoteChangeNotificationPostOptionKey no remote change is posted; history still records the saves",
        arguments: [StoreType.sqlite, .postgres])
    func noOptionNoNotification(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        guard let url = try writerStoreURL(type, in: directory, name: "Quiet") else { return }
        var listening = Self.options
        listening[StoreOption.remoteChangeNotificationPost] = true
        let loud = try writerContext(type, url, options: listening)
        let quiet = try writerContext(type, url, options: Self.options)
        let posted = Lock<[ObjectIdentifier]>([])
        let signal = DispatchSemaphore(value: 0)
        // Only this test's two coordinators: other tests' stores post at the same time.
        let mine: Set<ObjectIdentifier> = [
            ObjectIdentifier(loud.persistentStoreCoordinator), ObjectIdentifier(quiet.persistentStoreCoordinator),
        ]
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: nil, queue: nil
        ) { notification in
            guard let object = notification.object as AnyObject?, mine.contains(ObjectIdentifier(object)) else {
                return
            }
            posted.withLock { $0.append(ObjectIdentifier(object)) }
            signal.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try quiet.insertNewObject(forEntityName: "Counter").checkedSetValue(1, forKey: "value")
        try quiet.save()
        // The listening coordinator hears the save (its own process's too, as Apple posts for
        // every write); the other one, added without the option, posts nothing.
        #expect(signal.wait(timeout: .now() + 60) == .success)
        let objects = posted.withLock { $0 }
        #expect(objects == [ObjectIdentifier(loud.persistentStoreCoordinator)])
        #expect(try CrossProcessHistoryTests.history(quiet, after: nil).count == 1)
    }
}
