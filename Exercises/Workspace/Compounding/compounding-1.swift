// compounding-1: From any of these publishers
//
// Return the books whose publisher is any of the named publishers; with no names, no books.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint compounding-1`.
//
// The model is the chapter's bookstore: a Book has a title, an author, a salesRank (1 is the
// best seller) and at most one publisher; a Publisher has a name.
import CoreData
import WorkbookSupport

/// compounding-1: the books whose publisher is any of the named publishers. With no names
/// at all, no book qualifies.
func books(fromAnyOf publishers: [String], in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    // TODO: one `publisher.name == %@` predicate per name, combined with
    // NSCompoundPredicate(orPredicateWithSubpredicates:).
    throw NotSolvedYet()
}
