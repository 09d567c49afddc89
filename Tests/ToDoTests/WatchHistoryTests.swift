import Foundation
import ObjectGraph
import Testing
import ZarraToDo

@testable import ToDoApp

/// `todo watch` on a SQLite store learns what other processes saved between two ticks from the
/// store's persistent history (Apple's "Consuming Relevant Store Changes":
/// NSPersistentHistoryChangeRequest.fetchHistory(after:), then
/// checkedMergeChanges(fromContextDidSave:) with each transaction's objectIDNotification()).
@Suite struct WatchHistoryTests {
    /// A clock that stands still, and whose sleeping first lets "another process" change the
    /// store, then moves.
    final class InterleavingClock: ToDoClock, @unchecked Sendable {
        let manual = ManualClock(ToDoHarness.start)
        var between: [() throws -> Void] = []
        var failures: [Error] = []
        var now: Date { manual.now }

        func sleep(until date: Date) {
            if !between.isEmpty {
                do { try between.removeFirst()() } catch { failures.append(error) }
            }
            manual.sleep(until: date)
        }
    }

    /// The lines a command printed, from whichever thread.
    final class Printed: @unchecked Sendable {
        private let lock = NSLock()
        private var text: [String] = []
        func append(_ line: String) { lock.withLock { text.append(line) } }
        var lines: [String] { lock.withLock { text } }
    }

    @Test(
        "An item another process adds or renames between two ticks is alerted as it now is (NSPersistentHistoryTransaction.objectIDNotification())"
    )
    func watchMergesOtherProcessesChanges() throws {
        let other = try ToDoHarness()
        let store = other.directory.appendingPathComponent("ToDo.sqlite").path
        try other.run("add", "Pay rent", "--due", "+4m", "--model-version", "1", "--store", store)

        let clock = InterleavingClock()
        // Between the first two ticks, another command (its own coordinator, as another
        // process has) renames #1 and adds #2.
        clock.between = [
            {
                try other.run("edit", "1", "--title", "Pay the rent", "--model-version", "1", "--store", store)
                try other.run("add", "Call the bank", "--due", "+3m", "--model-version", "1", "--store", store)
            }
        ]
        let printed = Printed()
        let environment = ToDoEnvironment(
            clock: clock, timeZone: TimeZone(identifier: "UTC")!,
            variables: ["XDG_DATA_HOME": other.directory.path, "HOME": other.directory.path],
            isTerminal: false, write: { line in printed.append(line) })
        try ToDoEnvironment.$current.withValue(environment) {
            var command = try ToDoCommand.parseAsRoot([
                "watch", "--ticks", "2", "--model-version", "1", "--store", store,
            ])
            try command.run()
        }
        #expect(clock.failures.isEmpty, "\(clock.failures)")
        #expect(
            Array(printed.lines.dropFirst()) == [
                "[2009-06-01 09:00] Due in 4 minutes: #1 Pay rent (at 2009-06-01 09:04)",
                "[2009-06-01 09:01] Due in 2 minutes: #2 Call the bank (at 2009-06-01 09:03)",
                "[2009-06-01 09:01] Due in 3 minutes: #1 Pay the rent (at 2009-06-01 09:04)",
            ])
    }

    @Test("The todo stack turns persistent history on for a SQLite store (NSPersistentHistoryTrackingKey)")
    func sqliteStoresKeepHistory() throws {
        let todo = try ToDoHarness()
        let store = todo.directory.appendingPathComponent("ToDo.sqlite")
        try todo.run("add", "Pay rent", "--store", store.path)
        try todo.run("add", "Answer mail")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: 2))
        try coordinator.addPersistentStore(type: .sqlite, at: store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let result =
            try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
            as? PersistentHistoryResult
        let transactions = try #require(result?.transactions)
        #expect(transactions.count == 1)
        let changes = try #require(transactions.first?.changes)
        #expect(changes.map(\.changeType) == [PersistentHistoryChangeType.insert])
    }
}
