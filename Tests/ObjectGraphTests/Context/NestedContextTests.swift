import Foundation
import Testing

@testable import ObjectGraph

// Child contexts. Apple pages: NSManagedObjectContext, "Parent store" and parent; save() ("If a
// context's parent store is another managed object context, then save() only updates managed
// objects in that parent store. To commit changes to the external store, you must save changes
// in the chain of contexts up to and including the context whose parent is the persistent
// store coordinator"); init(concurrencyType:); NSManagedObjectContextConcurrencyType.
@Suite struct NestedContextTests {
    static let types: [StoreType] = [.sqlite, .xml, .inMemory]

    // save(): a child's save reaches its parent only; the parent's save reaches the store.
    @Test(arguments: types)
    func childSavePushesIntoTheParentNotTheStore(_ type: StoreType) throws {
        let fixture = try NestedContextFixture(type)
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        #expect(child.parent === parent)
        #expect(parent.parent == nil)
        #expect(child.persistentStoreCoordinator === fixture.coordinator)
        try child.performAndWait {
            let book = try child.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("D", forKey: "title")
            try book.checkedSetValue(4, forKey: "salesRank")
            try child.save()
            #expect(!child.hasChanges)
        }
        try parent.performAndWait { () throws in
            #expect(parent.hasChanges)
            #expect(try parent.insertedObjects.map { try $0.checkedValue(forKey: "title") as? String } == ["D"])
        }
        #expect(try fixture.storedTitles() == ["A", "B", "C"])
        try parent.performAndWait { try parent.save() }
        #expect(try fixture.storedTitles() == ["A", "B", "C", "D"])
    }

    // "Parent store": a child's fetch asks its parent, so it sees the parent's unsaved inserts,
    // changes (judged on their new values) and deletions, as counts and IDs do.
    @Test(arguments: types)
    func aChildFetchSeesTheParentsUnsavedState(_ type: StoreType) throws {
        let fixture = try NestedContextFixture(type)
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        try parent.performAndWait {
            let e = try parent.insertNewObject(forEntityName: "Book")
            try e.checkedSetValue("E", forKey: "title")
            try e.checkedSetValue(10, forKey: "salesRank")
            try NestedContextFixture.book("A", in: parent)?.checkedSetValue(20, forKey: "salesRank")
            try parent.checkedDelete(try #require(try NestedContextFixture.book("B", in: parent)))
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            #expect(try NestedContextFixture.titles(in: child) == ["A", "C", "E"])
            let ranked = try Predicate(checkedFormat: "salesRank >= 10")
            #expect(try NestedContextFixture.titles(in: child, predicate: ranked) == ["A", "E"])
            let request = FetchRequest(entityName: "Book")
            request.predicate = ranked
            #expect(try child.count(for: request) == 2)
            #expect(try child.fetchObjectIDs(request).count == 2)
            // The new object is the parent's, under the parent's temporary ID.
            let e = try #require(try NestedContextFixture.book("E", in: child))
            #expect(e.objectID.isTemporaryID)
            #expect(try e.checkedValue(forKey: "salesRank") as? Int == 10)
            // To-many relationships as the parent holds them: B is gone from its publisher.
            let publisher = try #require(
                try (NestedContextFixture.book("A", in: child))?.checkedValue(forKey: "publisher") as? ManagedObject)
            let books = try #require(try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)
            #expect(Set(try books.map { try $0.checkedValue(forKey: "title") as? String }) == ["A", "C"])
        }
        // The store has none of it.
        #expect(try fixture.storedTitles() == ["A", "B", "C"])
    }

    // Changes, deletions and relationships made in a child reach the store through the chain
    // of saves, with both sides of each relationship.
    @Test(arguments: types)
    func changesOfAChildReachTheStoreThroughItsParent(_ type: StoreType) throws {
        let fixture = try NestedContextFixture(type)
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            let a = try #require(try NestedContextFixture.book("A", in: child))
            try a.checkedSetValue("A2", forKey: "title")
            try child.checkedDelete(try #require(try NestedContextFixture.book("C", in: child)))
            let author = try child.insertNewObject(forEntityName: "Author")
            try author.checkedSetValue("Zarra", forKey: "name")
            try author.mutableSetValue(forKey: "books").insert(a)
            let publisher = try child.insertNewObject(forEntityName: "Publisher")
            try publisher.checkedSetValue("Other", forKey: "name")
            try NestedContextFixture.book("B", in: child)?.checkedSetValue(publisher, forKey: "publisher")
            try child.save()
        }
        try parent.performAndWait {
            #expect(parent.deletedObjects.count == 1)
            #expect(try NestedContextFixture.titles(in: parent) == ["A2", "B"])
            try parent.save()
        }
        let reader = ManagedObjectContext(coordinator: fixture.coordinator)
        #expect(try NestedContextFixture.titles(in: reader) == ["A2", "B"])
        let a2 = try #require(try NestedContextFixture.book("A2", in: reader))
        let authors = try #require(try a2.checkedValue(forKey: "authors") as? Set<ManagedObject>)
        #expect(try authors.map { try $0.checkedValue(forKey: "name") as? String } == ["Zarra"])
        let b = try #require(try NestedContextFixture.book("B", in: reader))
        let other = try #require(try b.checkedValue(forKey: "publisher") as? ManagedObject)
        #expect(try other.checkedValue(forKey: "name") as? String == "Other")
        #expect((try other.checkedValue(forKey: "books") as? Set<ManagedObject>)?.count == 1)
        let bookCo = try #require(try a2.checkedValue(forKey: "publisher") as? ManagedObject)
        #expect((try bookCo.checkedValue(forKey: "books") as? Set<ManagedObject>)?.count == 1)
    }

    // A failed child save (validation, as every save validates) leaves the parent as it was.
    @Test func aChildSaveThatFailsValidationChangesNothingInTheParent() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            _ = try child.insertNewObject(forEntityName: "Book") // no title: 1570
            let error = #expect(throws: CoreDataError.self) { try child.save() }
            #expect(error?.code == .missingMandatoryProperty)
            #expect(child.hasChanges)
        }
        parent.performAndWait { #expect(!parent.hasChanges) }
    }

    // Three levels: a grandchild's save lands in the child, then the parent, then the store.
    @Test func threeLevelsSaveUpTheChain() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let root = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let middle = ManagedObjectContext(concurrencyType: .mainQueue, parent: root)
        let leaf = ManagedObjectContext(concurrencyType: .privateQueue, parent: middle)
        try leaf.performAndWait {
            try NestedContextFixture.book("C", in: leaf)?.checkedSetValue("C3", forKey: "title")
            try leaf.save()
        }
        try middle.performAndWait {
            #expect(try NestedContextFixture.titles(in: middle) == ["A", "B", "C3"])
            try middle.save()
        }
        #expect(try fixture.storedTitles() == ["A", "B", "C"])
        try root.performAndWait { try root.save() }
        #expect(try fixture.storedTitles() == ["A", "B", "C3"])
    }

    // obtainPermanentIDs(for:): "converts the object IDs of the specified objects to permanent
    // IDs"; the object is still inserted until it is saved, and keeps the ID when it is.
    @Test(arguments: types)
    func obtainPermanentIDsBeforeSaving(_ type: StoreType) throws {
        let fixture = try NestedContextFixture(type)
        let context = ManagedObjectContext(coordinator: fixture.coordinator)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("D", forKey: "title")
        let temporary = book.objectID
        try context.obtainPermanentIDs(for: [book])
        let permanent = book.objectID
        #expect(!permanent.isTemporaryID)
        #expect(
            permanent.uriRepresentation().absoluteString == "x-coredata://00000000-0000-0000-0000-0000000000CC/Book/p4")
        #expect(context.insertedObjects.contains(book))
        // The old ID still finds the object.
        #expect(context.object(with: temporary) === book)
        try context.save()
        #expect(book.objectID == permanent)
        #expect(
            try ManagedObjectContext(coordinator: fixture.coordinator).existingObject(with: permanent).checkedValue(
                forKey: "title") as? String == "D")
    }

    // obtainPermanentIDs(for:) in a child: the ID holds in the parent and in the store, and
    // relationships that pointed at the temporary ID follow.
    @Test(arguments: types)
    func permanentIDsOfAChildHoldUpTheChain(_ type: StoreType) throws {
        let fixture = try NestedContextFixture(type)
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        let (bookID, publisherID) = try child.performAndWait {
            let publisher = try child.insertNewObject(forEntityName: "Publisher")
            try publisher.checkedSetValue("New", forKey: "name")
            let book = try child.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("D", forKey: "title")
            try book.checkedSetValue(publisher, forKey: "publisher")
            try child.obtainPermanentIDs(for: [book])
            #expect(!book.objectID.isTemporaryID)
            #expect(publisher.objectID.isTemporaryID)
            try child.save()
            return (book.objectID, publisher.objectID)
        }
        try parent.performAndWait {
            let book = parent.object(with: bookID)
            #expect(parent.insertedObjects.contains(book))
            #expect(
                try (book.checkedValue(forKey: "publisher") as? ManagedObject)?.checkedValue(forKey: "name") as? String
                    == "New")
            try parent.save()
            #expect(book.objectID == bookID)
            #expect(!parent.object(with: publisherID).objectID.isTemporaryID)
        }
        let reader = ManagedObjectContext(coordinator: fixture.coordinator)
        let stored = try reader.existingObject(with: bookID)
        #expect(
            try (stored.checkedValue(forKey: "publisher") as? ManagedObject)?.checkedValue(forKey: "name") as? String
                == "New")
        // The child, whose publisher kept its temporary ID, still reads it through the parent.
        try child.performAndWait { () throws in
            #expect(try child.existingObject(with: publisherID).checkedValue(forKey: "name") as? String == "New")
        }
    }

    // automaticallyMergesChangesFromParent: "whether the context automatically merges changes
    // saved to its persistent store coordinator or parent context". A context on the
    // coordinator merges another context's save; a child merges its parent's.
    @Test func automaticMergeFromTheCoordinatorAndFromAParent() async throws {
        let fixture = try NestedContextFixture(.sqlite)
        let coordinator = fixture.coordinator
        let viewer = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let aID = try viewer.performAndWait {
            viewer.automaticallyMergesChangesFromParent = true
            let a = try #require(try NestedContextFixture.book("A", in: viewer))
            #expect(try a.checkedValue(forKey: "salesRank") as? Int == 1)
            return a.objectID
        }
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try writer.performAndWait {
            try writer.existingObject(with: aID).checkedSetValue(7, forKey: "salesRank")
            try writer.save()
        }
        // The merge was enqueued on the viewer's queue during the save: a block after it sees it.
        let merged = try await viewer.perform(schedule: .enqueued) {
            try viewer.object(with: aID).checkedValue(forKey: "salesRank") as? Int
        }
        #expect(merged == 7)

        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: viewer)
        try child.performAndWait { () throws in
            child.automaticallyMergesChangesFromParent = true
            #expect(try child.existingObject(with: aID).checkedValue(forKey: "salesRank") as? Int == 7)
        }
        try viewer.performAndWait {
            try viewer.object(with: aID).checkedSetValue(8, forKey: "salesRank")
            try viewer.save()
        }
        let mergedInChild = try await child.perform(schedule: .enqueued) {
            try child.object(with: aID).checkedValue(forKey: "salesRank") as? Int
        }
        #expect(mergedInChild == 8)

        // Turned off, nothing more is merged.
        await child.perform { child.automaticallyMergesChangesFromParent = false }
        try viewer.performAndWait {
            try viewer.object(with: aID).checkedSetValue(9, forKey: "salesRank")
            try viewer.save()
        }
        let notMerged = try await child.perform(schedule: .enqueued) {
            try child.object(with: aID).checkedValue(forKey: "salesRank") as? Int
        }
        #expect(notMerged == 8)
    }

    // A child's performAndWait inside its parent's (and the parent's inside the child's)
    // runs without deadlock: the waiting queue lends its contexts to the block.
    @Test func nestedPerformAndWaitAcrossParentAndChild() throws {
        let fixture = try NestedContextFixture(.sqlite)
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        let titles = try parent.performAndWait {
            try child.performAndWait {
                #expect(child.isOnContextQueue && parent.isOnContextQueue)
                let inner = try parent.performAndWait { try NestedContextFixture.titles(in: parent) }
                return try NestedContextFixture.titles(in: child) + inner
            }
        }
        #expect(titles == ["A", "B", "C", "A", "B", "C"])
        #expect(!parent.isOnContextQueue && !child.isOnContextQueue)
    }
}
