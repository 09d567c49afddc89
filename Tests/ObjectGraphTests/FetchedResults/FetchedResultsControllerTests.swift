import Foundation
import Testing

@testable import ObjectGraph

// NSFetchedResultsController and NSFetchedResultsControllerDelegate: sections, index paths, and
// the delegate calls as the context changes, in Apple's order with Apple's index-path rules.
@Suite struct FetchedResultsControllerTests {
    @Test(
        "performFetch groups the sorted objects into sections with names, index titles and counts (NSFetchedResultsController.sections, sectionIndexTitles)"
    )
    func performFetchMakesSections() throws {
        let fixture = try FetchedResultsFixture()
        let controller = FetchedResultsController(
            fetchRequest: FetchedResultsFixture.request(), managedObjectContext: fixture.context,
            sectionNameKeyPath: "group", cacheName: "Items")
        #expect(controller.fetchedObjects == nil && controller.sections == nil)
        try controller.performFetch()
        #expect(FetchedResultsFixture.names(controller) == [["a1", "a2", "a3"], ["b1", "b2"]])
        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["A", "B"])
        #expect(sections.map(\.numberOfObjects) == [3, 2])
        #expect(sections.map(\.indexTitle) == ["A", "B"])
        #expect(controller.sectionIndexTitles == ["A", "B"])
        #expect(controller.fetchedObjects?.count == 5)
        #expect(controller.cacheName == "Items")
    }

    @Test(
        "object(at:) and indexPath(forObject:) agree; an index path outside the results throws instead of trapping (NSFetchedResultsController.object(at:), indexPath(forObject:))"
    )
    func objectsByIndexPath() throws {
        let fixture = try FetchedResultsFixture()
        let controller = try fixture.controller(delegate: nil)
        let b2 = try controller.checkedObject(at: IndexPath(row: 1, section: 1))
        #expect(try b2.checkedValue(forKey: "name") as? String == "b2")
        #expect(controller.indexPath(forObject: b2) == IndexPath(row: 1, section: 1))
        #expect(controller.indexPath(forObject: try fixture.context.insertNewObject(forEntityName: "Other")) == nil)
        let error = try #require(throws: CoreDataError.self) {
            try controller.checkedObject(at: IndexPath(row: 2, section: 1))
        }
        #expect(error.exceptionName?.rawValue == "NSRangeException")
        #expect(error.message.contains("[3, 2]"))
        #expect(throws: CoreDataError.self) { try controller.checkedObject(at: IndexPath(row: 0, section: 5)) }
        #expect(throws: CoreDataError.self) { try controller.checkedObject(at: IndexPath(index: 0)) }
    }

    @Test(
        "Section index titles: the name's first letter capitalized by default, the delegate's when it gives one; section(forSectionIndexTitle:at:) finds the section (NSFetchedResultsController.sectionIndexTitle(forSectionName:))"
    )
    func sectionIndexTitles() throws {
        let fixture = try FetchedResultsFixture()
        try FetchedResultsFixture.insert("c1", group: "cats", rank: 1, in: fixture.context)
        try FetchedResultsFixture.insert("c2", group: "cows", rank: 2, in: fixture.context)
        let delegate = RecordingResultsDelegate()
        delegate.indexTitles = ["B": "β"]
        let controller = try fixture.controller(delegate: delegate)
        #expect(controller.sections?.map(\.indexTitle) == ["A", "β", "C", "C"])
        #expect(controller.sectionIndexTitles == ["A", "β", "C"])
        #expect(controller.section(forSectionIndexTitle: "C", at: 2) == 2)
        #expect(controller.section(forSectionIndexTitle: "Z", at: 9) == 3)
        #expect(controller.sectionIndexTitle(forSectionName: "émile") == "É")
        #expect(controller.sectionIndexTitle(forSectionName: "") == nil)
    }

    @Test(
        "A subclass names the section index titles, as Apple's documentation suggests (NSFetchedResultsController: \"create a subclass of this class if you want to customize the creation of sections and index titles\")"
    )
    func aSubclassNamesTheIndexTitles() throws {
        let fixture = try FetchedResultsFixture()
        let controller = WholeNameTitles(
            fetchRequest: FetchedResultsFixture.request(), managedObjectContext: fixture.context,
            sectionNameKeyPath: "group", cacheName: nil)
        try controller.performFetch()
        #expect(controller.sections?.map(\.indexTitle) == ["group A", "group B"])
        #expect(controller.sectionIndexTitles == ["A", "B"])
    }

    @Test("Without sectionNameKeyPath there is one section named \"\" (NSFetchedResultsController.sectionNameKeyPath)")
    func oneSectionWithoutKeyPath() throws {
        let fixture = try FetchedResultsFixture()
        let controller = try fixture.controller(sectioned: false, delegate: nil)
        #expect(controller.sections?.count == 1)
        #expect(controller.sections?.first?.name == "")
        #expect(FetchedResultsFixture.names(controller) == [["a1", "a2", "a3", "b1", "b2"]])
    }

    @Test(
        "performFetch refuses a request without sort descriptors, and objects out of section order (NSFetchedResultsController.init, performFetch)"
    )
    func performFetchRefusesBadRequests() throws {
        let fixture = try FetchedResultsFixture()
        let unsorted = FetchedResultsController(
            fetchRequest: FetchRequest(entityName: "Item"), managedObjectContext: fixture.context,
            sectionNameKeyPath: nil, cacheName: nil)
        let noSort = try #require(throws: CoreDataError.self) { try unsorted.performFetch() }
        #expect(noSort.exceptionName == .invalidArgument && noSort.message.contains("sort descriptors"))

        let byRank = FetchRequest(entityName: "Item")
        byRank.sortDescriptors = [SortDescriptor(key: "rank")]
        let outOfOrder = FetchedResultsController(
            fetchRequest: byRank, managedObjectContext: fixture.context, sectionNameKeyPath: "group", cacheName: nil)
        let error = try #require(throws: CoreDataError.self) { try outOfOrder.performFetch() }
        #expect(error.message.contains("out of order section name"))
        #expect(outOfOrder.fetchedObjects == nil)
    }

    // MARK: Through the context's own notifications

    @Test(
        "Changes made in the controller's context reach the delegate when the event ends, with Apple's index paths (NSManagedObjectContext.processPendingChanges; NSFetchedResultsControllerDelegate)"
    )
    func changesInItsContext() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let context = fixture.context
        try context.checkedDelete(try fixture.item("a2"))
        try FetchedResultsFixture.insert("c1", group: "C", rank: 1, in: context)
        try fixture.item("a3").checkedSetValue(0, forKey: "rank")
        try fixture.item("b2").checkedSetValue("b2 renamed", forKey: "name")
        #expect(delegate.lines.isEmpty, "nothing is told before the event ends")
        context.processPendingChanges()
        #expect(
            delegate.take() == [
                "will",
                "section insert 2 C",
                "delete a2 [0, 1] -> nil",
                "insert c1 nil -> [2, 0]",
                "move a3 [0, 2] -> [0, 0]",
                "update b2 renamed [1, 1] -> [1, 1]",
                "did",
            ])
        #expect(FetchedResultsFixture.names(controller) == [["a3", "a1"], ["b1", "b2 renamed"], ["c1"]])
        // Saving changes nothing in the results: the objects stay, their IDs become permanent.
        try context.save()
        #expect(delegate.take().isEmpty)
        #expect(controller.fetchedObjects?.allSatisfy { !$0.objectID.isTemporaryID } == true)
    }

    @Test(
        "A save in another context merged with checkedMergeChanges(fromContextDidSave:) reaches the delegate (NSManagedObjectContext.checkedMergeChanges(fromContextDidSave:); NSFetchedResultsController)",
        arguments: [StoreType.sqlite, .xml])
    func mergedSaveOfAnotherContext(_ type: StoreType) throws {
        let fixture = try FetchedResultsFixture(type)
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let other = ManagedObjectContext(coordinator: fixture.coordinator)
        let request = FetchRequest(entityName: "Item")
        request.sortDescriptors = [SortDescriptor(key: "name")]
        let theirs = try other.fetch(request) // a1 a2 a3 b1 b2
        try other.checkedDelete(theirs[2]) // a3
        try theirs[3].checkedSetValue("b1 renamed", forKey: "name") // b1, same place
        try theirs[4].checkedSetValue("A", forKey: "group") // b2 → A, rank 2: after a2
        try FetchedResultsFixture.insert("a0", group: "A", rank: 0, in: other)
        let received = LockedNotifications()
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveNotification, object: other, queue: nil
        ) { received.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        try other.save()
        try fixture.context.checkedMergeChanges(fromContextDidSave: try #require(received.all.first))
        #expect(
            delegate.take() == [
                "will",
                "delete a3 [0, 2] -> nil",
                "insert a0 nil -> [0, 0]",
                "move b2 [1, 1] -> [0, 3]",
                "update b1 renamed [1, 0] -> [1, 0]",
                "did",
            ])
        #expect(FetchedResultsFixture.names(controller) == [["a0", "a1", "a2", "b2"], ["b1 renamed"]])
    }

    @Test(
        "A controller on a context that merges its parent store's saves automatically follows another context's saves (NSManagedObjectContext.automaticallyMergesChangesFromParent)"
    )
    func automaticMerges() throws {
        let fixture = try FetchedResultsFixture(context: {
            ManagedObjectContext(concurrencyType: .privateQueue, coordinator: $0)
        })
        let view = fixture.context
        let delegate = RecordingResultsDelegate()
        let controller = try view.performAndWait { () throws -> FetchedResultsController in
            view.automaticallyMergesChangesFromParent = true
            return try fixture.controller(delegate: delegate)
        }
        let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        try background.performAndWait {
            try FetchedResultsFixture.insert("b3", group: "B", rank: 3, in: background)
            try background.save()
        }
        // The merge runs on the view context's queue after the save; this block runs after it.
        let lines = view.performAndWait { delegate.take() }
        #expect(lines == ["will", "insert b3 nil -> [1, 2]", "did"])
        #expect(
            view.performAndWait { FetchedResultsFixture.names(controller) } == [
                ["a1", "a2", "a3"], ["b1", "b2", "b3"],
            ])
    }

    @Test(
        "A child context's save into the controller's context is an event of that context (NSManagedObjectContext.save with a parent context; NSFetchedResultsController)"
    )
    func childSaveIntoItsContext() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(delegate: delegate)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: fixture.context)
        try child.performAndWait {
            try FetchedResultsFixture.insert("a4", group: "A", rank: 4, in: child)
            try child.save()
        }
        fixture.context.processPendingChanges()
        #expect(delegate.take() == ["will", "insert a4 nil -> [0, 3]", "did"])
        #expect(controller.fetchedObjects?.count == 6)
    }

    @Test(
        "reset() invalidates every object: the controller's results become what the store holds (NSManagedObjectContext.reset; NSInvalidatedAllObjectsKey)"
    )
    func resetRefetches() throws {
        let fixture = try FetchedResultsFixture()
        let delegate = RecordingResultsDelegate()
        let controller = try fixture.controller(sectioned: false, delegate: delegate)
        try FetchedResultsFixture.insert("a0", group: "A", rank: 0, in: fixture.context)
        fixture.context.processPendingChanges()
        _ = delegate.take()
        fixture.context.reset()
        let lines = delegate.take()
        #expect(lines.first == "will" && lines.last == "did")
        #expect(
            lines.filter { $0.hasPrefix("delete") }.count == 6 && lines.filter { $0.hasPrefix("insert") }.count == 5)
        #expect(FetchedResultsFixture.names(controller) == [["a1", "a2", "a3", "b1", "b2"]])
        #expect(controller.fetchedObjects?.allSatisfy { $0.managedObjectContext === fixture.context } == true)
    }
}

/// Index titles of whole section names, and the list of them by first letter.
private final class WholeNameTitles: FetchedResultsController, @unchecked Sendable {
    override func sectionIndexTitle(forSectionName sectionName: String) -> String? { "group \(sectionName)" }
    override var sectionIndexTitles: [String] { super.sectionIndexTitles.map { String($0.last ?? " ") } }
}
