// conflicts-3: Read the conflict
//
// From a failed save's 133020 error, return the version of the book the context read, the
// version the store holds, and the number of copies the store holds.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint conflicts-3`.
import CoreData
import WorkbookSupport

/// conflicts-3: what the first conflict of a 133020 error says: the version read, the
/// store's version, and the store's number of copies. Runs on the saving context's queue.
func whatTheStoreHolds(after error: NSError) throws -> (read: Int, stored: Int, copies: Int) {
    // TODO: the conflicts are NSMergeConflict objects in the error's userInfo.
    throw NotSolvedYet()
}
