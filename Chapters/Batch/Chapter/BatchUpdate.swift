import CoreData
import WorkbookSupport

/// NSBatchUpdateRequest: one UPDATE in the store, which the view context does not see until the
/// updated IDs are merged into it; and no validation, which an ordinary save would have run.
enum BatchUpdate {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try Feed.makeContainer(in: bench.makeDataFolder())
        try Feed.save(Feed.quakes(count: 8), into: container)
        let viewContext = container.viewContext
        let strong: [NSManagedObject] = try viewContext.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.predicate = NSPredicate(format: "magnitude >= 5")
            request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
            return try viewContext.fetch(request)
        }
        print("The view context shows: \(viewContext.performAndWait { Feed.list(strong) })")

        let background = container.newBackgroundContext()
        // ANCHOR: batch-update
        let updatedIDs: [NSManagedObjectID] = try background.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Quake")
            request.predicate = NSPredicate(format: "magnitude >= 5")
            request.propertiesToUpdate = ["reviewed": true]
            request.resultType = .updatedObjectIDsResultType
            let result = try background.execute(request) as? NSBatchUpdateResult
            return result?.result as? [NSManagedObjectID] ?? []
        }
        // ANCHOR_END: batch-update
        print("NSBatchUpdateRequest updated \(updatedIDs.map(Feed.describe).joined(separator: ", "))")
        print("The store holds \(try Feed.count(in: container, "reviewed == YES")) reviewed quakes")
        print("The view context still shows: \(viewContext.performAndWait { Feed.list(strong) })")

        // ANCHOR: merge-updates
        NSManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSUpdatedObjectsKey: updatedIDs], into: [viewContext])
        // ANCHOR_END: merge-updates
        print("Merged, it shows:       \(viewContext.performAndWait { Feed.list(strong) })")
        print("")

        print("A magnitude below the model's minimum of 0:")
        // ANCHOR: no-validation
        let firstID = try Feed.save(Feed.quakes(count: 1, firstCode: 2001), into: container)[0]
        try background.performAndWait {
            background.object(with: firstID).setValue(-1.0, forKey: "magnitude")
            do {
                try background.save() // validation runs, and refuses
            } catch {
                print("  save() failed: \((error as NSError).domain) \((error as NSError).code)")
                background.rollback()
            }
            let request = NSBatchUpdateRequest(entityName: "Quake")
            request.predicate = NSPredicate(format: "code == %@", "nc2001")
            request.propertiesToUpdate = ["magnitude": -1.0]
            request.resultType = .updatedObjectsCountResultType
            let result = try background.execute(request) as? NSBatchUpdateResult
            print("  NSBatchUpdateRequest updated \(result?.result as? Int ?? 0) quake: no validation runs")
        }
        // ANCHOR_END: no-validation
        print("  The store holds \(try Feed.count(in: container, "magnitude < 0")) quake with a negative magnitude")
    }
}
