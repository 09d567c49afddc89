// batch-2: Review the strong quakes
//
// Mark every quake of the given magnitude or more as reviewed with a single batch update, and
// make the view context, which shows every quake, show the change.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint batch-2`.
import CoreData
import WorkbookSupport

/// batch-2: sets `reviewed` on the quakes of `magnitude` or more in the store, and merges the
/// change into `container.viewContext`.
func markReviewed(atLeast magnitude: Double, in container: NSPersistentContainer) throws {
    // TODO: an NSBatchUpdateRequest executed on a background context, asking for the updated
    // objects' IDs; then merge them into the view context.
    throw NotSolvedYet()
}
