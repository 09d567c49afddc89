// fetching-2: Who earns more?
//
// Return the employees who earn more than the given amount, highest salary first.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint fetching-2`.
import CoreData
import WorkbookSupport

/// fetching-2: the employees who earn more than `amount`, highest salary first.
/// Pass the amount as a format argument; don't paste it into the format string.
func employees(earningMoreThan amount: Int, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    // TODO: a predicate with %@ (which takes an object: an NSNumber), and a descending sort
    // on salary.
    throw NotSolvedYet()
}
