// conflicts-2: Save over a stale read
//
// The editor read a book, then another context saved a new number of copies. Set the book's
// title in the editor and save it, so that the store keeps both the new title and the other
// context's copies.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// conflicts-2. Property by property, the editor's changes win and the store's stay where the
/// editor changed nothing. (editor.refresh(book, mergeChanges: true) before the save works too.)
func saveTitle(_ title: String, of bookID: NSManagedObjectID, in editor: NSManagedObjectContext) throws {
    try editor.performAndWait {
        editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        try editor.existingObject(with: bookID).setValue(title, forKey: "title")
        try editor.save()
    }
}
