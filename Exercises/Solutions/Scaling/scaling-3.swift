// scaling-3: Save over another process's change
//
// The editor read a to-do; then another process, with its own coordinator and connections,
// marked it done. Set the to-do's title in the editor and save, so that the store keeps both
// the new title and the other process's done.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// scaling-3. The policy writes only what the editor changed, over the other process's save.
func saveTitle(_ title: String, of id: NSManagedObjectID, in editor: NSManagedObjectContext) throws {
    try editor.performAndWait {
        editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        editor.object(with: id).setValue(title, forKey: "title")
        try editor.save()
    }
}
