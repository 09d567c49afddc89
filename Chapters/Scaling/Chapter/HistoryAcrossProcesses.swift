import CoreData
import WorkbookSupport

/// Persistent history across processes: this process notes the store's history token, another
/// process adds a to-do as author `phone`, and this process fetches the transactions after the
/// token: who saved what, which it merges into a context of its own.
enum HistoryAcrossProcesses {
    static func run(_ bench: Workbench) throws {
        guard let store = ScalingServer.store("history", on: bench) else { return }
        let container = try ToDoStore.makeContainer(url: store.url, uuid: ScalingChapter.uuid(6))
        defer { ScalingChapter.close(container) }
        try ToDoStore.insertSamples(into: container)
        let context = container.newBackgroundContext()
        // ANCHOR: token
        let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        // ANCHOR_END: token
        let before = try context.performAndWait {
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ToDo"))
        }
        bench.print("This process's context counts \(before) to-dos; the history token is noted.")
        bench.print("$ scaling --store-url URL --add \"Call Marcus\" --author phone")
        for line in try OtherProcess.run(["--add", "Call Marcus", "--author", "phone"], on: store) {
            bench.print("  " + line)
        }
        try context.performAndWait { try merge(after: token, into: context, print: bench.print) }
    }

    /// Fetches the transactions after `token`, prints each, and merges it into `context`.
    static func merge(
        after token: NSPersistentHistoryToken?, into context: NSManagedObjectContext, print: (String) -> Void
    ) throws {
        // ANCHOR: fetch-history
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
        let result = try context.execute(request) as? NSPersistentHistoryResult
        let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
        for transaction in transactions {
            let changes = (transaction.changes ?? []).map { change in
                "\(change.changeType == .insert ? "insert" : change.changeType == .update ? "update" : "delete") "
                    + "\(change.changedObjectID.uriRepresentation().path)"
            }
            print("transaction by \(transaction.author ?? "nil"): \(changes.joined(separator: ", "))")
            context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        // ANCHOR_END: fetch-history
        let inserted = transactions.flatMap { $0.changes ?? [] }.filter { $0.changeType == .insert }
        for change in inserted {
            print("The context now has \(ToDoStore.describe(context.object(with: change.changedObjectID)))")
        }
        let after = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ToDo"))
        print("and counts \(after) to-dos.")
    }
}
