import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

// What a fetch asks of the coordinator as parent store. Apple pages: NSManagedObjectContext
// fetch(_:) and count(for:) ("the number of objects a given fetch request would have returned
// if it had been passed to fetch(_:)"); NSFetchRequest fetchLimit, fetchOffset,
// includesPendingChanges; NSPersistentStoreCoordinator ("a single persistent store
// coordinator can ... present a facade of multiple stores as a single unified store");
// "Persistent Store Types and Behaviors" (atomic stores evaluate predicates in memory).
@Suite struct ParentStoreFetchTests {
    /// Saves books of these ranks into a new SQLite store at `url`, with its own UUID.
    func makeStore(at url: URL, uuid: String, ranks: [Int], prefix: String) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [StoreOption.storeUUID: uuid])
        let context = ManagedObjectContext(coordinator: coordinator)
        for rank in ranks {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("\(prefix)\(rank)", forKey: "title")
            try book.checkedSetValue(rank, forKey: "salesRank")
        }
        try context.save()
    }

    // Two stores behind one coordinator: the sort, the offset and the limit apply to the
    // merged result, not to each store's; counts and IDs agree with it.
    @Test func sortOffsetAndLimitApplyToTheMergedResultOfTwoStores() throws {
        let directory = try TemporaryDirectory()
        try makeStore(
            at: directory.file("One.sqlite"), uuid: "00000000-0000-0000-0000-0000000000A1", ranks: [1, 4, 5, 8],
            prefix: "one-")
        try makeStore(
            at: directory.file("Two.sqlite"), uuid: "00000000-0000-0000-0000-0000000000A2", ranks: [2, 3, 6, 7],
            prefix: "two-")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("One.sqlite"))
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Two.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)

        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        #expect(
            try context.fetch(request).map { try $0.checkedValue(forKey: "salesRank") as? Int } == [
                1, 2, 3, 4, 5, 6, 7, 8,
            ])
        request.fetchOffset = 2
        request.fetchLimit = 3
        let window = try context.fetch(request)
        #expect(try window.map { try $0.checkedValue(forKey: "title") as? String } == ["two-3", "one-4", "one-5"])
        #expect(try context.count(for: request) == 3)
        #expect(try context.fetchObjectIDs(request) == window.map(\.objectID))
        // Each object keeps its own store's identity.
        #expect(
            Set(window.map(\.objectID.storeIdentifier)) == [
                "00000000-0000-0000-0000-0000000000A1", "00000000-0000-0000-0000-0000000000A2",
            ])
        // A predicate and a descending sort, merged the same way.
        request.predicate = try Predicate(checkedFormat: "salesRank > 2")
        request.sortDescriptors = [SortDescriptor(key: "salesRank", ascending: false)]
        request.fetchOffset = 1
        request.fetchLimit = 0
        #expect(try context.fetch(request).map { try $0.checkedValue(forKey: "salesRank") as? Int } == [7, 6, 5, 4, 3])
        #expect(try context.count(for: request) == 5)
        // The count of a window past the end.
        request.fetchOffset = 10
        #expect(try context.count(for: request) == 0)
        #expect(try context.fetch(request).isEmpty)
    }

    // An atomic store evaluates predicates on the context's objects; count and IDs must
    // agree with the fetch, for a block predicate (which sees managed objects) too.
    @Test(arguments: [StoreType.xml, .binary, .inMemory])
    func anAtomicStoresCountAndIDsAgreeWithItsFetch(_ type: StoreType) throws {
        let fixture = try NestedContextFixture(type, titles: ["A", "B", "C", "D"])
        let context = ManagedObjectContext(coordinator: fixture.coordinator)
        let request = FetchRequest(entityName: "Book")
        request.predicate = Predicate(block: { object, _ in
            // A managed object, as Core Data hands an atomic store's fetch.
            guard let book = object as? ManagedObject, let rank = try? book.checkedValue(forKey: "salesRank") as? Int
            else { return false }
            return rank % 2 == 0
        })
        let fetched = try context.fetch(request)
        #expect(fetched.count == 2)
        #expect(try context.count(for: request) == 2)
        #expect(Set(try context.fetchObjectIDs(request)) == Set(fetched.map(\.objectID)))
        request.fetchLimit = 1
        #expect(try context.count(for: request) == 1)
        #expect(try context.fetchObjectIDs(request).count == 1)
    }

    // With unsaved changes, fetchLimit applies after they are merged, and the store is asked
    // for the head of its answer only (offset + limit + one row per changed object), not
    // every row.
    @Test func aWindowWithPendingChangesMergesThemWithoutLoadingEveryRow() throws {
        let titles = (1...40).map { String(format: "T%02d", $0) }
        let fixture = try NestedContextFixture(.sqlite, titles: titles)
        let context = ManagedObjectContext(coordinator: fixture.coordinator)
        // T30 moves to the front, T02 is deleted, a new book ranks between 3 and 4.
        try NestedContextFixture.book("T30", in: context)?.checkedSetValue(0, forKey: "salesRank")
        try context.checkedDelete(try #require(try NestedContextFixture.book("T02", in: context)))
        let new = try context.insertNewObject(forEntityName: "Book")
        try new.checkedSetValue("New", forKey: "title")
        try new.checkedSetValue(3, forKey: "salesRank")

        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "salesRank"), SortDescriptor(key: "title")]
        let all = try context.fetch(request).map { try $0.checkedValue(forKey: "title") as? String }
        #expect(all.prefix(6) == ["T30", "T01", "New", "T03", "T04", "T05"])
        request.fetchOffset = 1
        request.fetchLimit = 4
        let log = LockedLines()
        fixture.coordinator.sqlLog.includesTimings = false
        fixture.coordinator.sqlLog.handler = { log.append($0) }
        let window = try context.fetch(request).map { try $0.checkedValue(forKey: "title") as? String }
        fixture.coordinator.sqlLog.handler = nil
        let lines = log.all
        #expect(window == Array(all[1..<5]))
        #expect(try context.count(for: request) == 4)
        // One statement, limited to offset 1 + limit 4 + one row per object changed or deleted
        // here (T30, T02, and the publisher T02's deletion changed): 8 of the 40 rows.
        #expect(lines.filter { $0.hasPrefix("CoreData: sql:") }.count == 1)
        #expect(lines.contains { $0.hasPrefix("CoreData: sql:") && $0.hasSuffix("LIMIT ? OFFSET ?") })
        #expect(context.updatedObjects.count + context.deletedObjects.count == 3)
        #expect(lines.contains("CoreData: annotation: fetch returned 8 rows."))
    }
}
