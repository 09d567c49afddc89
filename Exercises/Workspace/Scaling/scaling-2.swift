// scaling-2: One fetch, two stores
//
// Return a fetch request for the to-dos not done whose due date is before the given date,
// soonest first. The check runs it on SQLite and on PostgreSQL, and both must give the same
// answer.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise. Without PostgreSQL, only SQLite is checked.
// Stuck? `swift run workbook exercises hint scaling-2`.
import CoreData
import WorkbookSupport

/// scaling-2: the open to-dos due before `date`, soonest first.
func openToDos(dueBefore date: Date) throws -> NSFetchRequest<NSManagedObject> {
    // TODO: a request for "ToDo" with a predicate on completed and dueDate, and a sort.
    throw NotSolvedYet()
}
