// Several contexts on one coordinator: work confined with perform and performAndWait, object
// IDs passed between contexts, the merge conflict of optimistic locking and the merge
// policies that resolve it, refreshing, and merging another context's saves.
import CoreData

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-contexts-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let model = try NSManagedObjectModel {
    NSEntityDescription("Book") {
        NSAttributeDescription("title", .string, optional: false)
        NSAttributeDescription("salesRank", .integer32)
        NSAttributeDescription("isbn", .string)
    }
}
// snippet.show
// snippet.contexts
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("Books.sqlite"))
let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
writer.persistentStoreCoordinator = coordinator
let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
reader.persistentStoreCoordinator = coordinator

let bookID = try await writer.perform {
    let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer)
    book.setValue("Fetch, Clarus, Fetch", forKey: "title")
    book.setValue(192, forKey: "salesRank")
    try writer.save()
    return book.objectID // the ID leaves the block; the object stays in writer
}
let title = try reader.performAndWait {
    try reader.existingObject(with: bookID).value(forKey: "title") as? String
}
print(title ?? "-") // Fetch, Clarus, Fetch
// snippet.end

// snippet.conflict
let mine = try writer.performAndWait { try writer.existingObject(with: bookID) }
let theirs = try reader.performAndWait { try reader.existingObject(with: bookID) }
try writer.performAndWait {
    mine.setValue("Fetch Again", forKey: "title")
    mine.setValue(10, forKey: "salesRank")
    try writer.save() // the row is now at version 2
}
try reader.performAndWait {
    theirs.setValue("Fetch, Clarus!", forKey: "title")
    theirs.setValue("0123456789", forKey: "isbn")
    do {
        try reader.save() // reader read version 1
    } catch {
        let error = error as NSError // Core Data's domain, code and user info
        print(error.code, error.userInfo[NSValidationKeyErrorKey] ?? "-") // 133020 title
        print(error.localizedDescription)
        // Could not merge changes: another context saved x-coredata://.../Book/p1 (version 1 read,
        // 2 in the store; title changed here and in the store; isbn changed here; salesRank changed
        // in the store) first. Refresh the objects (refresh(_:mergeChanges:)) and save again, or set
        // the context's mergePolicy
    }
    reader.refresh(theirs, mergeChanges: true) // the store's values, reader's changes on top
    try reader.save()
    print(theirs.value(forKey: "title") ?? "-", theirs.value(forKey: "salesRank") ?? "-")
    // Fetch, Clarus! 10
}
// snippet.end

// snippet.hide
/// Two contexts race on a new book (title "T", rank 1): the first renames it "First", sets its
/// rank to 10 and saves; the second, with `policy`, renames it "Second", sets its ISBN and
/// saves. Returns the book as the store then holds it: title, rank, ISBN.
func race(_ policy: NSMergePolicy) throws -> String {
    func context() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }
    let first = context()
    let book = try first.performAndWait {
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: first)
        book.setValue("T", forKey: "title")
        book.setValue(1, forKey: "salesRank")
        try first.save()
        return book
    }
    let second = context()
    second.mergePolicy = policy
    let same = try second.performAndWait { try second.existingObject(with: book.objectID) }
    try first.performAndWait {
        book.setValue("First", forKey: "title")
        book.setValue(10, forKey: "salesRank")
        try first.save()
    }
    try second.performAndWait {
        same.setValue("Second", forKey: "title")
        same.setValue("0123456789", forKey: "isbn")
        try second.save()
    }
    let check = context()
    return try check.performAndWait {
        let stored = try check.existingObject(with: book.objectID)
        return ["title", "salesRank", "isbn"].map { "\(stored.value(forKey: $0) ?? "nil")" }.joined(separator: " ")
    }
}
// snippet.show
// snippet.policies
// Each race: a saved book "T" (rank 1); one context sets title "First" and rank 10 and saves;
// then a second context, with the policy, sets title "Second" and an ISBN and saves.
for policy in [NSMergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback] {
    print(policy.mergeType, try race(policy)) // title, rank and ISBN in the store afterwards
}
// mergeByPropertyObjectTrump Second 10 0123456789
// mergeByPropertyStoreTrump First 10 0123456789
// overwrite Second 1 0123456789
// rollback First 10 nil
// snippet.end

// snippet.customPolicy
final class LoggingMergePolicy: NSMergePolicy, @unchecked Sendable {
    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        for conflict in list {
            print(
                conflict.oldVersionNumber, conflict.newVersionNumber, conflict.persistedSnapshot?["title"] ?? "deleted")
        }
        try super.resolve(optimisticLockingConflicts: list) // then merge as mergeType says
    }
}
print(try race(LoggingMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)))
// 1 2 First
// Second 10 0123456789
// snippet.end

// snippet.merging
let observer = NotificationCenter.default.addObserver(
    forName: .NSManagedObjectContextDidSave, object: reader, queue: nil
) { notification in
    writer.performAndWait { writer.mergeChanges(fromContextDidSave: notification) }
}
try reader.performAndWait {
    theirs.setValue("Fetch, Clarus, Fetch (2nd ed.)", forKey: "title")
    try reader.save() // posts the notification; writer merges it
}
print(writer.performAndWait { mine.value(forKey: "title") } ?? "-") // Fetch, Clarus, Fetch (2nd ed.)
NotificationCenter.default.removeObserver(observer)
// snippet.end

// snippet.refetch
try writer.performAndWait {
    mine.setValue(7, forKey: "salesRank")
    try writer.save() // nobody merges this one
}
try reader.performAndWait {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
    request.predicate = NSPredicate(format: "isbn == %@", "0123456789")
    _ = try reader.fetch(request)
    print(theirs.value(forKey: "salesRank") ?? "-") // 10: a fetch keeps registered objects as they are
    request.shouldRefreshRefetchedObjects = true
    _ = try reader.fetch(request)
    print(theirs.value(forKey: "salesRank") ?? "-") // 7
}
// snippet.end

// snippet.retry
/// Adds one to a book's rank `times` times in a context of its own, retrying each save that
/// another context beat.
func bump(_ id: NSManagedObjectID, times: Int) async throws {
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    try await context.perform {
        for _ in 0..<times {
            while true {
                let book = try context.existingObject(with: id)
                let rank = book.value(forKey: "salesRank") as? Int ?? 0
                book.setValue(rank + 1, forKey: "salesRank")
                do {
                    try context.save()
                    break
                } catch let error where (error as NSError).code == NSManagedObjectMergeError {
                    context.refresh(book, mergeChanges: false) // drop the stale change, read again
                }
            }
        }
    }
}
async let a: Void = bump(bookID, times: 100)
async let b: Void = bump(bookID, times: 100)
_ = try await (a, b)
print(
    reader.performAndWait {
        reader.refreshAllObjects()
        return theirs.value(forKey: "salesRank") ?? "-"
    }) // 207: no increment lost
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
