import Foundation
import GRDB
import ObjectGraphPostgres
import TestSupport
import Testing

@testable import ObjectGraph

/// The PostgreSQL store when its server fails: crashed during a save, a connection dropped
/// between statements, every connection busy, a statement timed out, a restart under a LISTEN;
/// names that try to be SQL; a password that must never be printed. Tests that stop their
/// server have one of their own (``PostgresTestServer/makePrivate(for:)``).
///
/// The long run, a hundred crashes during saves counting partial transactions and lost
/// acknowledged saves (both must be 0), is
///
///     OBJECTGRAPH_PG_KILLS=100 swift test --skip-build --filter PostgresFailureTests/crashesDuringSavesLoseNothing
@Suite struct PostgresFailureTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Account") {
                AttributeDescription("name", .string)
                AttributeDescription("balance", .integer64)
            }
            EntityDescription("Entry") {
                AttributeDescription("batch", .integer64)
                AttributeDescription("note", .string)
            }
        }
    }

    /// A coordinator with the store at `url`.
    static func coordinator(
        _ url: URL, poolSize: Int = 2,
        configure: (inout PersistentStoreDescription) -> Void = { _ in }
    )
        throws -> PersistentStoreCoordinator
    {
        var description = PersistentStoreDescription.postgres(url: url, poolSize: poolSize)
        configure(&description)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(with: description)
        return coordinator
    }

    /// Runs one statement on a connection of its own, for looking at what the store wrote.
    static func query(_ url: URL, _ sql: String) throws -> PostgresWireResult {
        let wire = try PostgresWires.connector()(url, 1, 10)
        defer { wire.close() }
        return try wire.withConnection { try $0.query(sql, []) }
    }

    /// An integer a one-value query returns.
    static func integer(_ url: URL, _ sql: String) throws -> Int64? {
        Int64.fromDatabaseValue(try query(url, sql)[0, 0])
    }

    /// A connection (its own wire) that has begun a transaction holding an exclusive lock on
    /// ZENTRY, so that a save's INSERT waits there, in the middle of its transaction.
    static func lockingEntries(_ url: URL) throws -> any PostgresWire {
        let wire = try PostgresWires.connector()(url, 1, 10)
        try wire.withConnection { connection in
            _ = try connection.query("BEGIN", [])
            _ = try connection.query("LOCK TABLE ZENTRY IN ACCESS EXCLUSIVE MODE", [])
        }
        return wire
    }

    /// Waits (up to 10 s) until a statement waits for a lock; asked on a connection outside any
    /// transaction, since a transaction sees pg_stat_activity as it was at its first look.
    static func waitForABlockedStatement(_ url: URL) throws -> Bool {
        let wire = try PostgresWires.connector()(url, 1, 10)
        defer { wire.close() }
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            let waiting = try wire.withConnection {
                try $0.query("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'", [])
            }
            if waiting.values.first != 0.databaseValue { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// A saved account with `balance`, and its context.
    static func seeded(
        _ coordinator: PersistentStoreCoordinator,
        balance: Int = 100
    ) throws -> (ManagedObjectContext, ManagedObject) {
        let context = ManagedObjectContext(coordinator: coordinator)
        let account = try context.insertNewObject(forEntityName: "Account")
        try account.checkedSetValue("main", forKey: "name")
        try account.checkedSetValue(balance, forKey: "balance")
        try context.save()
        return (context, account)
    }

    /// Changes the account and inserts three entries: a save of an UPDATE then INSERTs.
    static func change(_ context: ManagedObjectContext, _ account: ManagedObject, batch: Int) throws {
        try account.checkedSetValue(50, forKey: "balance")
        for i in 1...3 {
            let entry = try context.insertNewObject(forEntityName: "Entry")
            try entry.checkedSetValue(batch, forKey: "batch")
            try entry.checkedSetValue("entry \(i)", forKey: "note")
        }
    }

    // 1. The server crashes while a save's transaction is open: the save fails saying so, the
    // server keeps nothing of it, the context keeps its changes, and once the server is back
    // the same context saves them through the same store, reconnecting.
    @Test func aSaveCutByAServerCrashFailsClearlyAndTheNextSaveSucceeds() throws {
        guard let server = try PostgresTestServer.makePrivate() else { return }
        defer { server.shutDown() }
        let url = server.url(schema: "crash")
        let coordinator = try Self.coordinator(url)
        let (context, account) = try Self.seeded(coordinator)
        try Self.change(context, account, batch: 1)

        let locker = try Self.lockingEntries(url)
        let crashed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // The save's UPDATE has run and its first INSERT waits: crash there.
            _ = try? Self.waitForABlockedStatement(url)
            try? server.crash()
            crashed.signal()
        }
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        crashed.wait()
        locker.close()
        #expect(error?.code == .persistentStoreSave)
        let message = error?.message ?? ""
        #expect(message.contains("connection to the server was lost"), "\(message)")
        #expect(message.contains("rolled back"), "\(message)")
        let place = "postgres://postgres:***@127.0.0.1:\(server.port)/postgres?schema=crash"
        #expect(message.contains(place), "\(message)")
        #expect(!message.contains(server.password ?? "?"), "\(message)")
        // The context still holds what it could not save.
        #expect(context.hasChanges)
        #expect(context.insertedObjects.count == 3)
        #expect(try account.checkedValue(forKey: "balance") as? Int == 50)

        try server.restart()
        #expect(try Self.integer(url, "SELECT count(*) FROM ZENTRY") == 0)
        #expect(try Self.integer(url, "SELECT ZBALANCE FROM ZACCOUNT") == 100)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try Self.integer(url, "SELECT count(*) FROM ZENTRY") == 3)
        #expect(try Self.integer(url, "SELECT ZBALANCE FROM ZACCOUNT") == 50)
    }

    // 2. A connection the server drops while it sits in the pool (pg_terminate_backend) is
    // replaced: the next fetch and the next save run on a new one.
    @Test func aConnectionDroppedBetweenStatementsIsReplaced() throws {
        guard let server = try PostgresTestServer.makePrivate() else { return }
        defer { server.shutDown() }
        let url = server.url(schema: "dropped")
        let coordinator = try Self.coordinator(url, poolSize: 1)
        let (context, account) = try Self.seeded(coordinator)
        let store = try #require(coordinator.persistentStores.first?.backend as? PostgresStore)
        // The pool's own connection, by its process id: other backends (a check's connection
        // that has just closed) may still be exiting, so counting client backends is racy.
        // The 5-second timeout makes pg_terminate_backend wait until the backend is gone.
        func terminateThePoolsConnection() throws -> Bool {
            let pid = try store.wire.withConnection { try $0.query("SELECT pg_backend_pid()", []) }
            let pidValue = try #require(Int64.fromDatabaseValue(pid[0, 0]))
            let result = try Self.query(url, "SELECT pg_terminate_backend(\(pidValue), 5000)")
            return Bool.fromDatabaseValue(result[0, 0]) == true
        }
        #expect(try terminateThePoolsConnection())
        #expect(try context.count(for: FetchRequest(entityName: "Account")) == 1)
        #expect(try terminateThePoolsConnection())
        try Self.change(context, account, batch: 1)
        try context.save()
        #expect(try Self.integer(url, "SELECT count(*) FROM ZENTRY") == 3)
    }

    // 3. Every connection of the pool busy: a request waits the store's timeout
    // (NSPersistentStoreTimeoutOption), then fails with 134090 saying what to change.
    @Test func aRequestWaitsForABusyPoolUpToTheTimeoutThenFails() throws {
        guard let url = try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema()) else { return }
        let coordinator = try Self.coordinator(url, poolSize: 1) { $0.timeout = 0.5 }
        _ = try Self.seeded(coordinator)
        let store = try #require(coordinator.persistentStores.first?.backend as? PostgresStore)
        let outcome = Lock<(Result<Int, any Error>, TimeInterval)?>(nil)
        try store.wire.withConnection { _ in
            // The pool's one connection is held here while another thread asks for one.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let start = Date()
                let result = Result {
                    try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Account"))
                }
                outcome.withLock { $0 = (result, Date().timeIntervalSince(start)) }
                done.signal()
            }
            done.wait()
        }
        let (result, waited) = try #require(outcome.withLock { $0 })
        let error = #expect(throws: CoreDataError.self) { try result.get() }
        #expect(error?.code == .persistentStoreTimeout)
        #expect(error?.message.contains("stayed busy for 0.5 seconds") == true, "\(error?.message ?? "")")
        #expect(waited >= 0.45 && waited < 5, "waited \(waited) s")
        // Released, the connection serves the next request.
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "Account")) == 1)
    }

    // 4. statement_timeout (the URL's query item here; the server's setting works the same):
    // a save whose statement runs too long fails with 134090 and writes nothing.
    @Test func aStatementTimeoutFailsTheSaveAndWritesNothing() throws {
        guard let plain = try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema()) else { return }
        var components = try #require(URLComponents(url: plain, resolvingAgainstBaseURL: false))
        components.queryItems =
            (components.queryItems ?? [])
            + [URLQueryItem(name: "statement_timeout", value: "300ms")]
        let url = try #require(components.url)
        let coordinator = try Self.coordinator(url)
        let (context, account) = try Self.seeded(coordinator)
        try Self.change(context, account, batch: 1)
        let locker = try Self.lockingEntries(plain)
        let start = Date()
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(Date().timeIntervalSince(start) < 5)
        locker.close()
        #expect(error?.code == .persistentStoreTimeout)
        #expect(error?.message.contains("statement timeout") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("nothing of it was written") == true)
        #expect(try Self.integer(plain, "SELECT ZBALANCE FROM ZACCOUNT") == 100)
        #expect(try Self.integer(plain, "SELECT count(*) FROM ZENTRY") == 0)
        #expect(context.hasChanges)
        try context.save()
        #expect(try Self.integer(plain, "SELECT count(*) FROM ZENTRY") == 3)
        // A statement_timeout the server refuses fails when the store is added.
        components.queryItems = [
            URLQueryItem(name: "schema", value: PostgresTestServer.uniqueSchema()),
            URLQueryItem(name: "statement_timeout", value: "soon'; DROP TABLE x; --"),
        ]
        let refused = #expect(throws: CoreDataError.self) { _ = try Self.coordinator(try #require(components.url)) }
        #expect(refused?.message.contains("statement_timeout") == true, "\(refused?.message ?? "")")
    }

    // 5. A store posting remote change notifications (LISTEN) keeps posting across a restart
    // of its server: it listens again, says so with the latest transaction, and saves made
    // after the restart arrive as they did before.
    @Test func remoteChangesArriveAgainAfterTheServerRestarts() throws {
        guard let server = try PostgresTestServer.makePrivate() else { return }
        defer { server.shutDown() }
        let url = server.url(schema: "watched")
        let watcher = try Self.coordinator(url) {
            $0.isPersistentHistoryTrackingEnabled = true
            try? $0.checkedSetOption(true, forKey: StoreOption.remoteChangeNotificationPost)
        }
        let writer = try Self.coordinator(url) { $0.isPersistentHistoryTrackingEnabled = true }
        let storeID = watcher.persistentStores[0].identifier
        let numbers = Lock<[Int64]>([])
        let name = PersistentStoreCoordinator.storeRemoteChangeNotification
        let center = NotificationCenter.default
        let observer = center.addObserver(forName: name, object: watcher, queue: nil) { notification in
            let key = PersistentStoreCoordinator.remoteChangeHistoryTokenKey
            let token = notification.userInfo?[key] as? PersistentHistoryToken
            numbers.withLock { $0.append(token?.transactionNumber(forStore: storeID) ?? -1) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        func waitFor(_ count: Int) -> [Int64] {
            let deadline = Date(timeIntervalSinceNow: 15)
            while numbers.withLock({ $0.count }) < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return numbers.withLock { $0 }
        }
        let (context, account) = try Self.seeded(writer)
        #expect(waitFor(1) == [1])
        try server.crash()
        try server.restart()
        // Listening again, the store posts the last transaction it can see.
        #expect(waitFor(2) == [1, 1])
        try Self.change(context, account, batch: 1)
        try context.save()
        #expect(waitFor(3) == [1, 1, 2])
        let seen = ManagedObjectContext(coordinator: watcher)
        #expect(try seen.count(for: FetchRequest(entityName: "Entry")) == 3)
    }

    // 6. Schema names are identifiers, quoted wherever they reach SQL, never executed: one
    // that tries to end the statement and drop a table makes a schema of exactly that name.
    @Test(arguments: ["x\"; DROP TABLE VICTIM.victim; --", "schéma ünïcødé ✓ VICTIM", "a'b?c;\"d\"\"e VICTIM"])
    func aSchemaNameIsQuotedNeverExecuted(_ template: String) throws {
        guard let victimURL = try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema()) else { return }
        let victim = PostgresNames.schemaName(of: victimURL)
        let name = template.replacingOccurrences(of: "VICTIM", with: victim)
        let admin = try PostgresWires.connector()(victimURL, 1, 10)
        defer { admin.close() }
        func query(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> PostgresWireResult {
            try admin.withConnection { try $0.query(sql, arguments) }
        }
        _ = try query("CREATE SCHEMA \(victim)")
        _ = try query("CREATE TABLE \(victim).victim (x bigint)")
        guard let url = try PostgresTestServer.url(schema: name) else { return }
        let coordinator = try Self.coordinator(url)
        let (context, account) = try Self.seeded(coordinator)
        try Self.change(context, account, batch: 1)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Entry")) == 3)
        let namespaces = try query("SELECT count(*) FROM pg_namespace WHERE nspname = $1", [name.databaseValue])
        #expect(namespaces.values == [1.databaseValue])
        let found = try query(
            "SELECT upper(table_name) FROM information_schema.tables "
                + "WHERE table_schema = $1 ORDER BY 1", [name.databaseValue])
        let tables = ["ZACCOUNT", "ZENTRY", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"]
        #expect(found.values == tables.map(\.databaseValue))
        #expect(try query("SELECT count(*) FROM \(victim).victim").values == [0.databaseValue])
        // Opened again by the same name, it is the same store.
        let again = try Self.coordinator(url)
        #expect(again.persistentStores[0].identifier == coordinator.persistentStores[0].identifier)
    }

    // 7. The password appears nowhere: not in the error of a wrong password or of a crashed
    // server, not in a SQL log line, not in the description of the store, its description or
    // the coordinator.
    @Test func thePasswordIsNeverPrinted() throws {
        guard let server = try PostgresTestServer.makePrivate() else { return }
        defer { server.shutDown() }
        let password = try #require(server.password)
        let wrong = "Wr0ng-\(UUID().uuidString.prefix(6))"
        let refused = #expect(throws: CoreDataError.self) {
            _ = try Self.coordinator(server.url(schema: "secret", password: wrong))
        }
        let refusal = "\(refused.map { "\($0) \($0.message) \($0.localizedDescription)" } ?? "")"
        #expect(refusal.contains("password authentication failed"), "\(refusal)")
        #expect(!refusal.contains(wrong) && !refusal.contains(password), "\(refusal)")

        let lines = Lock<[String]>([])
        let log = SQLLog()
        log.handler = { line in lines.withLock { $0.append(line) } }
        let url = server.url(schema: "secret")
        let description = PersistentStoreDescription.postgres(url: url)
        description.timeout = 2
        let coordinator = try SQLLog.routing(to: log) {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
            try coordinator.addPersistentStore(with: description)
            return coordinator
        }
        coordinator.sqlLog.handler = log.handler
        let (context, account) = try Self.seeded(coordinator)
        try Self.change(context, account, batch: 1)
        try server.crash()
        let failed = #expect(throws: CoreDataError.self) { try context.save() }
        let store = try #require(coordinator.persistentStores.first)
        let printed = [
            "\(failed.map { "\($0) \($0.message)" } ?? "")", String(describing: store), String(reflecting: store),
            String(describing: description), String(reflecting: description), String(describing: coordinator),
            String(reflecting: coordinator), lines.withLock { $0.joined(separator: "\n") },
        ]
        #expect(printed[0].contains("***@127.0.0.1"), "\(printed[0])")
        #expect(printed[2].contains("postgres://postgres:***@"), "\(printed[2])")
        #expect(!lines.withLock { $0.isEmpty })
        for text in printed { #expect(!text.contains(password), "\(text)") }
    }

    // The long run's bounded form: crashes of the server while saves run, each save an UPDATE
    // of a counter and INSERTs of a batch of entries in one transaction. Every batch the server
    // kept must be whole and counted (no partial transaction), and every save that returned
    // must be kept (no lost acknowledged save). Three crashes in the suite, OBJECTGRAPH_PG_KILLS
    // of them in the long run (see the suite's comment and README, "For contributors").
    @Test func crashesDuringSavesLoseNothing() throws {
        let kills = ProcessInfo.processInfo.environment["OBJECTGRAPH_PG_KILLS"].flatMap { Int($0) } ?? 3
        guard let server = try PostgresTestServer.makePrivate() else { return }
        defer { server.shutDown() }
        let url = server.url(schema: "kills")
        let coordinator = try Self.coordinator(url) { $0.timeout = 2 }
        _ = try Self.seeded(coordinator, balance: 0)
        let batchSize = 20
        let finished = Lock(false)
        DispatchQueue.global().async {
            var random = SystemRandomNumberGenerator()
            for _ in 0..<kills {
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.4, using: &random))
                try? server.crash()
                try? server.restart()
            }
            finished.withLock { $0 = true }
        }
        var acknowledged: [Int] = []
        var failures = 0
        var batch = 0
        var kinds: Set<String> = []
        while !finished.withLock({ $0 }) {
            batch += 1
            // A context per batch: after a failure, what the server holds is fetched afresh.
            let context = ManagedObjectContext(coordinator: coordinator)
            do {
                let counter = try #require(try context.fetch(FetchRequest(entityName: "Account")).first)
                let count = try counter.checkedValue(forKey: "balance") as? Int ?? 0
                try counter.checkedSetValue(count + 1, forKey: "balance")
                for i in 0..<batchSize {
                    let entry = try context.insertNewObject(forEntityName: "Entry")
                    try entry.checkedSetValue(batch, forKey: "batch")
                    try entry.checkedSetValue("entry \(i)", forKey: "note")
                }
                try context.save()
                acknowledged.append(batch)
            } catch let error as CoreDataError {
                let expected: [CoreDataError.Code?] = [
                    .persistentStoreSave, .persistentStoreOpen,
                    .persistentStoreTimeout,
                ]
                #expect(expected.contains(error.code), "\(error)")
                failures += 1
                // Each kind of failure once, numbers left out, for the run's report.
                kinds.insert(error.message.replacingOccurrences(of: "[0-9]+", with: "N", options: .regularExpression))
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        let rows = try Self.query(url, "SELECT ZBATCH, count(*) FROM ZENTRY GROUP BY ZBATCH")
        var kept: [Int64: Int64] = [:]
        for i in 0..<rows.rowCount {
            kept[Int64.fromDatabaseValue(rows[i, 0])!] = Int64.fromDatabaseValue(rows[i, 1])!
        }
        let partial = kept.values.filter { $0 != Int64(batchSize) }.count
        let lost = acknowledged.filter { kept[Int64($0)] == nil }.count
        let counter = try Self.integer(url, "SELECT ZBALANCE FROM ZACCOUNT")
        print(
            "◇ \(kills) crashes: \(batch) saves, \(acknowledged.count) acknowledged, \(failures) failed, "
                + "\(kept.count) kept, "
                + "\(partial) partial, \(lost) lost, counter \(counter ?? -1)")
        for kind in kinds.sorted() { print("  ◇ \(kind)") }
        #expect(partial == 0)
        #expect(lost == 0)
        // The counter's UPDATE went with its batch's INSERTs, or neither did.
        #expect(counter == Int64(kept.count))
        #expect(acknowledged.count >= kills, "the store saved again after each crash")
    }
}
