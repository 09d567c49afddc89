import CoreData
import WorkbookSupport

/// Optimistic locking between two contexts: the editor's save fails with 133020 because the
/// importer saved the same book after the editor read it; the error's NSMergeConflict says
/// which versions and values met. Then the two ways out: refresh and redo, or a merge policy.
enum OptimisticLocking {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try Shelf.makeContainer(in: bench.makeDataFolder())
        let bookID = try Shelf.insertBooks(into: container)[1]
        let editor = container.newBackgroundContext()
        let importer = container.newBackgroundContext()

        // ANCHOR: stale-save
        try editor.performAndWait {
            _ = try editor.existingObject(with: bookID).value(forKey: "title") // the editor reads the book
        }
        try importer.performAndWait {
            try importer.existingObject(with: bookID).setValue(3, forKey: "copies")
            try importer.save() // the importer saves it first
        }
        try editor.performAndWait {
            editor.object(with: bookID).setValue("Core Data, 2nd edition", forKey: "title")
            do {
                try editor.save()
            } catch let error where (error as NSError).code == NSManagedObjectMergeError {
                let error = error as NSError
                print("save() failed: \(error.domain) \(error.code)")
                Conflicts.show(error, print: print)
            }
        }
        // ANCHOR_END: stale-save
        print("The store holds \(try stored(in: container))")
        print("")

        // ANCHOR: refresh-and-redo
        try editor.performAndWait {
            let book = editor.object(with: bookID)
            editor.refresh(book, mergeChanges: false) // forget the change and the version it was made on
            book.setValue("Core Data, 2nd edition", forKey: "title") // make it again, on the store's values
            try editor.save()
        }
        // ANCHOR_END: refresh-and-redo
        print("Refreshed and redone, save() went through: \(try stored(in: container))")
        print("")

        try importer.performAndWait {
            importer.reset() // the editor has saved since the importer read the book: read it again
            try importer.existingObject(with: bookID).setValue(4, forKey: "copies")
            try importer.save()
        }
        print("The importer saves 4 copies; the editor, which read 3, changes the author.")
        // ANCHOR: policy
        try editor.performAndWait {
            editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            editor.object(with: bookID).setValue("Marcus S. Zarra", forKey: "author")
            try editor.save() // the same conflict, resolved by the policy, property by property
        }
        // ANCHOR_END: policy
        print("With NSMergeByPropertyObjectTrumpMergePolicy, save() went through: \(try stored(in: container))")
    }

    static func stored(in container: NSPersistentContainer) throws -> String {
        try Shelf.stored(code: "ZAR-2009", in: container) ?? "missing"
    }
}

/// Printing a 133020 error's conflicts, the same way for two contexts and two processes.
enum Conflicts {
    /// Each NSMergeConflict of `error`: the object, the versions, the three snapshots.
    // ANCHOR: conflict-list
    static func show(_ error: NSError, print: (String) -> Void) {
        let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
        for conflict in conflicts {
            print("  sourceObject: \(Shelf.describe(conflict.sourceObject))")
            print("  oldVersionNumber: \(conflict.oldVersionNumber), newVersionNumber: \(conflict.newVersionNumber)")
            print("  objectSnapshot:    \(Shelf.describe(snapshot: conflict.objectSnapshot))")
            print("  cachedSnapshot:    \(Shelf.describe(snapshot: conflict.cachedSnapshot))")
            print("  persistedSnapshot: \(Shelf.describe(snapshot: conflict.persistedSnapshot))")
        }
    }
    // ANCHOR_END: conflict-list
}
