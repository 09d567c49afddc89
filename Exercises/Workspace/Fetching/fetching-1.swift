// fetching-1: Every book, by title
//
// Return every Book, sorted by title from A to Z without regard to case.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint fetching-1`.
import CoreData
import WorkbookSupport

/// fetching-1: every Book, sorted by title A to Z, ignoring case
/// ("apple" and "Apple" sort together).
func booksSortedByTitle(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    // TODO: build an NSFetchRequest for "Book" with a sort descriptor, and fetch.
    throw NotSolvedYet()
}
