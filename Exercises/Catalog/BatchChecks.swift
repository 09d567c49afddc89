import BatchChapter
import Foundation
import ObjectGraph
import WorkbookSupport

/// How the chapter 9 exercises are judged: each check builds a container on a fresh SQLite
/// store holding the chapter's feed of quakes, calls the learner's code, then reads the store
/// (and the view context, or the history) and explains what differs from what the chapter shows.
public enum BatchChecks {
    /// The quakes every check starts from: ten, magnitudes 1.0 to 6.6.
    static var feed: [[String: Any]] { Feed.quakes(count: 10) }

    /// The feed's quakes whose magnitude passes `test`, by code.
    static func codes(where test: (Double) -> Bool) -> Set<String> {
        Set(feed.filter { test($0["magnitude"] as? Double ?? 0) }.compactMap { $0["code"] as? String })
    }

    /// batch-1's limit: quakes below it are deleted.
    static let deleteBelow = 2.5

    /// batch-1: the quakes below a magnitude deleted with one batch delete, and their number returned.
    public static func deleteSmallQuakes(_ attempt: (Double, PersistentContainer) throws -> Int) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try Feed.makeContainer(in: bench.makeDataFolder())
            try Feed.save(feed, into: container)
            let tally = StatementTally(watching: container)
            let returned = try attempt(deleteBelow, container)
            let small = codes { $0 < deleteBelow }.count
            let left = try Feed.count(in: container)
            let smallLeft = try Feed.count(in: container, "magnitude < 2.5")
            var problems: [String] = []
            if left == 0 {
                problems.append(
                    "The store holds no quakes: every one was deleted. Give the batch delete's fetch request a predicate, NSPredicate(format: \"magnitude < %@\", magnitude as NSNumber), so that it deletes only the small ones."
                )
            } else if smallLeft > 0 {
                problems.append(
                    "The store still holds \(smallLeft) quakes below \(deleteBelow): the request's fetch request should select magnitude < \(deleteBelow) (and the request must be executed: try context.execute(request))."
                )
            } else if left != feed.count - small {
                problems.append(
                    "The store holds \(left) quakes; it should hold \(feed.count - small): quakes of \(deleteBelow) or more were deleted too. The predicate is magnitude < %@, not <=."
                )
            }
            if tally.deletes > 1 {
                problems.append(
                    "The store ran \(tally.deletes) DELETE statements, one per quake: that is fetch, delete and save through a context, which loads every quake. NSBatchDeleteRequest(fetchRequest:) runs one DELETE in the store, without loading any."
                )
            }
            if returned != small {
                problems.append(
                    "You returned \(returned); \(small) quakes were below \(deleteBelow). Set the request's resultType to .resultTypeCount before executing it, and return (result as? NSBatchDeleteResult)?.result as? Int: the default result type, .resultTypeStatusOnly, gives only true."
                )
            }
            return problems
        }
    }

    /// The limit of batch-2: quakes at or above it are marked reviewed.
    static let reviewFrom = 5.0

    /// batch-2: the strong quakes marked reviewed by one batch update, merged into the view
    /// context, which holds every quake.
    public static func reviewStrongQuakes(_ attempt: (Double, PersistentContainer) throws -> Void) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try Feed.makeContainer(in: bench.makeDataFolder())
            try Feed.save(feed, into: container)
            let viewContext = container.viewContext
            let all = FetchRequest<ManagedObject>(entityName: "Quake")
            let shown = try viewContext.performAndWait { try viewContext.fetch(all) }
            let tally = StatementTally(watching: container)
            try attempt(reviewFrom, container)
            let strong = codes { $0 >= reviewFrom }
            let stored = try Feed.count(in: container, "reviewed == YES")
            var problems: [String] = []
            if stored == 0 {
                problems.append(
                    "No quake is reviewed in the store. Give NSBatchUpdateRequest(entityName: \"Quake\") propertiesToUpdate = [\"reviewed\": true] and the predicate magnitude >= %@, and execute it on a context: try context.execute(request)."
                )
                return problems
            }
            if stored != strong.count {
                problems.append(
                    "The store holds \(stored) reviewed quakes; \(strong.count) have a magnitude of \(reviewFrom) or more. The request's predicate should be magnitude >= %@, with the magnitude as an NSNumber."
                )
            }
            if tally.updates > 1 {
                problems.append(
                    "The store ran \(tally.updates) UPDATE statements, one per quake: that is a fetch and a save through a context. NSBatchUpdateRequest changes them all with one UPDATE, without loading them."
                )
            }
            let viewShows: [(code: String, reviewed: Bool)] = viewContext.performAndWait {
                shown.map {
                    (
                        (try? $0.checkedValue(forKey: "code")) as? String ?? "",
                        (try? $0.checkedValue(forKey: "reviewed")) as? Bool ?? false
                    )
                }
            }
            let stale = viewShows.filter { strong.contains($0.code) && !$0.reviewed }
            if !stale.isEmpty {
                problems.append(
                    "The view context still shows \(stale.map(\.code).sorted().joined(separator: ", ")) as not reviewed: a batch update changes the store only. Ask for .updatedObjectIDsResultType, then NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [container.viewContext])."
                )
            }
            return problems
        }
    }

    /// The author of the app's own saves in batch-3.
    static let appAuthor = "app"

    /// batch-3: the IDs of the quakes another author inserted after a token, in history's order.
    public static func insertedByOthers(
        _ attempt: (PersistentHistoryToken?, PersistentContainer) throws -> [ManagedObjectID]
    ) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try Feed.makeContainer(in: bench.makeDataFolder(), history: true)
            // An import the app has already read: the token is the last of it.
            let early = try Feed.save(Feed.quakes(count: 2), into: container, author: "importer")
            let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
            let imported = try Feed.save(Feed.quakes(count: 3, firstCode: 3001), into: container, author: "importer")
            let importer = container.newBackgroundContext()
            importer.transactionAuthor = "importer"
            try importer.performAndWait {
                try importer.existingObject(with: imported[0]).checkedSetValue(5.5, forKey: "magnitude")
                try importer.save()
                let deletion = BatchDeleteRequest(objectIDs: [early[0]])
                _ = try importer.execute(deletion)
            }
            let own = try Feed.save(Feed.quakes(count: 1, firstCode: 4001), into: container, author: appAuthor)
            let answer = try attempt(token, container)
            if answer == imported { return [] }
            var problems: [String] = []
            if answer.isEmpty {
                problems.append(
                    "You returned no IDs; the importer inserted 3 quakes after the token. Fetch NSPersistentHistoryChangeRequest.fetchHistory(after: token) with a context's execute, and read the result's transactions (result as? [NSPersistentHistoryTransaction])."
                )
                return problems
            }
            if answer.contains(early[1]) {
                problems.append(
                    "You returned quakes inserted before the token: fetchHistory(after: nil) gives all of history. Pass the token, so that only what came after it is fetched."
                )
            }
            if answer.contains(own[0]) {
                problems.append(
                    "You returned a quake the app inserted itself: keep only the transactions whose author is not \"\(appAuthor)\", as \"Consuming Relevant Store Changes\" does."
                )
            }
            // nc1001 is inserted before the token and deleted after it: twice in an answer that ignored
            // the token, once as its deletion in one that kept every kind of change.
            let deletions = answer.count(where: { $0 == early[0] }) - (answer.contains(early[1]) ? 1 : 0)
            if answer.count(where: { $0 == imported[0] }) > 1 || deletions > 0 {
                problems.append(
                    "You returned IDs of updated or deleted quakes too: keep only the changes whose changeType is .insert."
                )
            }
            if problems.isEmpty {
                problems.append(
                    "You returned \(answer.count) IDs; the importer inserted 3 quakes after the token, and they should come in the order history gives them (transaction by transaction, change by change)."
                )
            }
            return problems
        }
    }
}

/// Counts the UPDATE and DELETE statements a container's store runs from now on: one for a batch
/// request, one per object for a save.
final class StatementTally: @unchecked Sendable {
    // @unchecked Sendable: the counts are changed and read under `lock` only.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// Starts counting the statements of `container`'s coordinator.
    init(watching container: PersistentContainer) {
        container.persistentStoreCoordinator.sqlLog.handler = { [weak self] line in self?.count(line) }
    }

    private func count(_ line: String) {
        for verb in ["UPDATE ZQUAKE", "DELETE FROM ZQUAKE"] where line.hasPrefix("CoreData: sql: " + verb) {
            lock.lock()
            counts[verb, default: 0] += 1
            lock.unlock()
        }
    }

    /// UPDATE statements on the quakes' table (not Z_PRIMARYKEY's bookkeeping, which every save runs).
    var updates: Int {
        lock.lock()
        defer { lock.unlock() }
        return counts["UPDATE ZQUAKE", default: 0]
    }

    /// DELETE statements on the quakes' table.
    var deletes: Int {
        lock.lock()
        defer { lock.unlock() }
        return counts["DELETE FROM ZQUAKE", default: 0]
    }
}
