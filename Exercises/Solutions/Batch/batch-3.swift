// batch-3: What the others inserted
//
// From the store's persistent history after the token, return the IDs of the quakes that
// authors other than "app" inserted, in the order history gives them.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// batch-3. History after the token, another author's transactions, their insertions.
func quakesInsertedByOthers(after token: NSPersistentHistoryToken?, in container: NSPersistentContainer) throws
    -> [NSManagedObjectID]
{
    let context = container.newBackgroundContext()
    let transactions: [NSPersistentHistoryTransaction] = try context.performAndWait {
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
        let result = try context.execute(request) as? NSPersistentHistoryResult
        return result?.result as? [NSPersistentHistoryTransaction] ?? []
    }
    return transactions.filter { $0.author != "app" }
        .flatMap { $0.changes ?? [] }
        .filter { $0.changeType == .insert }
        .map(\.changedObjectID)
}
