// versioning-3: Alerted in the last hour
//
// Return the to-dos whose lastAlertDate lies in the hour up to a given time, both ends
// included, most recently alerted first.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint versioning-3`.
//
// The model is Zarra's ToDo model (ToDoModels in WorkbookSupport): version "ToDo" has ToDo
// (title, dueDate, completed, category) and Category (name, todos); version "ToDo 2" adds
// ToDo.lastAlertDate and ToDo.doNotAlert.
import CoreData
import WorkbookSupport

/// versioning-3: the to-dos alerted in the hour up to `now` (lastAlertDate from one hour
/// before `now` to `now`, both included), most recently alerted first.
func todos(alertedInHourBefore now: Date, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    // TODO: a predicate on lastAlertDate with two dates (one %@, an NSArray), and a sort
    // descriptor.
    throw NotSolvedYet()
}
