// changes-1: What did the save change?
//
// Observe the context's saves and report, once per save, how many objects it inserted,
// updated and deleted.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// changes-1. The did-save notification comes once per save with everything it saved; a set
/// with nothing in it is left out of the user info, so a missing key counts as 0.
func reportSaves(
    of context: NSManagedObjectContext,
    to report: @escaping @Sendable (_ inserted: Int, _ updated: Int, _ deleted: Int) -> Void
) throws -> NSObjectProtocol {
    NotificationCenter.default.addObserver(
        forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
    ) { notification in
        func count(_ key: NSManagedObjectContext.NotificationKey) -> Int {
            (notification.userInfo?[key.rawValue] as? Set<NSManagedObject>)?.count ?? 0
        }
        report(count(.insertedObjects), count(.updatedObjects), count(.deletedObjects))
    }
}
