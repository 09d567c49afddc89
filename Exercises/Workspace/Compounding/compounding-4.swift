// compounding-4: None of the above
//
// Return the books that match none of the given predicates; with no predicates, every book.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint compounding-4`.
//
// The model is the chapter's bookstore: a Book has a title, an author, a salesRank (1 is the
// best seller) and at most one publisher; a Publisher has a name.
import CoreData
import WorkbookSupport

/// compounding-4: the books that match none of the given predicates. With no predicates,
/// every book matches none of them.
func books(matchingNoneOf predicates: [NSPredicate], in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    // TODO: a NOT around a single compound of the predicates.
    throw NotSolvedYet()
}
