import Foundation
import Testing

@testable import ObjectGraph

// The index-path rules of NSFetchedResultsControllerDelegate, checked on the controller's own
// reading of ManagedObjectContext.objectsDidChangeNotification: these tests post the
// notification themselves with the user info Apple's context gives it (NSInsertedObjectsKey,
// NSUpdatedObjectsKey, NSDeletedObjectsKey), so each case is exactly one event. Apple's rules:
// "the fetched results controller reports changes to its section before changes to the fetch
// result objects"; indexPath is nil for insertions, newIndexPath nil for deletions.
@Suite struct FetchedResultsIndexPathTests {
    /// Posts one objects-did-change event for a context, as the context does.
    func post(
        _ context: ManagedObjectContext, inserted: [ManagedObject] = [], updated: [ManagedObject] = [],
        deleted: [ManagedObject] = []
    ) {
        var info: [String: Set<ManagedObject>] = [:]
        if !inserted.isEmpty { info[ManagedObjectContext.insertedObjectsKey] = Set(inserted) }
        if !updated.isEmpty { info[ManagedObjectContext.updatedObjectsKey] = Set(updated) }
        if !deleted.isEmpty { info[ManagedObjectContext.deletedObjectsKey] = Set(deleted) }
        NotificationCenter.default.post(
            name: ManagedObjectContext.objectsDidChangeNotification, object: context, userInfo: info)
    }

    @Test(
        "One event with a deletion, insertions, a move and an update: sections first, deletes at old index paths, inserts at new ones, moves with both (NSFetchedResultsControllerDelegate.controller(_:didChange:at:for:newIndexPath:))"
    )
    func mixedEvent() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let context = fixture.context
        let a2 = try fixture.item("a2")
        let a3 = try fixture.item("a3")
        let b2 = try fixture.item("b2")
        try context.checkedDelete(a2)
        let c1 = try FetchedResultsFixture.insert("c1", group: "C", rank: 1, in: context)
        let b0 = try FetchedResultsFixture.insert("b0", group: "B", rank: 0, in: context)
        try a3.checkedSetValue(0, forKey: "rank") // sorts first in A now: a move
        try b2.checkedSetValue("b2 renamed", forKey: "name") // same place: an update
        post(context, inserted: [c1, b0], updated: [a3, b2], deleted: [a2])

        #expect(
            delegate.take() == [
                "will",
                "section insert 2 C",
                "delete a2 [0, 1] -> nil",
                "insert b0 nil -> [1, 0]",
                "insert c1 nil -> [2, 0]",
                "move a3 [0, 2] -> [0, 0]",
                "update b2 renamed [1, 1] -> [1, 2]",
                "did",
            ])
        #expect(FetchedResultsFixture.names(controller) == [["a3", "a1"], ["b0", "b1", "b2 renamed"], ["c1"]])
        #expect(controller.indexPath(forObject: b2) == IndexPath(row: 2, section: 1))
        #expect(controller.fetchedObjects?.count == 6)
    }

    @Test(
        "Deleting a section's last objects deletes the section, before the objects, at their old indexes (NSFetchedResultsControllerDelegate.controller(_:didChange:atSectionIndex:for:))"
    )
    func sectionDeletion() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let b1 = try fixture.item("b1")
        let b2 = try fixture.item("b2")
        let a1 = try fixture.item("a1")
        for object in [b1, b2, a1] { try fixture.context.checkedDelete(object) }
        post(fixture.context, deleted: [b1, b2, a1])
        #expect(
            delegate.take() == [
                "will", "section delete 1 B", "delete a1 [0, 0] -> nil", "delete b1 [1, 0] -> nil",
                "delete b2 [1, 1] -> nil", "did",
            ])
        #expect(controller.sections?.map(\.name) == ["A"])
    }

    @Test(
        "An update that moves an object into another section is a move; one that makes it leave the predicate is a delete, one that makes it match an insert (NSFetchedResultsChangeType)"
    )
    func updatesChangeMembership() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(predicate: try Predicate(checkedFormat: "rank < 3"), delegate: delegate)
        #expect(FetchedResultsFixture.names(controller) == [["a1", "a2"], ["b1", "b2"]])
        let a1 = try fixture.item("a1")
        let a3 = try fixture.item("a3")
        let b2 = try fixture.item("b2")
        try a1.checkedSetValue("B", forKey: "group") // A → B, after b1
        try a1.checkedSetValue(2, forKey: "rank")
        try b2.checkedSetValue(7, forKey: "rank") // leaves the results
        try a3.checkedSetValue(0, forKey: "rank") // joins them, first in A
        post(fixture.context, updated: [a1, b2, a3])
        #expect(
            delegate.take() == [
                "will",
                "delete b2 [1, 1] -> nil",
                "insert a3 nil -> [0, 0]",
                "move a1 [0, 0] -> [1, 1]",
                "did",
            ])
        #expect(FetchedResultsFixture.names(controller) == [["a3", "a2"], ["b1", "a1"]])
    }

    @Test(
        "Two changed objects that swap places are both moves, though no unchanged object passed between them (NSFetchedResultsChangeType.move)"
    )
    func swapIsTwoMoves() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let a1 = try fixture.item("a1")
        let a2 = try fixture.item("a2")
        try a1.checkedSetValue(2, forKey: "rank")
        try a2.checkedSetValue(1, forKey: "rank")
        post(fixture.context, updated: [a1, a2])
        #expect(delegate.take() == ["will", "move a2 [0, 1] -> [0, 0]", "move a1 [0, 0] -> [0, 1]", "did"])
        #expect(FetchedResultsFixture.names(controller) == [["a2", "a1", "a3"], ["b1", "b2"]])
    }

    @Test(
        "Changes that don't touch the results call no delegate method; without a delegate nothing is tracked (NSFetchedResultsController: no-tracking mode)"
    )
    func unrelatedChangesAndNoDelegate() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(predicate: try Predicate(checkedFormat: "rank < 3"), delegate: delegate)
        let other = try fixture.context.insertNewObject(forEntityName: "Other")
        let a3 = try fixture.item("a3")
        try a3.checkedSetValue(5, forKey: "rank") // was out of the results, stays out
        post(fixture.context, inserted: [other], updated: [a3])
        #expect(delegate.take().isEmpty)

        let untracked = try fixture.controller(delegate: nil)
        let a1 = try fixture.item("a1")
        try fixture.context.checkedDelete(a1)
        post(fixture.context, deleted: [a1])
        #expect(untracked.fetchedObjects?.contains { $0 === a1 } == true, "no delegate, no tracking")
        #expect(controller.fetchedObjects?.contains { $0 === a1 } == false)
    }

    @Test("Another context's notification is not this controller's (NSFetchedResultsController.managedObjectContext)")
    func otherContextsAreIgnored() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let other = ManagedObjectContext(coordinator: fixture.coordinator)
        let item = try FetchedResultsFixture.insert("x", group: "A", rank: 9, in: other)
        post(other, inserted: [item])
        #expect(delegate.take().isEmpty)
        // The same change in its own context is reported.
        let own = try FetchedResultsFixture.insert("x", group: "A", rank: 9, in: fixture.context)
        post(fixture.context, inserted: [own])
        #expect(delegate.take() == ["will", "insert x nil -> [0, 3]", "did"])
        #expect(controller.fetchedObjects?.count == 6)
    }

    @Test(
        "The diffable form: performFetch and each change give a snapshot of section names and object IDs, updated objects listed for reloading, and no other delegate call (NSFetchedResultsControllerDelegate.controller(_:didChangeContentWith:))"
    )
    func snapshots() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = SnapshotResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let first = try #require(delegate.snapshots.first)
        #expect(first.sectionIdentifiers == ["A", "B"])
        #expect(first.numberOfItems == 5 && first.numberOfSections == 2)
        let a1 = try fixture.item("a1")
        let b1 = try fixture.item("b1")
        #expect(first.itemIdentifiers(inSection: "B") == [b1.objectID, try fixture.item("b2").objectID])
        #expect(first.sectionIdentifier(containingItem: a1.objectID) == "A")
        #expect(first.indexOfItem(b1.objectID) == 3)

        let c1 = try FetchedResultsFixture.insert("c1", group: "C", rank: 1, in: fixture.context)
        try b1.checkedSetValue("b1 renamed", forKey: "name")
        post(fixture.context, inserted: [c1], updated: [b1])
        #expect(delegate.snapshots.count == 2)
        let second = try #require(delegate.snapshots.last)
        #expect(second.sectionIdentifiers == ["A", "B", "C"])
        #expect(second.itemIdentifiers(inSection: "C") == [c1.objectID])
        #expect(second.reloadedItemIdentifiers == [b1.objectID])
        #expect(second.numberOfItems(inSection: "Z") == 0 && second.indexOfSection("Z") == nil)
        #expect(delegate.otherCalls == 0, "If this method is implemented, no other delegate methods are invoked")
        #expect(controller.sections?.count == 3)
    }
}
