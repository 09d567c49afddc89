// predicates-3: Teenagers
//
// Return the people aged 13 to 19, both included, youngest first.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint predicates-3`.
import CoreData
import WorkbookSupport

/// predicates-3: the teenagers (13 to 19, both included), youngest first.
func teenagers(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    // TODO: a predicate on "age" and a sort descriptor.
    throw NotSolvedYet()
}
