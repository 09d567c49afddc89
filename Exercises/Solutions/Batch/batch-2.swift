// batch-2: Review the strong quakes
//
// Mark every quake of the given magnitude or more as reviewed with a single batch update, and
// make the view context, which shows every quake, show the change.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// batch-2. One UPDATE in the store; the view context learns of it from the updated IDs.
func markReviewed(atLeast magnitude: Double, in container: NSPersistentContainer) throws {
    let context = container.newBackgroundContext()
    let ids: [NSManagedObjectID] = try context.performAndWait {
        let request = NSBatchUpdateRequest(entityName: "Quake")
        request.predicate = NSPredicate(format: "magnitude >= %@", magnitude as NSNumber)
        request.propertiesToUpdate = ["reviewed": true]
        request.resultType = .updatedObjectIDsResultType
        let result = try context.execute(request) as? NSBatchUpdateResult
        return result?.result as? [NSManagedObjectID] ?? []
    }
    NSManagedObjectContext.mergeChanges(
        fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [container.viewContext])
}
