// predicates-2: Any key, any value
//
// Build a predicate that is true when the object's value for a key equals a value, both chosen
// at run time.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint predicates-2`.
import CoreData
import WorkbookSupport

/// predicates-2: a predicate that is true when the object's value for `key` equals
/// `value`, for any key and any value chosen at run time.
func predicate(key: String, equals value: Any) throws -> NSPredicate {
    // TODO: one format string, two specifiers.
    throw NotSolvedYet()
}
