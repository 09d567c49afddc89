import CoreData
import Foundation
import Testing
import WorkbookSupport

@testable import BatchChapter

// Every behaviour the batch chapter states, asserted through its sections' output and through
// the API. Each test names the Apple page it comes from.
@Suite struct BatchChapterTests {
    static func output(_ name: String) throws -> String {
        try ChapterRunner.output(of: try ChapterRunner.section(named: name, in: BatchChapter.self))
    }

    /// A container on a fresh store holding the feed's first `count` quakes.
    static func container(_ bench: Workbench, quakes count: Int = 8, history: Bool = false) throws
        -> NSPersistentContainer
    {
        let container = try Feed.makeContainer(in: bench.makeDataFolder(), history: history)
        try Feed.save(Feed.quakes(count: count), into: container)
        return container
    }

    // NSBatchInsertRequest: the rows go straight into the store; the context makes no object
    // and posts nothing; the result is what resultType asks for; with a uniqueness constraint and
    // NSMergeByPropertyObjectTrumpMergePolicy a stored code is updated ("preventing duplicate
    // records", Loading and Displaying a Large Data Feed).
    @Test func aBatchInsertMakesNoObjectsAndTellsNoContext() throws {
        let text = try Self.output("batch-insert")
        #expect(text.contains("  objects in the context: 3; did-save notifications: 1"), "\(text)")
        #expect(
            text.contains(
                "  result: Quake/p4, Quake/p5, Quake/p6, Quake/p7, Quake/p8\n"
                    + "  objects in the context: 0; did-save notifications: 0, objects-did-change: none\n"
                    + "  the store holds 8 quakes"), "\(text)")
        #expect(text.contains("  result: 5\n  the store holds 8 quakes"), "\(text)")
        // Merging the inserted IDs is how a fetched results controller on the view context hears of them.
        #expect(text.hasSuffix("did-save notifications: 0, objects-did-change: (inserted 5)"), "\(text)")
    }

    // NSBatchUpdateRequest: an object the view context holds keeps its old values until the
    // updated IDs are merged with mergeChanges(fromRemoteContextSave:into:).
    @Test func aBatchUpdateIsSeenOnlyAfterTheMerge() throws {
        let bench = Workbench { _ in }
        let container = try Self.container(bench)
        let viewContext = container.viewContext
        let quakes = try viewContext.performAndWait {
            try viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake"))
        }
        let background = container.newBackgroundContext()
        let ids: [NSManagedObjectID] = try background.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Quake")
            request.propertiesToUpdate = ["reviewed": true]
            request.resultType = .updatedObjectIDsResultType
            return try (background.execute(request) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID] ?? []
        }
        #expect(ids.count == 8)
        #expect(try Feed.count(in: container, "reviewed == YES") == 8)
        func reviewed() -> Int {
            viewContext.performAndWait { quakes.filter { $0.value(forKey: "reviewed") as? Bool == true }.count }
        }
        #expect(reviewed() == 0)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [viewContext])
        #expect(reviewed() == 8)
    }

    // NSBatchUpdateRequest's page: validation rules are not applied; a save of the same value fails.
    @Test func aBatchUpdateSkipsValidation() throws {
        let text = try Self.output("batch-update")
        #expect(text.contains("  save() failed: NSCocoaErrorDomain 1620"), "\(text)")
        #expect(text.contains("  NSBatchUpdateRequest updated 1 quake: no validation runs"), "\(text)")
        #expect(text.hasSuffix("The store holds 1 quake with a negative magnitude"), "\(text)")
        #expect(text.contains("The view context still shows: nc1002 M4.7 Anza, CA;") == false, "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        let before = try #require(lines.first { $0.hasPrefix("The view context still shows: ") })
        let after = try #require(lines.first { $0.hasPrefix("Merged, it shows: ") })
        #expect(!before.contains("reviewed") && after.contains("reviewed"), "\(text)")
    }

    // NSBatchDeleteRequest: "NSManagedObjectContext doesn't automatically merge a request's
    // deletions"; merged, the deleted objects leave the view context.
    @Test func aBatchDeleteLeavesTheViewContextUntilMerged() throws {
        let text = try Self.output("batch-delete")
        #expect(text.contains("NSBatchDeleteRequest deleted Quake/p1, Quake/p3, Quake/p6"), "\(text)")
        #expect(text.contains("The store holds 5 quakes\nThe view context still holds 8 quakes"), "\(text)")
        #expect(text.contains("Merged, it holds 5;"), "\(text)")
        #expect(text.contains("objects-did-change: (deleted 3)"), "\(text)")
        #expect(text.hasSuffix("By object IDs, one of them already deleted: 1 deleted\nThe store holds 4 quakes"))
    }

    // With --sql, a batch request is its statements and the annotation that ends them, printed
    // where the request ran: the batch delete is one DELETE of the keys its fetch selected.
    @Test func theSQLOfABatchDeleteIsOneStatement() throws {
        let text = try ChapterRunner.output(
            of: try ChapterRunner.section(named: "batch-delete", in: BatchChapter.self), showingSQL: true)
        #expect(
            text.contains(
                "    CoreData: sql: DELETE FROM ZQUAKE WHERE Z_PK IN (?, ?, ?)\n"
                    + "    CoreData: annotation: batch delete of Quake objects.\n"
                    + "NSBatchDeleteRequest deleted Quake/p1, Quake/p3, Quake/p6"), "\(text)")
        #expect(text.components(separatedBy: "CoreData: sql: DELETE").count == 3, "two batch deletes: \(text)")
    }

    // The work chart: a batch request makes no managed object and posts no notification; a batch
    // update and a batch delete are one statement each, where the context's ways run one per quake.
    @Test func theWorkChartCountsWhatEachWayDoes() throws {
        let rows = try Self.output("work-chart").split(separator: "\n").dropFirst(2).map { line in
            line.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(rows.count == 6)
        let byWay = Dictionary(uniqueKeysWithValues: rows.map { ($0[1], $0) })
        for way in ["NSBatchInsertRequest", "NSBatchUpdateRequest", "NSBatchDeleteRequest"] {
            #expect(byWay[way]?[2] == "0", "objects, \(way)")
            #expect(byWay[way]?[3] == "0", "notifications, \(way)")
        }
        for way in ["context save", "fetch, change, save", "fetch, delete, save"] {
            #expect(byWay[way]?[2] == "1000", "objects, \(way)")
            #expect(Int(byWay[way]?[4] ?? "") ?? 0 >= 1000, "statements, \(way)")
        }
        #expect(byWay["NSBatchUpdateRequest"]?[4] == "1")
        #expect(byWay["NSBatchDeleteRequest"]?[4] == "1")
    }

    // `batch --timings`, the chart the book's checked output leaves out: one line per way, each
    // batch request's with how many times as fast it was. (Only its shape is tested: times vary.)
    @Test func theTimingsPrintOneBarPerWay() throws {
        var lines: [String] = []
        try WorkChart.printTimings(runs: 1) { lines.append($0) }
        #expect(lines.first == "On 1,000 quakes, the median of 1 run:")
        #expect(lines.count == 7, "\(lines)")
        for (index, line) in lines.dropFirst().enumerated() {
            #expect(line.contains(" ms  #"), "\(line)")
            #expect(line.hasSuffix("x as fast") == (index % 2 == 1), "\(line)")
        }
    }

    // Consuming Relevant Store Changes: another process's save and batch delete are in the
    // history after the token, with their author; merged, the view context shows them.
    @Test func historyShowsWhatTheOtherProcessChanged() throws {
        let text = try Self.output("history")
        try #require(!text.contains("is not built"), "the batch executable is needed: \(text)")
        #expect(text.contains("  saved 2 new quakes and a new magnitude for nc1002"), "\(text)")
        #expect(
            text.contains(
                "  transaction 2 by importer (context import)\n    insert Quake/p4\n    insert Quake/p5\n"
                    + "    update Quake/p2 of magnitude\n  transaction 3 by importer (context import)\n"
                    + "    delete Quake/p1\n  transaction 4 by app"), "\(text)")
        #expect(text.contains("Merged, the view context shows: nc1002 M4.9 Anza, CA; nc1003"), "\(text)")
        #expect(text.contains("Its objects no longer in the store: nc1001"), "\(text)")
        #expect(text.contains("  4 transactions purged\n  history after no token at all: 0 transactions"), "\(text)")
        #expect(text.hasSuffix("  history after the first token: error 134301, the token has expired"), "\(text)")
    }

    // NSPersistentHistoryChangeRequest.deleteHistory(before:) "purges history older than that
    // defined by a given token": here the token's own transaction goes too (errata, R7), so
    // that what is left is exactly what fetchHistory(after:) of the same token returns.
    @Test func deletingHistoryBeforeATokenPurgesTheTokensTransactionToo() throws {
        let bench = Workbench { _ in }
        let container = try Self.container(bench, quakes: 1, history: true)
        let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        try Feed.save(Feed.quakes(count: 1, firstCode: 2001), into: container)
        let context = container.newBackgroundContext()
        let purged: Int = try context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.deleteHistory(before: token)
            request.resultType = .count
            return (try context.execute(request) as? NSPersistentHistoryResult)?.result as? Int ?? -1
        }
        #expect(purged == 1)
        let left = try History.fetchHistory(after: nil, in: context)
        #expect(left.map(\.transactionNumber) == [2])
        #expect(try History.fetchHistory(after: token, in: context).map(\.transactionNumber) == [2])
    }

    // NSBatchDeleteRequest's page: "available only when using a SQLite persistent store". Here
    // the in-memory and XML stores run batch requests too (errata, R8).
    @Test func aBatchDeleteRunsOnAnInMemoryStoreToo() throws {
        let container = NSPersistentContainer(name: "Quakes", managedObjectModel: try BatchModels.quakes())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(type: NSInMemoryStoreType, url: nil)]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        try Feed.save(Feed.quakes(count: 8), into: container)
        let context = container.newBackgroundContext()
        let deleted: Int = try context.performAndWait {
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
            fetch.predicate = NSPredicate(format: "magnitude < 2.5")
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = .resultTypeCount
            return (try context.execute(request) as? NSBatchDeleteResult)?.result as? Int ?? -1
        }
        #expect(deleted == 3)
        #expect(try Feed.count(in: container) == 5)
    }

    // The second process prints what it did, and the chapter's executable lists its sections.
    @Test func theSectionsAreListedInBookOrder() {
        #expect(
            BatchChapter.sections.map(\.name) == [
                "batch-insert", "batch-update", "batch-delete", "work-chart", "history",
            ])
    }
}
