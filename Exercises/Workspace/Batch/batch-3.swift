// batch-3: What the others inserted
//
// From the store's persistent history after the token, return the IDs of the quakes that
// authors other than "app" inserted, in the order history gives them.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint batch-3`.
import CoreData
import WorkbookSupport

/// batch-3: the IDs of the quakes inserted after `token` by any author but "app".
func quakesInsertedByOthers(after token: NSPersistentHistoryToken?, in container: NSPersistentContainer) throws
    -> [NSManagedObjectID]
{
    // TODO: fetch the history after the token on a background context; keep other authors'
    // transactions, and their insertions.
    throw NotSolvedYet()
}
