// contexts-2: A scratch pad
//
// Change a book's title in a child context of the view context (a scratch pad). Keep the
// change (it becomes an unsaved change of the view context) or throw it away; never save the
// view context here.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// contexts-2. The child's save goes into its parent, the view context; throwing the change
/// away touches only the child, so the view context's own unsaved changes stay.
func editTitle(of bookID: NSManagedObjectID, to newTitle: String, keep: Bool, in viewContext: NSManagedObjectContext)
    throws
{
    let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    editor.parent = viewContext
    try editor.performAndWait {
        let book = try editor.existingObject(with: bookID)
        book.setValue(newTitle, forKey: "title")
        if keep {
            try editor.save()
        } else {
            editor.rollback()
        }
    }
}
