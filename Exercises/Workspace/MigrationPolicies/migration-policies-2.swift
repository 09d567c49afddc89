// migration-policies-2: A rule without code
//
// Write the value expression of version 2's doNotAlert: YES for a to-do that is completed or
// has no due date, NO otherwise.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint migration-policies-2`.
//
// The models are Zarra's ToDo versions: version 1 (ToDo: title, dueDate, completed, category;
// Category: name, todos), version 2 (adds lastAlertDate and doNotAlert, default NO) and the
// chapter's version 3 (completed gives way to completedDate, an optional date).
import CoreData
import WorkbookSupport

/// migration-policies-2: the value expression, in the format language, of version 2's
/// doNotAlert: YES for a to-do that is completed or has no due date, NO for the others.
/// The checker puts it in Xcode's default mapping model and migrates a store with it.
func doNotAlertValueExpression() throws -> String {
    // TODO: return #"..."# (see the chapter's value expressions).
    throw NotSolvedYet()
}
