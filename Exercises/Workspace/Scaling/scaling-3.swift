// scaling-3: Save over another process's change
//
// The editor read a to-do; then another process, with its own coordinator and connections,
// marked it done. Set the to-do's title in the editor and save, so that the store keeps both
// the new title and the other process's done.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise. Without PostgreSQL the check is skipped.
// Stuck? `swift run workbook exercises hint scaling-3`.
import CoreData
import WorkbookSupport

/// scaling-3: saves `title` as the title of to-do `id` in `editor`, keeping the other's change.
func saveTitle(_ title: String, of id: NSManagedObjectID, in editor: NSManagedObjectContext) throws {
    // TODO: inside editor.performAndWait, choose the editor's mergePolicy, set the title and save.
    throw NotSolvedYet()
}
