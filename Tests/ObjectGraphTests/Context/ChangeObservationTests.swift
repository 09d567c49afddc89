import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// The notifications one context posts, collected as they come (from any thread). Observes
/// only its own context (`object: context`): suites run in parallel.
final class NotificationRecorder: @unchecked Sendable {
    // @unchecked Sendable: `posts` is touched only under `lock`.
    private let lock = NSLock()
    private var posts: [[String: Any]] = []
    private var token: NSObjectProtocol?

    init(_ name: Notification.Name, of context: ManagedObjectContext, onPost: (@Sendable (Notification) -> Void)? = nil)
    {
        token = NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) {
            [weak self] notification in
            onPost?(notification)
            var info: [String: Any] = [:]
            for (key, value) in notification.userInfo ?? [:] { if let key = key as? String { info[key] = value } }
            self?.lock.withLock { self?.posts.append(info) }
        }
    }

    deinit { if let token { NotificationCenter.default.removeObserver(token) } }

    /// The user info of each post so far.
    var all: [[String: Any]] { lock.withLock { posts } }

    /// The objects of one key in one post, by title (or name), sorted.
    func names(_ key: String, in post: Int = 0) -> [String] {
        let objects = all[post][key] as? Set<ManagedObject> ?? []
        return objects.map { object in
            let key = object.entity.name == "Book" ? "title" : "name"
            return (try? object.checkedValue(forKey: key) as? String) ?? object.objectID.uriString
        }.sorted()
    }
}

// Change observation. Apple pages: NSManagedObjectContext.objectsDidChangeNotification ("posts
// when there are changes to context's registered managed objects"), processPendingChanges(),
// perform(_:) (performBlock "encapsulates an autorelease pool and a call to
// processPendingChanges"), willSaveNotification, didSaveNotification and
// NSManagedObjectContext.NotificationKey, checkedMergeChanges(fromContextDidSave:) ("refreshes any
// objects which have been updated in the other context, faults in any newly-inserted objects,
// and invokes delete(_:) on those which have been deleted"), refresh(_:mergeChanges:), reset().
@Suite struct ChangeObservationTests {
    /// A context on a fresh in-memory store with books A, B, C of one publisher saved.
    static func seeded() throws -> (NestedContextFixture, ManagedObjectContext) {
        let fixture = try NestedContextFixture(.inMemory)
        return (fixture, ManagedObjectContext(coordinator: fixture.coordinator))
    }

    @Test(
        "objectsDidChange lists each event's inserted, updated and deleted objects (NSManagedObjectContext.objectsDidChangeNotification, processPendingChanges())"
    )
    func eventsPostTheirChanges() throws {
        let (_, context) = try Self.seeded()
        let recorder = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: context)
        let a = try #require(try NestedContextFixture.book("A", in: context))
        let b = try #require(try NestedContextFixture.book("B", in: context))
        context.processPendingChanges()
        #expect(recorder.all.isEmpty, "a fetch is no change")

        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        try a.checkedSetValue(10, forKey: "salesRank")
        try context.checkedDelete(b)
        #expect(recorder.all.isEmpty, "nothing is posted before the event ends")
        context.processPendingChanges()
        #expect(recorder.all.count == 1)
        #expect(recorder.names(ManagedObjectContext.insertedObjectsKey) == ["D"])
        // Deleting B nullified its publisher's link to it: the publisher changed too.
        #expect(recorder.names(ManagedObjectContext.updatedObjectsKey) == ["A", "BookCo"])
        #expect(recorder.names(ManagedObjectContext.deletedObjectsKey) == ["B"])
        #expect(recorder.all[0][ManagedObjectContext.refreshedObjectsKey] == nil, "an empty key is left out")

        // The next event lists only its own changes; an object inserted earlier counts as updated.
        try d.checkedSetValue(4, forKey: "salesRank")
        context.processPendingChanges()
        #expect(recorder.all.count == 2)
        #expect(Set(recorder.all[1].keys) == [ManagedObjectContext.updatedObjectsKey])
        #expect(recorder.names(ManagedObjectContext.updatedObjectsKey, in: 1) == ["D"])
        context.processPendingChanges()
        #expect(recorder.all.count == 2, "an event without changes posts nothing")
    }

    @Test("An object inserted and deleted in one event is never announced (objectsDidChangeNotification)")
    func insertedAndDeletedInOneEvent() throws {
        let (_, context) = try Self.seeded()
        let recorder = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: context)
        let book = try context.insertNewObject(forEntityName: "Book")
        try context.checkedDelete(book)
        context.processPendingChanges()
        #expect(recorder.all.isEmpty)
    }

    @Test("A perform block is one event; performAndWait does not end one (perform(_:), performAndWait(_:))")
    func performEndsAnEvent() async throws {
        let (fixture, _) = try Self.seeded()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let recorder = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: context)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").checkedSetValue("D", forKey: "title")
        }
        #expect(recorder.all.isEmpty)
        try await context.perform {
            try context.insertNewObject(forEntityName: "Book").checkedSetValue("E", forKey: "title")
        }
        #expect(recorder.all.count == 1)
        #expect(recorder.names(ManagedObjectContext.insertedObjectsKey) == ["D", "E"])
    }

    @Test(
        "willSave comes before anything is written, and what its observer changes is saved (NSManagedObjectContext.willSaveNotification)"
    )
    func willSaveComesFirst() throws {
        let (fixture, context) = try Self.seeded()
        let storedWhenWillSave = LockedLines()
        let coordinator = fixture.coordinator
        let recorder = NotificationRecorder(ManagedObjectContext.willSaveNotification, of: context) { notification in
            storedWhenWillSave.append(
                (try? NestedContextFixture.titles(in: ManagedObjectContext(coordinator: coordinator)).joined(
                    separator: ",")) ?? "error")
            // The observer runs on the saving thread: it may change the context, as an app
            // setting modification dates does.
            guard let context = notification.object as? ManagedObjectContext else { return }
            try? context.insertedObjects.first?.checkedSetValue("D (stamped)", forKey: "title")
        }
        let noChanges = NotificationRecorder(ManagedObjectContext.willSaveNotification, of: context)
        try context.save()
        #expect(noChanges.all.isEmpty, "a save with no changes posts nothing")
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("D", forKey: "title")
        try context.save()
        #expect(recorder.all.count == 1)
        #expect(storedWhenWillSave.all == ["A,B,C"])
        #expect(try fixture.storedTitles() == ["A", "B", "C", "D (stamped)"])
    }

    @Test(
        "didSave carries the saved objects and their IDs (didSaveNotification, NSManagedObjectContext.NotificationKey)")
    func didSaveCarriesObjects() throws {
        let (_, context) = try Self.seeded()
        let recorder = NotificationRecorder(ManagedObjectContext.didSaveNotification, of: context)
        let a = try #require(try NestedContextFixture.book("A", in: context))
        let c = try #require(try NestedContextFixture.book("C", in: context))
        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        try a.checkedSetValue(7, forKey: "salesRank")
        try context.checkedDelete(c)
        try context.save()
        let info = try #require(recorder.all.first)
        #expect(info[ManagedObjectContext.insertedObjectsKey] as? Set<ManagedObject> == [d])
        #expect(
            info[ManagedObjectContext.updatedObjectsKey] as? Set<ManagedObject> == [
                a, try #require(a.checkedValue(forKey: "publisher") as? ManagedObject),
            ])
        #expect(info[ManagedObjectContext.deletedObjectsKey] as? Set<ManagedObject> == [c])
        #expect(info[ManagedObjectContext.insertedObjectIDsKey] as? Set<ManagedObjectID> == [d.objectID])
        #expect(!d.objectID.isTemporaryID, "the objects carry their permanent IDs")
        #expect(info[ManagedObjectContext.deletedObjectIDsKey] as? Set<ManagedObjectID> == [c.objectID])
    }

    /// A did-save notification of `saver` rebuilt with the keys asked for.
    static func notification(from info: [String: Any], of saver: ManagedObjectContext, objects: Bool, ids: Bool)
        -> Notification
    {
        var kept: [String: Any] = [:]
        for (key, value) in info where (key.hasSuffix("_objectIDs") ? ids : objects) { kept[key] = value }
        return Notification(name: ManagedObjectContext.didSaveNotification, object: saver, userInfo: kept)
    }

    @Test(
        "checkedMergeChanges(fromContextDidSave:) takes objects, IDs, or both, and posts its own objectsDidChange (checkedMergeChanges(fromContextDidSave:))",
        arguments: [(true, false), (false, true), (true, true)])
    func mergeTakesObjectsOrIDs(objects: Bool, ids: Bool) throws {
        let (_, reader) = try Self.seeded()
        let writer = ManagedObjectContext(coordinator: reader.persistentStoreCoordinator)
        let a = try #require(try NestedContextFixture.book("A", in: reader))
        let b = try #require(try NestedContextFixture.book("B", in: reader))
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 1)

        let saves = NotificationRecorder(ManagedObjectContext.didSaveNotification, of: writer)
        try #require(try NestedContextFixture.book("A", in: writer)).checkedSetValue(20, forKey: "salesRank")
        try writer.checkedDelete(try #require(try NestedContextFixture.book("B", in: writer)))
        try writer.insertNewObject(forEntityName: "Book").checkedSetValue("D", forKey: "title")
        try writer.save()

        let changes = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: reader)
        try reader.checkedMergeChanges(
            fromContextDidSave: Self.notification(from: saves.all[0], of: writer, objects: objects, ids: ids))
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 20, "the updated object is refreshed")
        #expect(b.managedObjectContext == nil, "the deleted object left the context")
        #expect(changes.all.count == 1)
        #expect(changes.names(ManagedObjectContext.refreshedObjectsKey) == ["A"])
        #expect((changes.all[0][ManagedObjectContext.deletedObjectsKey] as? Set<ManagedObject>) == [b])
        let inserted = try #require(changes.all[0][ManagedObjectContext.insertedObjectsKey] as? Set<ManagedObject>)
        #expect(
            inserted.count == 1 && inserted.first?.managedObjectContext === reader, "the inserted object is faulted in")
        #expect(try inserted.first?.checkedValue(forKey: "title") as? String == "D")
    }

    @Test(
        "An automatic merge posts its own objectsDidChange (automaticallyMergesChangesFromParent, objectsDidChangeNotification)"
    )
    func automaticMergePosts() throws {
        let (_, reader) = try Self.seeded()
        reader.automaticallyMergesChangesFromParent = true
        let a = try #require(try NestedContextFixture.book("A", in: reader))
        let changes = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: reader)
        let writer = ManagedObjectContext(coordinator: reader.persistentStoreCoordinator)
        try #require(try NestedContextFixture.book("A", in: writer)).checkedSetValue(40, forKey: "salesRank")
        try writer.insertNewObject(forEntityName: "Book").checkedSetValue("D", forKey: "title")
        try writer.save()
        #expect(changes.all.count == 1)
        #expect((changes.all[0][ManagedObjectContext.refreshedObjectsKey] as? Set<ManagedObject>) == [a])
        #expect(changes.names(ManagedObjectContext.insertedObjectsKey) == ["D"])
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 40)
    }

    @Test(
        "refresh(_:mergeChanges:) posts the object as refreshed; reset() invalidates all (refresh(_:mergeChanges:), reset(), NSInvalidatedAllObjectsKey)"
    )
    func refreshAndReset() throws {
        let (_, context) = try Self.seeded()
        let recorder = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: context)
        let a = try #require(try NestedContextFixture.book("A", in: context))
        try a.checkedSetValue(9, forKey: "salesRank")
        context.processPendingChanges()
        try context.checkedRefresh(a, mergeChanges: false)
        context.processPendingChanges()
        #expect(recorder.all.count == 2)
        #expect(Set(recorder.all[1].keys) == [ManagedObjectContext.refreshedObjectsKey])
        #expect(recorder.names(ManagedObjectContext.refreshedObjectsKey, in: 1) == ["A"])
        context.reset()
        #expect(recorder.all.count == 3)
        #expect(recorder.all[2][ManagedObjectContext.invalidatedAllObjectsKey] as? Bool == true)
    }

    @Test("A child's save is a change of the parent's event (objectsDidChangeNotification, save())")
    func childSaveChangesTheParent() throws {
        let (_, parent) = try Self.seeded()
        let recorder = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: parent)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            try child.insertNewObject(forEntityName: "Book").checkedSetValue("D", forKey: "title")
            try #require(try NestedContextFixture.book("A", in: child)).checkedSetValue(5, forKey: "salesRank")
            try child.checkedDelete(try #require(try NestedContextFixture.book("C", in: child)))
            try child.save()
        }
        parent.processPendingChanges()
        #expect(recorder.all.count == 1)
        #expect(recorder.names(ManagedObjectContext.insertedObjectsKey) == ["D"])
        #expect(recorder.names(ManagedObjectContext.updatedObjectsKey) == ["A", "BookCo"])
        #expect(recorder.names(ManagedObjectContext.deletedObjectsKey) == ["C"])
    }

    @Test("rollback() announces what it threw away (rollback())")
    func rollbackAnnounces() throws {
        let (_, context) = try Self.seeded()
        let a = try #require(try NestedContextFixture.book("A", in: context))
        try a.checkedSetValue(9, forKey: "salesRank")
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("D", forKey: "title")
        context.processPendingChanges()
        let recorder = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: context)
        context.rollback()
        #expect(recorder.all.count == 1)
        #expect(recorder.names(ManagedObjectContext.deletedObjectsKey) == ["D"])
        #expect(recorder.names(ManagedObjectContext.updatedObjectsKey) == ["A"])
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 1)
    }
}
