import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

// Two or more processes on one SQLite or PostgreSQL store with persistent history: one learns of the others'
// saves by fetching history after its last token and merging each transaction's
// objectIDNotification() into its live context (Apple's "Consuming Relevant Store Changes");
// conflicting saves fail with 133020 and lose no update. One trial in the suite, a hundred with
//
//     OBJECTGRAPH_LONG=1 swift test --skip-build --filter CrossProcessHistory
@Suite struct CrossProcessHistoryTests {
    static var tracking: [String: Any] { [StoreOption.persistentHistoryTracking: true] }

    static func history(_ context: ManagedObjectContext, after token: PersistentHistoryToken?) throws
        -> [PersistentHistoryTransaction]
    {
        (try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)) as? PersistentHistoryResult)?
            .transactions ?? []
    }

    @Test(
        "Every increment of three processes is one transaction in history, and merging them brings a live context up to date (NSPersistentHistoryChangeRequest, objectIDNotification())",
        .enabled(
            if: MultiProcessTests.childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"),
        arguments: StoreKind.allCases)
    func incrementsOfOtherProcessesMergeFromHistory(_ kind: StoreKind) throws {
        for trial in 1...MultiProcessTests.trials {
            let directory = try TemporaryDirectory()
            guard let url = try writerStoreURL(kind.storeType, in: directory, name: "Counter") else { return }
            let seed = try writerContext(kind.storeType, url, options: Self.tracking)
            try seed.insertNewObject(forEntityName: "Counter").checkedSetValue(0, forKey: "value")
            try seed.save()

            // This process's live context, holding the counter at 0.
            let live = try writerContext(kind.storeType, url, options: Self.tracking)
            let counter = try #require(try live.fetch(FetchRequest(entityName: "Counter")).first)
            #expect(try counter.checkedValue(forKey: "value") as? Int == 0)
            var token = try live.persistentStoreCoordinator.currentPersistentHistoryToken()

            let results = try MultiProcessTests.run(
                (0..<MultiProcessTests.processes).map { _ in
                    [
                        "\(writerTypeName(kind.storeType))-history", writerLocation(kind.storeType, url), "increment",
                        "\(MultiProcessTests.operations)",
                    ]
                })
            for result in results { #expect(result.status == 0, "trial \(trial): \(result.errors)") }
            let lines = results.flatMap(\.lines)
            let total = MultiProcessTests.processes * MultiProcessTests.operations
            // No update lost: each confirmed increment saw a value no other did.
            let confirmed = lines.filter { $0.hasPrefix("increment ") }.compactMap {
                Int($0.split(separator: " ").last ?? "")
            }
            #expect(confirmed.sorted() == Array(1...total), "trial \(trial)")
            // A refused save is 133020 and leaves no transaction behind.
            #expect(lines.filter { $0.hasPrefix("conflict ") }.allSatisfy { $0 == "conflict 133020" }, "trial \(trial)")

            let transactions = try Self.history(live, after: token)
            #expect(transactions.count == total, "trial \(trial)")
            #expect(
                transactions.allSatisfy {
                    $0.changes?.count == 1 && $0.changes?.first?.changeType == .update
                        && $0.changes?.first?.changedObjectID == counter.objectID
                })
            #expect(transactions.allSatisfy { $0.changes?.first?.updatedProperties?.map(\.name) == ["value"] })
            #expect(
                Set(transactions.compactMap(\.author)).count == MultiProcessTests.processes,
                "trial \(trial): one author per process")
            // The live context still shows 0 until it merges what history told it.
            #expect(try counter.checkedValue(forKey: "value") as? Int == 0)
            for transaction in transactions {
                try live.checkedMergeChanges(fromContextDidSave: transaction.objectIDNotification())
                token = transaction.token
            }
            #expect(try counter.checkedValue(forKey: "value") as? Int == total, "trial \(trial)")
            #expect(try Self.history(live, after: token).isEmpty)
        }
    }

    @Test(
        "Inserts of three processes arrive through history with their writers as authors and their own object IDs (NSPersistentHistoryTransaction.author)",
        .enabled(
            if: MultiProcessTests.childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"),
        arguments: StoreKind.allCases)
    func insertsOfOtherProcessesArriveThroughHistory(_ kind: StoreKind) throws {
        for trial in 1...MultiProcessTests.trials {
            let directory = try TemporaryDirectory()
            guard let url = try writerStoreURL(kind.storeType, in: directory, name: "Records") else { return }
            let live = try writerContext(kind.storeType, url, options: Self.tracking)
            let token = try live.persistentStoreCoordinator.currentPersistentHistoryToken()
            #expect(token == nil)
            let results = try MultiProcessTests.run(
                (0..<MultiProcessTests.processes).map { n in
                    [
                        "\(writerTypeName(kind.storeType))-history", writerLocation(kind.storeType, url), "insert",
                        "\(MultiProcessTests.operations)", "w\(n)",
                    ]
                })
            for result in results { #expect(result.status == 0, "trial \(trial): \(result.errors)") }
            // "insert <writer> <index> <primary key>", as each child confirmed it.
            let confirmed = Set(
                results.flatMap(\.lines).map { line -> String in
                    let parts = line.split(separator: " ")
                    return "\(parts[1]) \(parts[3])"
                })
            let transactions = try Self.history(live, after: token)
            #expect(transactions.count == MultiProcessTests.processes * MultiProcessTests.operations, "trial \(trial)")
            let recorded = Set(
                transactions.flatMap { transaction in
                    (transaction.changes ?? []).map { "\(transaction.author ?? "?") \($0.changedObjectID.primaryKey)" }
                })
            #expect(recorded == confirmed, "trial \(trial)")
            #expect(transactions.allSatisfy { $0.changes?.allSatisfy { $0.changeType == .insert } == true })
        }
    }

    @Test(
        "A save over another process's change fails with 133020; after merging history the update is applied on top, none lost (NSMergeConflict, NSManagedObjectMergeError)",
        .enabled(
            if: MultiProcessTests.childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"),
        arguments: StoreKind.allCases)
    func conflictingSaveOfTwoProcessesLosesNoUpdate(_ kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let url = try writerStoreURL(kind.storeType, in: directory, name: "Counter") else { return }
        let live = try writerContext(kind.storeType, url, options: Self.tracking)
        let counter = try live.insertNewObject(forEntityName: "Counter")
        try counter.checkedSetValue(0, forKey: "value")
        try live.save()
        let token = try live.persistentStoreCoordinator.currentPersistentHistoryToken()

        // This process changes the counter; meanwhile another process adds 1 and saves.
        try counter.checkedSetValue(100, forKey: "value")
        let results = try MultiProcessTests.run([
            ["\(writerTypeName(kind.storeType))-history", writerLocation(kind.storeType, url), "increment", "1"]
        ])
        #expect(results.first?.status == 0, "\(results.first?.errors ?? "")")
        #expect(results.first?.lines == ["increment 1"])

        #expect {
            try live.save()
        } throws: { error in
            (error as? CoreDataError)?.code == .merge
        }
        // History says what the other process did; merged, the counter shows its 1, and
        // this process's change is made again on top of it.
        live.rollback()
        for transaction in try Self.history(live, after: token) {
            try live.checkedMergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        let now = try counter.checkedValue(forKey: "value") as? Int ?? -1
        #expect(now == 1)
        try counter.checkedSetValue(now + 100, forKey: "value")
        try live.save()
        let check = try writerContext(kind.storeType, url)
        #expect(
            try check.fetch(FetchRequest(entityName: "Counter")).first?.checkedValue(forKey: "value") as? Int == 101)
    }
}
