// predicates-1: Bob in any case
//
// Return the people whose name equals the given name when case is ignored, but not accents.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint predicates-1`.
import CoreData
import WorkbookSupport

/// predicates-1: the people whose name is `name` when case is ignored, but accents are
/// not ("bob" finds Bob and BOB, not Böb).
func people(named name: String, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    // TODO: a fetch of "Person" with a predicate that uses an option after the operator.
    throw NotSolvedYet()
}
