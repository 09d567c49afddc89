// contexts-2: A scratch pad
//
// Change a book's title in a child context of the view context (a scratch pad). Keep the
// change (it becomes an unsaved change of the view context) or throw it away; never save the
// view context here.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint contexts-2`.
import CoreData
import WorkbookSupport

/// contexts-2: sets the title of the book `bookID` to `newTitle` in a child context of
/// `viewContext`. When `keep` is true the child is saved, so the change becomes an unsaved
/// change of the view context; otherwise the change is thrown away. The view context is not
/// saved, and its own unsaved changes stay as they are.
func editTitle(of bookID: NSManagedObjectID, to newTitle: String, keep: Bool, in viewContext: NSManagedObjectContext)
    throws
{
    // TODO: a new NSManagedObjectContext whose parent is viewContext; inside its
    // performAndWait, find the book by its ID, set its title, then save or throw away.
    throw NotSolvedYet()
}
