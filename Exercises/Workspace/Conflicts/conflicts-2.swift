// conflicts-2: Save over a stale read
//
// The editor read a book, then another context saved a new number of copies. Set the book's
// title in the editor and save it, so that the store keeps both the new title and the other
// context's copies.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint conflicts-2`.
import CoreData
import WorkbookSupport

/// conflicts-2: sets the title of the book `bookID` in `editor` and saves it, keeping what
/// another context saved since the editor read the book.
func saveTitle(_ title: String, of bookID: NSManagedObjectID, in editor: NSManagedObjectContext) throws {
    // TODO: inside editor.performAndWait, set the title and save without losing the other
    // context's change (a plain save fails with 133020).
    throw NotSolvedYet()
}
