import Testing
import Foundation
@testable import ObjectGraph

// NSFetchedResultsController and NSFetchedResultsControllerDelegate: sections, index paths, and
// the delegate calls as the context changes, in Apple's order with Apple's index-path rules.
@Suite struct FetchedResultsControllerTests {
    @Test("performFetch groups the sorted objects into sections with names, index titles and counts (NSFetchedResultsController.sections, sectionIndexTitles)")
    func performFetchMakesSections() throws {
        let fixture = try FetchedResultsFixture()
        let controller = FetchedResultsController(fetchRequest: FetchedResultsFixture.request(), managedObjectContext: fixture.context, sectionNameKeyPath: "group", cacheName: "Items")
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

    @Test("object(at:) and indexPath(forObject:) agree; an index path outside the results throws instead of trapping (NSFetchedResultsController.object(at:), indexPath(forObject:))")
    func objectsByIndexPath() throws {
        let fixture = try FetchedResultsFixture()
        let controller = try fixture.controller(delegate: nil)
        let b2 = try controller.object(at: IndexPath(row: 1, section: 1))
        #expect(try b2.value(forKey: "name") as? String == "b2")
        #expect(controller.indexPath(forObject: b2) == IndexPath(row: 1, section: 1))
        #expect(controller.indexPath(forObject: try fixture.context.insertNewObject(forEntityName: "Other")) == nil)
        let error = try #require(throws: CoreDataError.self) { try controller.object(at: IndexPath(row: 2, section: 1)) }
        #expect(error.exceptionName?.rawValue == "NSRangeException")
        #expect(error.message.contains("[3, 2]"))
        #expect(throws: CoreDataError.self) { try controller.object(at: IndexPath(row: 0, section: 5)) }
        #expect(throws: CoreDataError.self) { try controller.object(at: IndexPath(index: 0)) }
    }

    @Test("Section index titles: the name's first letter capitalized by default, the delegate's when it gives one; section(forSectionIndexTitle:at:) finds the section (NSFetchedResultsController.sectionIndexTitle(forSectionName:))")
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

    @Test("Without sectionNameKeyPath there is one section named \"\" (NSFetchedResultsController.sectionNameKeyPath)")
    func oneSectionWithoutKeyPath() throws {
        let fixture = try FetchedResultsFixture()
        let controller = try fixture.controller(sectioned: false, delegate: nil)
        #expect(controller.sections?.count == 1)
        #expect(controller.sections?.first?.name == "")
        #expect(FetchedResultsFixture.names(controller) == [["a1", "a2", "a3", "b1", "b2"]])
    }

    @Test("performFetch refuses a request without sort descriptors, and objects out of section order (NSFetchedResultsController.init, performFetch)")
    func performFetchRefusesBadRequests() throws {
        let fixture = try FetchedResultsFixture()
        let unsorted = FetchedResultsController(fetchRequest: FetchRequest(entityName: "Item"), managedObjectContext: fixture.context, sectionNameKeyPath: nil, cacheName: nil)
        let noSort = try #require(throws: CoreDataError.self) { try unsorted.performFetch() }
        #expect(noSort.exceptionName == .invalidArgument && noSort.message.contains("sort descriptors"))

        let byRank = FetchRequest(entityName: "Item")
        byRank.sortDescriptors = [SortDescriptor(key: "rank")]
        let outOfOrder = FetchedResultsController(fetchRequest: byRank, managedObjectContext: fixture.context, sectionNameKeyPath: "group", cacheName: nil)
        let error = try #require(throws: CoreDataError.self) { try outOfOrder.performFetch() }
        #expect(error.message.contains("out of order section name"))
        #expect(outOfOrder.fetchedObjects == nil)
    }
}
