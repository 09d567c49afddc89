// changes-3: The open to-dos
//
// Make a fetched results controller of the to-dos not completed, soonest due first, in one
// section, and fetch.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint changes-3`.
import CoreData
import WorkbookSupport

/// changes-3: a fetched results controller of the ToDo objects whose `completed` is false,
/// soonest `dueDate` first, in one section, already fetched. Called on the context's queue.
func openToDos(in context: NSManagedObjectContext) throws -> NSFetchedResultsController<NSManagedObject> {
    // TODO: a fetch request with a predicate and a sort descriptor, a controller for it, and
    // performFetch().
    throw NotSolvedYet()
}
