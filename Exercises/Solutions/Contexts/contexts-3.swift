// contexts-3: Pass it on
//
// Make the reader take in every save of the writer: observe the writer's did-save
// notification and merge it into the reader, on the reader's queue.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// contexts-3. The notification is posted on the writer's queue, so the merge hops to the
/// reader's with perform. A Notification is not Sendable in Swift 6; the merge only reads it.
func mergeSaves(of writer: NSManagedObjectContext, into reader: NSManagedObjectContext) throws -> NSObjectProtocol {
    NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) {
        notification in
        nonisolated(unsafe) let notification = notification
        reader.perform { reader.mergeChanges(fromContextDidSave: notification) }
    }
}
