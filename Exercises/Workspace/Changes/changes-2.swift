// changes-2: Renamed, not saved
//
// Return the context's unsaved title changes: for each updated to-do whose title changed,
// its saved title mapped to its new one.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint changes-2`.
import CoreData
import WorkbookSupport

/// changes-2: the to-dos of `context` whose title changed since they were fetched or saved,
/// each saved title mapped to the new title. Called on the context's queue.
func titleChanges(in context: NSManagedObjectContext) throws -> [String: String] {
    // TODO: go through context.updatedObjects, and ask each one's changedValues() and
    // committedValues(forKeys:).
    throw NotSolvedYet()
}
