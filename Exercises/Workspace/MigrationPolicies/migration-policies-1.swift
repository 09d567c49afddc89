// migration-policies-1: Done means quiet
//
// Write the policy of the ToDo mapping from version 1 to version 2 that sets doNotAlert for
// the to-dos already completed, and only those, keeping every to-do's attributes and category.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint migration-policies-1`.
//
// The models are Zarra's ToDo versions: version 1 (ToDo: title, dueDate, completed, category;
// Category: name, todos), version 2 (adds lastAlertDate and doNotAlert, default NO) and the
// chapter's version 3 (completed gives way to completedDate, an optional date).
import CoreData
import WorkbookSupport

/// migration-policies-1: the policy of the ToDo mapping from version 1 to version 2 that
/// sets doNotAlert for the to-dos that are already completed, and only for those. Each new
/// to-do keeps its title, dueDate and completed, and its category.
final class DoNotAlertWhenCompletedPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        // TODO: make the version 2 to-do (or let super make it), set doNotAlert, and make
        // sure the second pass can find it again.
        throw NotSolvedYet()
    }
}
