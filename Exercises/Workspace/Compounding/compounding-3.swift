// compounding-3: Where the parentheses go
//
// Write one format string for the books published by either of two publishers that are also
// ranked better than a given rank.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint compounding-3`.
//
// The model is the chapter's bookstore: a Book has a title, an author, a salesRank (1 is the
// best seller) and at most one publisher; a Publisher has a name.
import CoreData
import WorkbookSupport

/// compounding-3: ONE format string, with its arguments, for the books published by
/// `first` or by `second` that are also ranked better than `rank`.
func predicate(publishedBy first: String, or second: String, rankedBetterThan rank: Int) throws -> NSPredicate {
    // TODO: return NSPredicate(format: "...", first, second, NSNumber(value: rank))
    throw NotSolvedYet()
}
