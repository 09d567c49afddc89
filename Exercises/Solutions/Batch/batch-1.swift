// batch-1: Delete the small quakes
//
// Delete every quake whose magnitude is below the given one with a single batch delete, and
// return how many it deleted.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// batch-1. One DELETE in the store: no quake is loaded, and the count comes back as the result.
func deleteQuakes(below magnitude: Double, in container: NSPersistentContainer) throws -> Int {
    let context = container.newBackgroundContext()
    return try context.performAndWait {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
        fetch.predicate = NSPredicate(format: "magnitude < %@", magnitude as NSNumber)
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeCount
        let result = try context.execute(request) as? NSBatchDeleteResult
        return result?.result as? Int ?? 0
    }
}
