// batch-1: Delete the small quakes
//
// Delete every quake whose magnitude is below the given one with a single batch delete, and
// return how many it deleted.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint batch-1`.
import CoreData
import WorkbookSupport

/// batch-1: deletes the quakes below `magnitude` in the store, without loading them; returns
/// how many were deleted.
func deleteQuakes(below magnitude: Double, in container: NSPersistentContainer) throws -> Int {
    // TODO: an NSBatchDeleteRequest made from a fetch request with a predicate, executed on a
    // background context inside its performAndWait, with a result type that counts.
    throw NotSolvedYet()
}
