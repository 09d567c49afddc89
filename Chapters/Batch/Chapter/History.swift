import CoreData
import WorkbookSupport

/// Persistent history between two processes: the chapter's executable runs itself as a second
/// process (`batch --other-process FOLDER`), which imports into the same store with a save and
/// a batch delete. The first process learns what changed by fetching the history after its last
/// token, keeps the transactions another author made, and merges them into its view context.
public enum History {
    /// The author of the first process's own saves.
    static let appAuthor = "app"

    /// What the second process runs: one save (two quakes inserted, one changed) and one batch
    /// delete, both by the author `importer`.
    public static func importInOtherProcess(storeIn folder: URL) throws {
        // ANCHOR: other-process
        let container = try Feed.makeContainer(in: folder, history: true) // the same file, its own coordinator
        let importer = container.newBackgroundContext()
        importer.transactionAuthor = "importer"
        importer.name = "import"
        try importer.performAndWait {
            for values in Feed.quakes(count: 2, firstCode: 3001) {
                let quake = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: importer)
                for (key, value) in values { quake.setValue(value, forKey: key) }
            }
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.predicate = NSPredicate(format: "code == %@", "nc1002")
            try importer.fetch(request).first?.setValue(4.9, forKey: "magnitude") // the feed revised it
            try importer.save()
            print("saved 2 new quakes and a new magnitude for nc1002")

            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
            fetch.predicate = NSPredicate(format: "code == %@", "nc1001")
            let deletion = NSBatchDeleteRequest(fetchRequest: fetch)
            deletion.resultType = .resultTypeCount
            let deleted = try importer.execute(deletion) as? NSBatchDeleteResult
            print("batch-deleted \(deleted?.result as? Int ?? 0) quake, nc1001, withdrawn from the feed")
        }
        // ANCHOR_END: other-process
    }

    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        let container = try Feed.makeContainer(in: folder, history: true)
        let viewContext = container.viewContext
        viewContext.transactionAuthor = appAuthor
        try Feed.save(Feed.quakes(count: 3), into: container, author: appAuthor)
        // ANCHOR: last-token
        var lastToken = try container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        // ANCHOR_END: last-token
        let firstToken = lastToken
        let shown: [NSManagedObject] = try viewContext.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
            return try viewContext.fetch(request)
        }
        print("The view context shows: \(viewContext.performAndWait { Feed.list(shown) })")
        print("$ batch --other-process FOLDER")
        for line in try runOtherProcess(folder: folder) { print("  " + line) }
        try viewContext.performAndWait {
            let quake = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: viewContext)
            quake.setValue("nc4001", forKey: "code")
            quake.setValue("Typed in by the user", forKey: "place")
            try viewContext.save() // a save of this process's own, by the author "app"
        }
        print("This process saved nc4001 itself.")
        print("")

        print("History after the last token:")
        let background = container.newBackgroundContext()
        // ANCHOR: fetch-history
        let transactions: [NSPersistentHistoryTransaction] = try background.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            let result = try background.execute(request) as? NSPersistentHistoryResult
            return result?.result as? [NSPersistentHistoryTransaction] ?? []
        }
        // ANCHOR_END: fetch-history
        for transaction in transactions { print(describe(transaction)) }
        print("")

        // ANCHOR: merge-history
        for transaction in transactions where transaction.author != appAuthor {
            viewContext.performAndWait {
                viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
        }
        lastToken = transactions.last?.token ?? lastToken
        // ANCHOR_END: merge-history
        let now: [NSManagedObject] = try viewContext.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
            return try viewContext.fetch(request)
        }
        print("Merged, the view context shows: \(viewContext.performAndWait { Feed.list(now) })")
        let gone = viewContext.performAndWait { shown.filter { $0.managedObjectContext == nil }.map(Feed.describe) }
        print("Its objects no longer in the store: \(gone.joined(separator: "; "))")
        print("")

        print("Purging the history up to the last token:")
        // ANCHOR: purge-history
        let purged: Int = try background.performAndWait {
            let request = NSPersistentHistoryChangeRequest.deleteHistory(before: lastToken)
            request.resultType = .count
            let result = try background.execute(request) as? NSPersistentHistoryResult
            return result?.result as? Int ?? 0
        }
        // ANCHOR_END: purge-history
        print("  \(purged) transactions purged")
        let left = try fetchHistory(after: nil, in: background)
        print("  history after no token at all: \(left.count) transactions")
        print(
            "  history after the last token: \(try fetchHistory(after: lastToken, in: background).count) transactions")
        do {
            _ = try fetchHistory(after: firstToken, in: background)
        } catch  where (error as NSError).code == NSPersistentHistoryTokenExpiredError {
            print("  history after the first token: error \((error as NSError).code), the token has expired")
        }
    }

    /// One transaction on a line, then its changes: `transaction 2 by importer (context import)`.
    static func describe(_ transaction: NSPersistentHistoryTransaction) -> String {
        let who = transaction.author ?? "nobody"
        let context = transaction.contextName.map { "context \($0)" } ?? "no context name"
        var lines = ["  transaction \(transaction.transactionNumber) by \(who) (\(context))"]
        for change in transaction.changes ?? [] {
            let kind: String
            switch change.changeType {
            case .insert: kind = "insert"
            case .update: kind = "update"
            case .delete: kind = "delete"
            }
            let properties = change.updatedProperties.map { " of " + $0.map(\.name).sorted().joined(separator: ", ") }
            lines.append("    \(kind) \(Feed.describe(change.changedObjectID))\(properties ?? "")")
        }
        return lines.joined(separator: "\n")
    }

    /// The transactions after `token`, read by `context`.
    static func fetchHistory(after token: NSPersistentHistoryToken?, in context: NSManagedObjectContext) throws
        -> [NSPersistentHistoryTransaction]
    {
        try context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
            let result = try context.execute(request) as? NSPersistentHistoryResult
            return result?.result as? [NSPersistentHistoryTransaction] ?? []
        }
    }

    /// Runs `batch --other-process folder` and returns what it printed; a line saying so when
    /// the executable is not built, or when the process failed.
    static func runOtherProcess(folder: URL) throws -> [String] {
        guard let executable = ChapterProcess.executable(named: "batch") else {
            return ["(the batch executable is not built: run `swift build` first)"]
        }
        let child = try ChapterProcess.run(executable, arguments: ["--other-process", folder.path])
        var lines = child.outputLines
        if child.status != 0 {
            lines += child.errors.split(separator: "\n").map(String.init)
            lines.append("(the other process failed with status \(child.status))")
        }
        return lines
    }
}
