import CoreData
import WorkbookSupport

/// Optimistic locking between two processes on one server: this process's editor reads a
/// to-do; another process marks it done and saves; the editor's save meets 133020, as between
/// two contexts (chapter 8), because every UPDATE carries `WHERE Z_PK = $1 AND Z_OPT = $2`.
/// A merge policy resolves it, keeping both changes.
enum ConflictAcrossProcesses {
    static func run(_ bench: Workbench) throws {
        guard let store = ScalingServer.store("conflict", on: bench) else { return }
        let container = try ToDoStore.makeContainer(url: store.url, uuid: ScalingChapter.uuid(5))
        defer { ScalingChapter.close(container) }
        try ToDoStore.insertSamples(into: container)
        let editor = container.newBackgroundContext()
        let id = try editor.performAndWait { try ToDoStore.todo(titled: "Buy milk", in: editor)?.objectID }
        guard let id else { return bench.print("no to-do \"Buy milk\"") }
        bench.print("This process's editor has read \(try ToDoStore.stored(id, in: container))")
        bench.print("$ scaling --store-url URL --complete \"Buy milk\"")
        for line in try OtherProcess.run(["--complete", "Buy milk"], on: store) { bench.print("  " + line) }

        // ANCHOR: stale-save
        try editor.performAndWait {
            editor.object(with: id).setValue("Buy oat milk", forKey: "title")
            do {
                try editor.save()
            } catch let error where (error as NSError).code == NSManagedObjectMergeError {
                let error = error as NSError
                bench.print("save() failed: \(error.domain) \(error.code)")
                let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
                for conflict in conflicts {
                    let read = conflict.objectSnapshot?["completed"].map { "\($0)" } ?? "nil"
                    let stored = conflict.persistedSnapshot?["completed"].map { "\($0)" } ?? "nil"
                    bench.print("  versions: read \(conflict.oldVersionNumber), stored \(conflict.newVersionNumber)")
                    bench.print("  completed: read \(read), stored \(stored)")
                }
            }
        }
        // ANCHOR_END: stale-save
        // ANCHOR: resolved
        try editor.performAndWait {
            editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try editor.save() // the editor's title, the other process's completed
        }
        // ANCHOR_END: resolved
        bench.print("With NSMergeByPropertyObjectTrumpMergePolicy, save() went through.")
        bench.print("The store holds \(try ToDoStore.stored(id, in: container))")
    }
}
