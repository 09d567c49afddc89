import CoreData
import WorkbookSupport

/// An ordinary save beside NSBatchInsertRequest: the save makes a managed object per quake and
/// posts its notifications; the batch insert writes the rows straight into the store, makes no
/// object and tells no context, and returns what its result type asks for.
enum BatchInsert {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try Feed.makeContainer(in: bench.makeDataFolder())
        let feed = Feed.quakes(count: 8)

        print("An ordinary save of 3 quakes:")
        let saver = container.newBackgroundContext()
        let saverNotices = Notices(of: saver)
        // ANCHOR: ordinary-save
        try saver.performAndWait {
            for values in feed[0..<3] {
                let quake = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: saver)
                for (key, value) in values { quake.setValue(value, forKey: key) }
            }
            try saver.save()
        }
        // ANCHOR_END: ordinary-save
        let saved = saver.performAndWait { saver.registeredObjects.count }
        print("  objects in the context: \(saved); \(saverNotices.summary)")
        print("  the store holds \(try Feed.count(in: container)) quakes")
        print("")

        print("NSBatchInsertRequest of the next 5, resultType .objectIDs:")
        let importer = container.newBackgroundContext()
        let importerNotices = Notices(of: importer)
        // ANCHOR: batch-insert
        let insertedIDs: [NSManagedObjectID] = try importer.performAndWait {
            let request = NSBatchInsertRequest(entityName: "Quake", objects: Array(feed[3..<8]))
            request.resultType = .objectIDs
            let result = try importer.execute(request) as? NSBatchInsertResult
            return result?.result as? [NSManagedObjectID] ?? []
        }
        // ANCHOR_END: batch-insert
        print("  result: \(insertedIDs.map(Feed.describe).joined(separator: ", "))")
        let registered = importer.performAndWait { importer.registeredObjects.count }
        print("  objects in the context: \(registered); \(importerNotices.summary)")
        print("  the store holds \(try Feed.count(in: container)) quakes")
        print("")

        print("The same 5 quakes again, from the feed's next download, resultType .count:")
        // ANCHOR: batch-upsert
        let count: Int = try importer.performAndWait {
            importer.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy // a stored code is updated
            let request = NSBatchInsertRequest(entityName: "Quake", objects: Array(feed[3..<8]))
            request.resultType = .count
            let result = try importer.execute(request) as? NSBatchInsertResult
            return result?.result as? Int ?? -1
        }
        // ANCHOR_END: batch-upsert
        print("  result: \(count)")
        print("  the store holds \(try Feed.count(in: container)) quakes")
        print("")

        print("Merged into the view context:")
        let viewContext = container.viewContext
        let viewNotices = Notices(of: viewContext)
        // ANCHOR: merge-inserts
        NSManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSInsertedObjectsKey: insertedIDs], into: [viewContext])
        // ANCHOR_END: merge-inserts
        bench.letTheMainQueueRun()
        print("  \(viewNotices.summary)")
    }
}
