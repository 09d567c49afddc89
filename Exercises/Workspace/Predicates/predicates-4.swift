// predicates-4: Exactly one person
//
// Return the one person with a given name, nil when there is none, and let the too-many error
// through when several share it.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint predicates-4`.
import CoreData
import ObjectGraph
import WorkbookSupport

/// predicates-4: the one person with exactly this name, or nil when there is none; when
/// several share it, let the error FetchUtilities throws reach the caller.
func person(named name: String, in context: NSManagedObjectContext) throws -> NSManagedObject? {
    // TODO: FetchUtilities has a method for exactly this.
    throw NotSolvedYet()
}
