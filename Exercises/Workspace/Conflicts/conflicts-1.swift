// conflicts-1: Import without duplicates
//
// Insert one Book per row (its code and title) on a background context and save it, so that
// a code the store already holds updates that book's title instead of failing the save.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint conflicts-1`.
import CoreData
import WorkbookSupport

/// conflicts-1: imports `rows` as books; a code already stored updates its book.
func importBooks(_ rows: [(code: String, title: String)], into container: NSPersistentContainer) throws {
    // TODO: a background context; inside its performAndWait choose its mergePolicy, insert a
    // Book per row (setValue for "code" and "title"), and save.
    throw NotSolvedYet()
}
