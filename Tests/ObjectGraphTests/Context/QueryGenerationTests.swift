import Foundation
import Testing

@testable import ObjectGraph

// Query generations, as Apple's "Accessing data when the store changes" and the rules in
// NSManagedObjectContext.h (queryGenerationToken, setQueryGenerationFrom(_:)) describe them:
// a pinned context reads the stores as they were when it pinned, until a save, reset or merge
// moves it on; child contexts defer to their parent; only SQLite stores in WAL mode keep
// generations; saving is not generational.
@Suite("Query generations")
struct QueryGenerationTests {
    /// Saves a change to the store through a context of its own: renames a book, adds one and
    /// deletes another, as a background context or another process would.
    private func changeStore(_ fixture: NestedContextFixture) throws {
        let writer = ManagedObjectContext(coordinator: fixture.coordinator)
        try #require(try NestedContextFixture.book("A", in: writer)).checkedSetValue("A2", forKey: "title")
        try writer.checkedDelete(try #require(try NestedContextFixture.book("B", in: writer)))
        let added = try writer.insertNewObject(forEntityName: "Book")
        try added.checkedSetValue("D", forKey: "title")
        try added.checkedSetValue(4, forKey: "salesRank")
        try writer.save()
    }

    @Test("A pinned context does not see what others save until it moves to the current generation")
    func pinnedContextReadsItsGeneration() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let pinned = ManagedObjectContext(coordinator: fixture.coordinator)
        #expect(pinned.queryGenerationToken == nil)
        try pinned.setQueryGenerationFrom(.current)
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "B", "C"])
        #expect(pinned.queryGenerationToken != nil)

        try changeStore(fixture)
        #expect(try fixture.storedTitles() == ["A2", "C", "D"])
        // Fetches, counts and IDs all read the generation it pinned.
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "B", "C"])
        let newBooks = FetchRequest(entityName: "Book")
        newBooks.predicate = try Predicate(checkedFormat: "title == %@", "D")
        #expect(try pinned.count(for: newBooks) == 0)
        #expect(try pinned.fetch(newBooks).isEmpty)

        try pinned.setQueryGenerationFrom(.current)
        #expect(try pinned.count(for: newBooks) == 1)
        #expect(try NestedContextFixture.titles(in: pinned).contains("D"))
        try pinned.setQueryGenerationFrom(nil)
        #expect(pinned.queryGenerationToken == nil)
        #expect(try pinned.count(for: FetchRequest(entityName: "Book")) == 3)
    }

    @Test("A fault fired in a pinned context shows the row as it was in its generation")
    func faultsReadTheGeneration() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let pinned = ManagedObjectContext(coordinator: fixture.coordinator)
        try pinned.setQueryGenerationFrom(.current)
        let request = FetchRequest(entityName: "Book")
        request.predicate = try Predicate(checkedFormat: "title == %@", "A")
        request.returnsObjectsAsFaults = true
        request.includesPropertyValues = false
        let book = try #require(try pinned.fetch(request).first)
        #expect(book.isFault)
        try changeStore(fixture)
        #expect(try book.checkedValue(forKey: "title") as? String == "A")
        // A deleted object's fault still fires: in the generation it exists.
        let b = try #require(try NestedContextFixture.book("B", in: pinned))
        #expect(try b.checkedValue(forKey: "salesRank") as? Int == 2)
    }

    @Test("A context set to another's token reads the same generation; tokens are equal")
    func tokensAreShared() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let first = ManagedObjectContext(coordinator: fixture.coordinator)
        try first.setQueryGenerationFrom(.current)
        let token = try #require(first.queryGenerationToken)
        try changeStore(fixture)

        let second = ManagedObjectContext(coordinator: fixture.coordinator)
        try second.setQueryGenerationFrom(token)
        #expect(second.queryGenerationToken == token)
        #expect(try NestedContextFixture.titles(in: second) == ["A", "B", "C"])
        #expect(token != QueryGenerationToken.current)
        #expect(QueryGenerationToken.current.description == "QueryGenerationToken(current)")
        #expect(token.description.hasPrefix("QueryGenerationToken(generation "))
    }

    @Test("Saving a pinned context checks conflicts against the store now, then moves it on")
    func savingIsNotGenerational() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let pinned = ManagedObjectContext(coordinator: fixture.coordinator)
        try pinned.setQueryGenerationFrom(.current)
        let a = try #require(try NestedContextFixture.book("A", in: pinned))
        _ = try a.checkedValue(forKey: "title")
        let c = try #require(try NestedContextFixture.book("C", in: pinned))
        try changeStore(fixture)

        // A was renamed by another context after the pinned one read it: optimistic locking
        // compares with the store as it is, so this save conflicts.
        try a.checkedSetValue(10, forKey: "salesRank")
        let error = try #require(throws: CoreDataError.self) { try pinned.save() }
        #expect(error.code == .merge)
        pinned.rollback()

        // A save without conflict succeeds and moves the context to the generation after it.
        try c.checkedSetValue(30, forKey: "salesRank")
        try pinned.save()
        // B's deletion and D's insertion show; A keeps the values the context holds for it,
        // as a fetch does not refresh registered objects.
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "C", "D"])
    }

    @Test("reset() and mergeChanges(fromContextDidSave:) move a pinned context to the current generation")
    func resetAndMergeAdvance() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let pinned = ManagedObjectContext(coordinator: fixture.coordinator)
        try pinned.setQueryGenerationFrom(.current)
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "B", "C"])
        try changeStore(fixture)
        pinned.reset()
        #expect(try NestedContextFixture.titles(in: pinned) == ["A2", "C", "D"])

        let merging = ManagedObjectContext(coordinator: fixture.coordinator)
        try merging.setQueryGenerationFrom(.current)
        let c = try #require(try NestedContextFixture.book("C", in: merging))
        #expect(try c.checkedValue(forKey: "salesRank") as? Int == 3)
        let writer = ManagedObjectContext(coordinator: fixture.coordinator)
        try #require(try NestedContextFixture.book("C", in: writer)).checkedSetValue(33, forKey: "salesRank")
        try writer.save()
        let saved = Notification(
            name: ManagedObjectContext.didSaveNotification, object: writer,
            userInfo: [ManagedObjectContext.updatedObjectIDsKey: Set([c.objectID])])
        try merging.checkedMergeChanges(fromContextDidSave: saved)
        #expect(try c.checkedValue(forKey: "salesRank") as? Int == 33)
    }

    @Test("A batch update does not move a pinned context on")
    func batchUpdateDoesNotAdvance() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let pinned = ManagedObjectContext(coordinator: fixture.coordinator)
        try pinned.setQueryGenerationFrom(.current)
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "B", "C"])
        let update = BatchUpdateRequest(entityName: "Book")
        update.propertiesToUpdate = ["title": "Z"]
        _ = try pinned.execute(update)
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "B", "C"])
        #expect(try fixture.storedTitles() == ["Z", "Z", "Z"])
    }

    @Test("A child context reads its parent's generation, returns no token and cannot be set")
    func childContextsDeferToTheirParent() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        try parent.performAndWait { try parent.setQueryGenerationFrom(.current) }
        _ = try parent.performAndWait { try NestedContextFixture.titles(in: parent) }
        try changeStore(fixture)

        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            #expect(child.queryGenerationToken == nil)
            #expect(try NestedContextFixture.titles(in: child) == ["A", "B", "C"])
            let error = try #require(throws: CoreDataError.self) { try child.setQueryGenerationFrom(.current) }
            #expect(error.exceptionName == .invalidArgument)
            #expect(error.message.contains("child context"))
            try child.setQueryGenerationFrom(nil)
        }
    }

    @Test("Only SQLite stores in WAL mode keep generations; a token of another coordinator is refused")
    func storesWithoutGenerations() throws {
        let directory = try TemporaryDirectory()
        let rollbackJournal = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try rollbackJournal.addPersistentStore(
            type: .sqlite, at: directory.file("Journal.sqlite"),
            options: [StoreOption.sqlitePragmas: ["journal_mode": "DELETE"]])
        let context = ManagedObjectContext(coordinator: rollbackJournal)
        let error = try #require(throws: CoreDataError.self) { try context.setQueryGenerationFrom(.current) }
        #expect(error.exceptionName == .invalidArgument)
        #expect(error.message.contains("Journal.sqlite") && error.message.contains("WAL"))

        // An in-memory store is read as it is now by a pinned context.
        let memory = try NestedContextFixture(.inMemory)
        let pinned = ManagedObjectContext(coordinator: memory.coordinator)
        try pinned.setQueryGenerationFrom(.current)
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "B", "C"])
        try changeStore(memory)
        // B's deletion and D's insertion show (A keeps the values the context holds).
        #expect(try NestedContextFixture.titles(in: pinned) == ["A", "C", "D"])

        let sqlite = try NestedContextFixture(.sqlite)
        let other = ManagedObjectContext(coordinator: sqlite.coordinator)
        try other.setQueryGenerationFrom(.current)
        let token = try #require(other.queryGenerationToken)
        let refused = try #require(throws: CoreDataError.self) { try pinned.setQueryGenerationFrom(token) }
        #expect(refused.message.contains("another persistent store coordinator"))
    }
}
