// compounding-2: Bestsellers from anyone else
//
// Return the books ranked better than the given rank (salesRank < rank) that the given
// publisher did not publish; books with no publisher count as not published by it.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint compounding-2`.
//
// The model is the chapter's bookstore: a Book has a title, an author, a salesRank (1 is the
// best seller) and at most one publisher; a Publisher has a name.
import CoreData
import WorkbookSupport

/// compounding-2: the books ranked better than `rank` (salesRank < rank) that are not
/// published by `publisher`. A book with no publisher is not published by it either.
func bestsellers(rankedBetterThan rank: Int, notFrom publisher: String, in context: NSManagedObjectContext) throws
    -> [NSManagedObject]
{
    // TODO: NSCompoundPredicate(andPredicateWithSubpredicates:) of a comparison and a NOT
    // (notPredicateWithSubpredicate:).
    throw NotSolvedYet()
}
