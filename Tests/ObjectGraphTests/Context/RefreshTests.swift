import Foundation
import Testing

@testable import ObjectGraph

// Keeping a context's objects up to date with what other contexts saved, on every store type.
@Suite struct RefreshTests {
    static let storeTypes: [StoreType] = [.sqlite, .xml, .inMemory]

    // NSManagedObjectContext refresh(_:mergeChanges:) with true: the store's values are loaded
    // and the local changes applied over them; the object then saves without a conflict, and
    // the other context's change to another property survives.
    @Test(arguments: storeTypes)
    func refreshMergingThenSaveKeepsBothChanges(_ type: StoreType) throws {
        let race = try MergePolicyTests.Race(type)
        try race.run()
        try race.secondContext.checkedRefresh(race.second, mergeChanges: true)
        #expect(try race.second.checkedValue(forKey: "title") as? String == "Second")
        #expect(try race.second.checkedValue(forKey: "salesRank") as? Int == 10)
        #expect(race.secondContext.hasChanges)
        try race.secondContext.save()
        #expect(try race.stored() == ("Second", 10, "0123456789"))
    }

    // refresh(_:mergeChanges:) with false: pending changes are discarded, the object becomes a
    // fault and reloads the store's values on next access.
    @Test(arguments: storeTypes)
    func refreshWithoutMergingDiscardsChanges(_ type: StoreType) throws {
        let race = try MergePolicyTests.Race(type)
        try race.run()
        try race.secondContext.checkedRefresh(race.second, mergeChanges: false)
        #expect(race.second.isFault)
        #expect(!race.secondContext.hasChanges)
        #expect(try race.second.checkedValue(forKey: "title") as? String == "First")
        #expect(try race.second.checkedValue(forKey: "isbn") == nil)
    }

    // refresh(_:mergeChanges:) "always succeeds": merging an object another context deleted
    // keeps the local changes; the save then reports the conflict.
    @Test(arguments: storeTypes)
    func refreshMergingAnObjectDeletedElsewhereSucceeds(_ type: StoreType) throws {
        let race = try MergePolicyTests.Race(type)
        try race.fixture.context.checkedDelete(race.first)
        try race.fixture.context.save()
        try race.second.checkedSetValue("Second", forKey: "title")
        try race.secondContext.checkedRefresh(race.second, mergeChanges: true)
        #expect(try race.second.checkedValue(forKey: "title") as? String == "Second")
        let error = #expect(throws: CoreDataError.self) { try race.secondContext.save() }
        #expect(error?.code == .merge)
    }

    // NSFetchRequest shouldRefreshRefetchedObjects: false (the default) leaves fetched objects
    // with the values they have; true updates them with the store's current values. Unsaved
    // changes stay on top, as refresh(_:mergeChanges: true) keeps them.
    @Test(arguments: storeTypes)
    func shouldRefreshRefetchedObjects(_ type: StoreType) throws {
        let race = try MergePolicyTests.Race(type)
        try race.first.checkedSetValue("First", forKey: "title")
        try race.first.checkedSetValue(10, forKey: "salesRank")
        try race.fixture.context.save()

        let request = FetchRequest(entityName: "Book")
        #expect(!request.shouldRefreshRefetchedObjects)
        #expect(try race.secondContext.fetch(request) == [race.second])
        #expect(try race.second.checkedValue(forKey: "title") as? String == "T")

        try race.second.checkedSetValue("0123456789", forKey: "isbn")
        request.shouldRefreshRefetchedObjects = true
        #expect(try race.secondContext.fetch(request) == [race.second])
        #expect(try race.second.checkedValue(forKey: "title") as? String == "First")
        #expect(try race.second.checkedValue(forKey: "salesRank") as? Int == 10)
        #expect(try race.second.checkedValue(forKey: "isbn") as? String == "0123456789")
        // Refreshed, the object is read at the store's version: saving it is no conflict.
        try race.secondContext.save()
        #expect(try race.stored() == ("First", 10, "0123456789"))
    }

    // shouldRefreshRefetchedObjects with a fetchBatchSize: refetched objects become faults of
    // their batch and load the store's values on first use.
    @Test func shouldRefreshRefetchedObjectsWithBatches() throws {
        let race = try MergePolicyTests.Race(.sqlite)
        try race.first.checkedSetValue("First", forKey: "title")
        try race.fixture.context.save()
        #expect(try race.second.checkedValue(forKey: "title") as? String == "T")
        let request = FetchRequest(entityName: "Book")
        request.fetchBatchSize = 10
        request.shouldRefreshRefetchedObjects = true
        #expect(try race.secondContext.fetch(request) == [race.second])
        #expect(race.second.isFault)
        #expect(try race.second.checkedValue(forKey: "title") as? String == "First")
    }

    // refresh(_:mergeChanges:) keeps a changed many-to-many relationship: the links added
    // before the refresh are saved after it.
    @Test(arguments: storeTypes)
    func refreshMergingKeepsManyToManyChanges(_ type: StoreType) throws {
        let race = try MergePolicyTests.Race(type)
        let author = try race.secondContext.insertNewObject(forEntityName: "Author")
        try author.checkedSetValue("Ann", forKey: "name")
        try race.secondContext.save()
        try race.second.mutableSetValue(forKey: "authors").insert(author)
        try race.first.checkedSetValue("First", forKey: "title")
        try race.fixture.context.save()
        try race.secondContext.checkedRefresh(race.second, mergeChanges: true)
        try race.secondContext.checkedRefresh(author, mergeChanges: true)
        try race.secondContext.save()
        let reader = race.fixture.stack.secondContext()
        let book = try reader.existingObject(with: race.fixture.bookID)
        let authors = try #require(try book.checkedValue(forKey: "authors") as? Set<ManagedObject>)
        #expect(try authors.map { try $0.checkedValue(forKey: "name") as? String } == ["Ann"])
        #expect(try book.checkedValue(forKey: "title") as? String == "First")
    }
}
