import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSManagedObjectContext and NSFetchRequest reference; Core Data Programming Guide,
// "Faulting and Uniquing" and "Fetching Managed Objects". Each test runs on both store types.
@Suite struct ContextBehaviourTests {
    static let storeTypes: [StoreType] = [.inMemory, .sqlite]

    // Core Data raises "could not fulfill a fault" when a fault's context is gone; reading it
    // must be a clear error, never a silent nil standing in for a stored value.
    @Test(arguments: storeTypes)
    func aFaultWhoseContextIsGoneIsAnErrorNotNil(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        let id = try fixture.seedBooks(["A"]).objectID
        var context: ManagedObjectContext? = fixture.secondContext()
        let fault = try #require(context?.object(with: id))
        #expect(fault.isFault)
        context = nil
        let error = #expect(throws: CoreDataError.self) { _ = try fault.checkedValue(forKey: "name") }
        #expect(error?.key == "name")
        #expect(error?.message.contains("fault") == true)
    }

    // Faulting and Uniquing: objectWithID: returns the registered object or a fault and never
    // does I/O; existingObjectWithID: fails for an object that is not in the store.
    @Test(arguments: storeTypes)
    func objectIDsAndURIs(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        let publisher = try fixture.seedBooks(["A"])
        let uri = publisher.objectID.uriRepresentation()
        #expect(uri.absoluteString == "x-coredata://00000000-0000-0000-0000-0000000000BB/Publisher/p1")
        let id = try #require(fixture.coordinator.managedObjectID(forURIRepresentation: uri))
        #expect(id == publisher.objectID)
        let other = fixture.secondContext()
        let statements = fixture.sql {
            let fault = other.object(with: id)
            #expect(fault.isFault)
        }
        #expect(statements.isEmpty)
        #expect(try other.existingObject(with: id).checkedValue(forKey: "name") as? String == "BookCo")
        let missing = ManagedObjectID(
            uriRepresentation: URL(string: "x-coredata://00000000-0000-0000-0000-0000000000BB/Publisher/p99")!)!
        let error = #expect(throws: CoreDataError.self) { _ = try other.existingObject(with: missing) }
        #expect(error?.code == .referentialIntegrity)
        #expect(
            fixture.coordinator.managedObjectID(
                forURIRepresentation: URL(string: "x-coredata://OTHER-STORE/Publisher/p1")!) == nil)
    }

    @Test(arguments: storeTypes)
    func temporaryIDsBecomePermanentOnSave(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        let book = try fixture.context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("T", forKey: "title")
        let temporary = book.objectID
        #expect(temporary.isTemporaryID)
        #expect(temporary.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Book/t"))
        try fixture.context.save()
        #expect(!book.objectID.isTemporaryID)
        // The temporary ID still finds the object in the context that saved it.
        #expect(fixture.context.object(with: temporary) === book)
    }

    @Test(arguments: storeTypes)
    func rollbackAndReset(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        let publisher = try fixture.seedBooks(["A", "B"])
        try publisher.checkedSetValue("Renamed", forKey: "name")
        let extra = try fixture.context.insertNewObject(forEntityName: "Book")
        try extra.checkedSetValue("C", forKey: "title")
        #expect(fixture.context.hasChanges)
        fixture.context.rollback()
        #expect(!fixture.context.hasChanges)
        #expect(try publisher.checkedValue(forKey: "name") as? String == "BookCo")
        #expect(extra.managedObjectContext == nil)
        #expect(try fixture.context.count(for: FetchRequest(entityName: "Book")) == 2)
        fixture.context.reset()
        #expect(fixture.context.registeredObjects.isEmpty)
        #expect(publisher.managedObjectContext == nil)
    }

    // refreshObject:mergeChanges: NO discards changes; YES keeps them over fresh store values.
    @Test(arguments: storeTypes)
    func refreshWithAndWithoutMerging(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        let publisher = try fixture.seedBooks(["A"])
        let other = fixture.secondContext()
        let copy = try other.existingObject(with: publisher.objectID)
        try copy.checkedSetValue("From elsewhere", forKey: "name")
        try other.save()

        try publisher.checkedSetValue("Local", forKey: "name")
        try fixture.context.checkedRefresh(publisher, mergeChanges: true)
        #expect(try publisher.checkedValue(forKey: "name") as? String == "Local")
        try fixture.context.checkedRefresh(publisher, mergeChanges: false)
        #expect(publisher.isFault)
        #expect(try publisher.checkedValue(forKey: "name") as? String == "From elsewhere")
        #expect(!fixture.context.hasChanges)
    }

    // mergeChangesFromContextDidSaveNotification: the did-save notification carries the saved
    // IDs; a second context merges them.
    @Test(arguments: storeTypes)
    func mergingAnotherContextsSave(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        let publisher = try fixture.seedBooks(["A", "B"])
        let books = try #require(try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)
        let doomed = try #require(books.first { (try? $0.checkedValue(forKey: "title") as? String) == "A" })
        let survivor = try #require(books.first { (try? $0.checkedValue(forKey: "title") as? String) == "B" })

        let other = fixture.secondContext()
        let received = LockedNotifications()
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveNotification, object: other, queue: nil
        ) {
            received.append($0)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try other.checkedDelete(try other.existingObject(with: doomed.objectID))
        try other.existingObject(with: survivor.objectID).checkedSetValue("B, second edition", forKey: "title")
        try other.save()

        let notification = try #require(received.all.first)
        #expect(
            (notification.userInfo?[ManagedObjectContext.deletedObjectIDsKey] as? Set<ManagedObjectID>) == [
                doomed.objectID
            ])
        // Deleting the book also changed its publisher's books, so the publisher is updated too.
        #expect(
            (notification.userInfo?[ManagedObjectContext.updatedObjectIDsKey] as? Set<ManagedObjectID>) == [
                survivor.objectID, publisher.objectID,
            ])
        try fixture.context.checkedMergeChanges(fromContextDidSave: notification)
        #expect(doomed.managedObjectContext == nil)
        #expect(try survivor.checkedValue(forKey: "title") as? String == "B, second edition")
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>) == [survivor])
    }

    // NSFetchRequest fetchLimit, fetchOffset and resultType .managedObjectID.
    @Test(arguments: storeTypes)
    func limitsOffsetsAndObjectIDResults(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        try fixture.seedBooks(["a", "b", "c", "d"])
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "salesRank", ascending: true)]
        request.fetchOffset = 1
        request.fetchLimit = 2
        let window = try fixture.context.fetch(request).map { try $0.checkedValue(forKey: "title") as! String }
        #expect(window == ["b", "c"])
        request.fetchOffset = 4
        #expect(try fixture.context.fetch(request).isEmpty)
        request.fetchOffset = 0
        request.fetchLimit = 0
        let ids = try fixture.context.fetchObjectIDs(request)
        #expect(ids.map(\.primaryKey) == [1, 2, 3, 4])
        request.resultType = .managedObjectID
        #expect(throws: CoreDataError.self) { _ = try fixture.context.fetch(request) }
    }

    // fetchBatchSize: identities first, values a batch at a time.
    @Test func batchSizeLoadsABatchPerQuery() throws {
        let fixture = try StackFixture(.sqlite)
        try fixture.seedBooks((1...10).map { "Book \($0)" })
        let context = fixture.secondContext()
        let request = FetchRequest(entityName: "Book")
        request.fetchBatchSize = 4
        var books: [ManagedObject] = []
        let fetchSQL = try fixture.sql { books = try context.fetch(request) }
        #expect(books.count == 10)
        let allFaults = books.allSatisfy { $0.isFault }
        #expect(allFaults)
        #expect(fetchSQL == ["CoreData: sql: SELECT t0.Z_PK, t0.Z_ENT FROM ZBOOK t0"])
        let touchSQL = try fixture.sql { _ = try books[5].checkedValue(forKey: "title") }
        #expect(touchSQL.count == 1)
        #expect(!books[4].isFault && !books[7].isFault && books[8].isFault && books[3].isFault)
    }

    // relationshipKeyPathsForPrefetching: one query per relationship, not one per object.
    @Test func prefetchingAvoidsAQueryPerObject() throws {
        let fixture = try StackFixture(.sqlite)
        try fixture.seedBooks(["A", "B"], publisher: "P1")
        try fixture.seedBooks(["C"], publisher: "P2")
        let context = fixture.secondContext()
        let request = FetchRequest(entityName: "Publisher")
        request.relationshipKeyPathsForPrefetching = ["books"]
        var publishers: [ManagedObject] = []
        let fetchSQL = try fixture.sql { publishers = try context.fetch(request) }
        #expect(fetchSQL.count == 3) // publishers, their book IDs, the books' rows
        let readSQL = try fixture.sql {
            for publisher in publishers {
                for book in try publisher.checkedValue(forKey: "books") as! Set<ManagedObject> {
                    _ = try book.checkedValue(forKey: "title")
                }
            }
        }
        #expect(readSQL.isEmpty)
    }
}

final class LockedNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Notification] = []
    func append(_ n: Notification) {
        lock.lock()
        items.append(n)
        lock.unlock()
    }
    var all: [Notification] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
