// Several contexts on one coordinator: work confined with perform and performAndWait, object
// IDs passed between contexts, the merge conflict of optimistic locking and the merge
// policies that resolve it, refreshing, and merging another context's saves.
import ObjectGraph
import Foundation

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-contexts-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let model = try ManagedObjectModel {
    EntityDescription("Book") {
        AttributeDescription("title", .string, optional: false)
        AttributeDescription("salesRank", .integer32)
        AttributeDescription("isbn", .string)
    }
}
// snippet.show
// snippet.contexts
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("Books.sqlite"))
let writer = ManagedObjectContext(coordinator: coordinator)
let reader = ManagedObjectContext(coordinator: coordinator)

let bookID = try await writer.perform {
    let book = try writer.insertNewObject(forEntityName: "Book")
    try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
    try book.checkedSetValue(192, forKey: "salesRank")
    try writer.save()
    return book.objectID                  // the ID leaves the block; the object stays in writer
}
let title = try reader.performAndWait {
    try reader.existingObject(with: bookID).checkedValue(forKey: "title") as? String
}
print(title ?? "-")                       // Fetch, Clarus, Fetch
// snippet.end

// snippet.conflict
let mine = try writer.existingObject(with: bookID)
let theirs = try reader.existingObject(with: bookID)
try mine.checkedSetValue("Fetch Again", forKey: "title")
try mine.checkedSetValue(10, forKey: "salesRank")
try writer.save()                         // the row is now at version 2

try theirs.checkedSetValue("Fetch, Clarus!", forKey: "title")
try theirs.checkedSetValue("0123456789", forKey: "isbn")
do {
    try reader.save()                     // reader read version 1
} catch let error as CoreDataError where error.code == .merge {
    print(error.kind, error.key ?? "-")   // error 133020 title
    print(error.message)
    // Could not merge changes: another context saved x-coredata://.../Book/p1 (version 1 read,
    // 2 in the store; title changed here and in the store; isbn changed here; salesRank changed
    // in the store) first. Refresh the objects (refresh(_:mergeChanges:)) and save again, or set
    // the context's mergePolicy
}
try reader.checkedRefresh(theirs, mergeChanges: true)   // the store's values, reader's changes on top
try reader.save()
print(try theirs.checkedValue(forKey: "title") ?? "-", try theirs.checkedValue(forKey: "salesRank") ?? "-")
// Fetch, Clarus! 10
// snippet.end

// snippet.hide
/// Two contexts race on a new book (title "T", rank 1): the first renames it "First", sets its
/// rank to 10 and saves; the second, with `policy`, renames it "Second", sets its ISBN and
/// saves. Returns the book as the store then holds it: title, rank, ISBN.
func race(_ policy: MergePolicy) throws -> String {
    let first = ManagedObjectContext(coordinator: coordinator)
    let book = try first.insertNewObject(forEntityName: "Book")
    try book.checkedSetValue("T", forKey: "title")
    try book.checkedSetValue(1, forKey: "salesRank")
    try first.save()
    let second = ManagedObjectContext(coordinator: coordinator)
    second.mergePolicy = policy
    let same = try second.existingObject(with: book.objectID)
    try book.checkedSetValue("First", forKey: "title")
    try book.checkedSetValue(10, forKey: "salesRank")
    try first.save()
    try same.checkedSetValue("Second", forKey: "title")
    try same.checkedSetValue("0123456789", forKey: "isbn")
    try second.save()
    let stored = try ManagedObjectContext(coordinator: coordinator).existingObject(with: book.objectID)
    return try ["title", "salesRank", "isbn"].map { "\(try stored.checkedValue(forKey: $0) ?? "nil")" }.joined(separator: " ")
}
// snippet.show
// snippet.policies
// Each race: a saved book "T" (rank 1); one context sets title "First" and rank 10 and saves;
// then a second context, with the policy, sets title "Second" and an ISBN and saves.
for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback] {
    print(policy.mergeType, try race(policy))   // title, rank and ISBN in the store afterwards
}
// mergeByPropertyObjectTrump Second 10 0123456789
// mergeByPropertyStoreTrump First 10 0123456789
// overwrite Second 1 0123456789
// rollback First 10 nil
// snippet.end

// snippet.customPolicy
final class LoggingMergePolicy: MergePolicy, @unchecked Sendable {
    override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
        for conflict in list {
            print(conflict.oldVersionNumber, conflict.newVersionNumber, conflict.conflictingKeys,
                  conflict.persistedSnapshot?["title"] ?? "deleted")
        }
        try super.resolve(optimisticLockingConflicts: list)   // then merge as mergeType says
    }
}
print(try race(LoggingMergePolicy(merge: .mergeByPropertyObjectTrump)))
// 1 2 ["title"] First
// Second 10 0123456789
// snippet.end

// snippet.merging
let observer = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didSaveNotification, object: reader, queue: nil
) { notification in
    writer.performAndWait {
        do { try writer.checkedMergeChanges(fromContextDidSave: notification) } catch { print(error) }
    }
}
try theirs.checkedSetValue("Fetch, Clarus, Fetch (2nd ed.)", forKey: "title")
try reader.save()                         // posts the notification; writer merges it
print(try mine.checkedValue(forKey: "title") ?? "-")     // Fetch, Clarus, Fetch (2nd ed.)
NotificationCenter.default.removeObserver(observer)
// snippet.end

// snippet.refetch
try mine.checkedSetValue(7, forKey: "salesRank")
try writer.save()                         // nobody merges this one
let request = FetchRequest(entityName: "Book")
request.predicate = try Predicate(checkedFormat: "isbn == %@", "0123456789")
_ = try reader.fetch(request)
print(try theirs.checkedValue(forKey: "salesRank") ?? "-")   // 10: a fetch keeps registered objects as they are
request.shouldRefreshRefetchedObjects = true
_ = try reader.fetch(request)
print(try theirs.checkedValue(forKey: "salesRank") ?? "-")   // 7
// snippet.end

// snippet.retry
/// Adds one to a book's rank `times` times in a context of its own, retrying each save that
/// another context beat.
func bump(_ id: ManagedObjectID, times: Int) async throws {
    let context = ManagedObjectContext(coordinator: coordinator)
    try await context.perform {
        for _ in 0..<times {
            while true {
                let book = try context.existingObject(with: id)
                let rank = try book.checkedValue(forKey: "salesRank") as? Int ?? 0
                try book.checkedSetValue(rank + 1, forKey: "salesRank")
                do {
                    try context.save()
                    break
                } catch let error as CoreDataError where error.code == .merge {
                    try context.checkedRefresh(book, mergeChanges: false)   // drop the stale change, read again
                }
            }
        }
    }
}
async let a: Void = bump(bookID, times: 100)
async let b: Void = bump(bookID, times: 100)
_ = try await (a, b)
print(try reader.performAndWait {
    try reader.checkedRefreshAllObjects()
    return try theirs.checkedValue(forKey: "salesRank") ?? "-"
})                                        // 207: no increment lost
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
