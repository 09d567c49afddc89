// contexts-1: Import in the background
//
// Insert one Book per title on a new background context of the container, save it, and
// return the books' object IDs in the order of the titles.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint contexts-1`.
import CoreData
import WorkbookSupport

/// contexts-1: inserts a Book for each title on a background context, saves it, and returns
/// the books' permanent object IDs, in the order of `titles`.
func importBooks(titled titles: [String], into container: NSPersistentContainer) throws -> [NSManagedObjectID] {
    // TODO: container.newBackgroundContext(), then inside its performAndWait insert the books,
    // save, and return their objectIDs.
    throw NotSolvedYet()
}
