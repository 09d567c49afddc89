import CoreData
import WorkbookSupport

/// Bringing another context's save in: automatically (automaticallyMergesChangesFromParent), or
/// by observing its did-save notification and merging it (mergeChanges(fromContextDidSave:)).
enum Merging {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try Library.makeContainer(in: bench.makeDataFolder())
        let bookIDs = try Library.insertBooks(into: container)
        let viewContext = container.viewContext
        let bookID = bookIDs[3]

        // ANCHOR: automatic
        viewContext.performAndWait {
            viewContext.automaticallyMergesChangesFromParent = true
            print("The view context shows \"\(viewContext.object(with: bookID).value(forKey: "title") ?? "")\"")
        }
        let background = container.newBackgroundContext()
        try background.performAndWait {
            try background.existingObject(with: bookID).setValue("Core Data by Tutorials, 8th edition", forKey: "title")
            try background.save()
        }
        // ANCHOR_END: automatic
        // The merge is a block on the main queue, which runs once the main thread is free, as an
        // application's is between two events.
        bench.letTheMainQueueRun()
        // ANCHOR: automatic-after
        viewContext.performAndWait {
            print("After the background save: \"\(viewContext.object(with: bookID).value(forKey: "title") ?? "")\"")
        }
        // ANCHOR_END: automatic-after
        print("")

        // ANCHOR: not-merged
        let reader = container.newBackgroundContext()
        let writer = container.newBackgroundContext()
        func title(in context: NSManagedObjectContext) -> String {
            context.performAndWait { context.object(with: bookIDs[0]).value(forKey: "title") as? String ?? "" }
        }
        print("The reader loads \"\(title(in: reader))\"")
        try writer.performAndWait {
            try writer.existingObject(with: bookIDs[0]).setValue("Fetch, Clarus, Fetch!", forKey: "title")
            try writer.save()
        }
        print("The writer saved a new title; the reader still shows \"\(title(in: reader))\"")
        // ANCHOR_END: not-merged

        // ANCHOR: observe
        let observer = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: writer, queue: nil
        ) { notification in
            // Posted on the writer's queue; the merge belongs on the reader's.
            nonisolated(unsafe) let notification = notification
            reader.perform { reader.mergeChanges(fromContextDidSave: notification) }
        }
        try writer.performAndWait {
            try writer.existingObject(with: bookIDs[0]).setValue(
                "Fetch, Clarus, Fetch (MacTech 21.11)", forKey: "title")
            try writer.save()
        }
        print("With the observer, after the writer's next save: \"\(title(in: reader))\"")
        NotificationCenter.default.removeObserver(observer)
        // ANCHOR_END: observe
    }
}
