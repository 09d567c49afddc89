// fetching-3: The lowest salary
//
// Return the lowest salary of all saved employees, computed by the store, or nil when there
// are none.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint fetching-3`.
import CoreData
import WorkbookSupport

/// fetching-3: the lowest salary of all employees, computed by the store (dictionary
/// results and an expression description), or nil when there are no employees.
func lowestSalary(in context: NSManagedObjectContext) throws -> Decimal? {
    // TODO: resultType .dictionaryResultType, an NSExpressionDescription with min:(salary).
    throw NotSolvedYet()
}
