// contexts-3: Pass it on
//
// Make the reader take in every save of the writer: observe the writer's did-save
// notification and merge it into the reader, on the reader's queue.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint contexts-3`.
import CoreData
import WorkbookSupport

/// contexts-3: observes the did-save notification of `writer` and merges each into `reader`
/// on the reader's queue; returns the observer (the caller removes it).
func mergeSaves(of writer: NSManagedObjectContext, into reader: NSManagedObjectContext) throws -> NSObjectProtocol {
    // TODO: NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, ...),
    // and in its block reader.perform { reader.mergeChanges(fromContextDidSave: notification) }.
    throw NotSolvedYet()
}
