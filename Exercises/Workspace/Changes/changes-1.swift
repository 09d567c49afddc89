// changes-1: What did the save change?
//
// Observe the context's saves and report, once per save, how many objects it inserted,
// updated and deleted.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint changes-1`.
import CoreData
import WorkbookSupport

/// changes-1: observes each save of `context` and calls `report` once per save with the
/// numbers of objects it inserted, updated and deleted; returns the observer (the caller
/// removes it).
func reportSaves(
    of context: NSManagedObjectContext,
    to report: @escaping @Sendable (_ inserted: Int, _ updated: Int, _ deleted: Int) -> Void
) throws -> NSObjectProtocol {
    // TODO: NotificationCenter.default.addObserver(forName: ..., object: context, queue: nil),
    // and in its block count the sets in the notification's userInfo.
    throw NotSolvedYet()
}
