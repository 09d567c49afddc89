import CoreData
import WorkbookSupport

/// NSBatchDeleteRequest: one DELETE in the store; the view context keeps the deleted objects
/// until the deleted IDs are merged into it.
enum BatchDelete {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try Feed.makeContainer(in: bench.makeDataFolder())
        try Feed.save(Feed.quakes(count: 8), into: container)
        let viewContext = container.viewContext
        let viewNotices = Notices(of: viewContext)
        try viewContext.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
            _ = try viewContext.fetch(request)
        }
        print("The view context holds \(viewContext.performAndWait { viewContext.registeredObjects.count }) quakes")

        let background = container.newBackgroundContext()
        // ANCHOR: batch-delete
        let deletedIDs: [NSManagedObjectID] = try background.performAndWait {
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
            fetch.predicate = NSPredicate(format: "magnitude < %@", 2.5 as NSNumber)
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = .resultTypeObjectIDs
            let result = try background.execute(request) as? NSBatchDeleteResult
            return result?.result as? [NSManagedObjectID] ?? []
        }
        // ANCHOR_END: batch-delete
        print("NSBatchDeleteRequest deleted \(deletedIDs.map(Feed.describe).joined(separator: ", "))")
        print("The store holds \(try Feed.count(in: container)) quakes")
        let stillThere = viewContext.performAndWait { viewContext.registeredObjects.count }
        print("The view context still holds \(stillThere) quakes; \(viewNotices.summary)")

        // ANCHOR: merge-deletes
        NSManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSDeletedObjectsKey: deletedIDs], into: [viewContext])
        // ANCHOR_END: merge-deletes
        let left = viewContext.performAndWait { viewContext.registeredObjects.count }
        print("Merged, it holds \(left); \(viewNotices.summary)")
        print("")

        // ANCHOR: delete-by-id
        let count: Int = try background.performAndWait {
            let request = NSBatchDeleteRequest(objectIDs: [deletedIDs[0]] + [try firstID(in: background)])
            request.resultType = .resultTypeCount
            let result = try background.execute(request) as? NSBatchDeleteResult
            return result?.result as? Int ?? -1
        }
        // ANCHOR_END: delete-by-id
        print("By object IDs, one of them already deleted: \(count) deleted")
        print("The store holds \(try Feed.count(in: container)) quakes")
    }

    /// Thrown when the store holds no quake at all.
    struct NoQuakeLeft: Error {}

    /// The ID of the quake with the lowest code.
    static func firstID(in context: NSManagedObjectContext) throws -> NSManagedObjectID {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
        request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        request.fetchLimit = 1
        guard let first = try context.fetch(request).first else { throw NoQuakeLeft() }
        return first.objectID
    }
}
