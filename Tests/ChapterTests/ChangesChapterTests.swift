import CoreData
import Foundation
import Testing
import WorkbookSupport

@testable import ChangesChapter

// Every behaviour the changes chapter states, asserted through its sections' output and
// through the API. Each test names the Apple page it comes from.
@Suite struct ChangesChapterTests {
    static func output(_ name: String) throws -> String {
        try ChapterRunner.output(of: try ChapterRunner.section(named: name, in: ChangesChapter.self))
    }

    // NSManagedObjectContext.didChangeObjectsNotification: posted at the end of an event
    // (processPendingChanges, the end of a perform block, a save), not for a fetch; and
    // didSaveObjectsNotification: once per save, with everything it saved.
    @Test func eachNotificationIsPostedWhenItsEventEnds() throws {
        let text = try Self.output("notifications")
        #expect(
            text.contains(
                "  (nothing posted yet)\n  objects did change: inserted [Call the bank, Water the plants], updated [Pay the rent]\n"
            ), "\(text)")
        #expect(text.contains("  (fetched 6; nothing posted)\nDelete one in a perform block:\n"))
        #expect(text.contains("Delete one in a perform block:\n  objects did change: deleted [Buy milk]\n"))
        #expect(
            text.hasSuffix(
                "  objects did change: updated [Answer Marcus's mail]\n  did save:           inserted [Call the bank, Water the plants], updated [Answer Marcus's mail, Pay the rent], deleted [Buy milk]"
            ))
    }

    // NSManagedObject's isInserted, isUpdated, isDeleted, hasChanges, changedValues() and
    // committedValues(forKeys:), before and after a save.
    @Test func eachObjectKnowsItsChangesUntilTheSave() throws {
        let text = try Self.output("change-state")
        let lines = text.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasPrefix("Call the bank") && $0.contains("true      false    false    true") })
        #expect(
            lines.contains {
                $0.hasPrefix("Pay the rent") && $0.contains("completed, title") && $0.hasSuffix("Pay rent")
            })
        #expect(lines.contains { $0.hasPrefix("Buy milk") && $0.contains("false     false    true     true") })
        let after = try #require(text.components(separatedBy: "After the save:\n").last)
        let rent = try #require(after.components(separatedBy: "\n").first { $0.hasPrefix("Pay the rent") })
        #expect(
            rent.split(separator: " ", omittingEmptySubsequences: true).suffix(8).joined(separator: " ")
                == "false false false false - Pay the rent")
        #expect(after.contains("Call the bank ") && !after.contains("completed, doNotAlert, title"))
        // The inserted to-do names its defaults too: every property with a value.
        #expect(lines.contains { $0.hasPrefix("Call the bank") && $0.contains("completed, doNotAlert, title") })
        #expect(text.hasSuffix("hasPersistentChangedValues false, changedValues() [:]"))
    }

    // Errata R2: the isUpdated page says an object has unsaved changes when it was updated since
    // the last save; an inserted object that is then changed is inserted, not updated, as the
    // context's updatedObjects holds no inserted object.
    @Test func anInsertedObjectThatChangesIsNotUpdated() throws {
        let bench = Workbench { _ in }
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
            todo.setValue("Call the bank", forKey: "title")
            context.processPendingChanges()
            todo.setValue("Call the bank today", forKey: "title")
            #expect(todo.isInserted && !todo.isUpdated && todo.hasChanges)
            #expect(!context.updatedObjects.contains(todo))
            try context.save()
            todo.setValue("Call the bank at nine", forKey: "title")
            #expect(todo.isUpdated && !todo.isInserted)
        }
    }

    // Errata R3: the notification pages say a context "posts notifications to the same thread
    // that creates it"; a private queue context posts them on its queue, where the change is
    // made: here a thread other than the one that made the context, which waits meanwhile.
    @Test func aContextPostsItsNotificationsOnItsQueueNotTheThreadThatMadeIt() throws {
        let bench = Workbench { _ in }
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        let creator = Thread.current
        let context = container.newBackgroundContext()
        nonisolated(unsafe) var postedOn: [Thread] = []
        let observer = NotificationCenter.default.addObserver(
            forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { _ in postedOn.append(Thread.current) }
        defer { NotificationCenter.default.removeObserver(observer) }
        let saved = DispatchGroup()
        saved.enter()
        context.perform {
            _ = try? ToDoList.insertToDos(into: context)
            saved.leave()
        }
        saved.wait()
        #expect(postedOn.count == 1)
        #expect(postedOn.allSatisfy { $0 !== creator })
    }

    // NSFetchedResultsControllerDelegate, controller(_:didChange:at:for:newIndexPath:): an insert
    // has only a new index path, a delete only an old one; a change of a sort key is a move, a
    // change of another value an update.
    @Test func theControllerTellsInsertsMovesUpdatesAndDeletes() throws {
        let text = try Self.output("fetched-results")
        #expect(text.hasPrefix("The list: 1. Buy milk, 2. Pay rent, 3. Answer Marcus's mail, 4. Ask for a raise\n"))
        for row in [
            "controller(_:didChange:...)  insert  -   0.2           Call the bank",
            "controller(_:didChange:...)  move    0.4 0.0           Ask for a raise",
            "controller(_:didChange:...)  update  0.1 0.1           Buy oat milk",
            "controller(_:didChange:...)  delete  0.2 -             Pay rent",
        ] {
            #expect(text.contains("controllerWillChangeContent\n\(row)\ncontrollerDidChangeContent\n"), "\(row)")
        }
        #expect(text.components(separatedBy: "controllerWillChangeContent").count == 5)
        #expect(
            text.hasSuffix("The list: 1. Ask for a raise, 2. Buy oat milk, 3. Call the bank, 4. Answer Marcus's mail"))
    }

    // NSManagedObjectContext.undoManager (nil by default), undo(), redo(): one step per event; a
    // save leaves the steps; rollback() removes them.
    @Test func undoAndRedoWalkTheContextsEvents() throws {
        let text = try Self.output("undo")
        #expect(text.contains("undo():\n  Buy milk, Pay the rent, Answer Marcus's mail, Ask for a raise\n"))
        #expect(text.contains("undo() again:\n  Buy milk, Pay rent, Answer Marcus's mail, Ask for a raise\n"))
        #expect(text.contains("redo():\n  Buy milk, Pay the rent, Answer Marcus's mail, Ask for a raise\n"))
        #expect(text.contains("undo() after the save:\n  Buy milk, Pay rent,"))
        #expect(text.hasSuffix("  hasChanges false, canUndo false, canRedo false"))
        let bench = Workbench { _ in }
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        #expect(container.viewContext.undoManager == nil)
    }

    // Errata R4: the undo() page says it reverses "the latest uncommitted changes"; a save does
    // not empty the undo stack, so undo() after a save reverses a saved change, and the object
    // has changes to save again.
    @Test func undoAfterASaveReversesTheSavedChange() throws {
        let bench = Workbench { _ in }
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ids = try ToDoList.insertToDos(into: context)
            context.undoManager = UndoManager()
            let rent = context.object(with: ids[1])
            rent.setValue("Pay the rent", forKey: "title")
            try context.save()
            #expect(!context.hasChanges && context.undoManager?.canUndo == true)
            context.undo()
            #expect(rent.value(forKey: "title") as? String == "Pay rent")
            #expect(rent.isUpdated && context.hasChanges)
            #expect(try rent.committedValues(forKeys: ["title"])["title"] as? String == "Pay the rent")
        }
    }

    // Like chapters 2 to 6: no listing calls the workbook's machinery, and the page links
    // Apple's pages.
    @Test func theListingsStandOnTheirOwnAndThePageLinksApplesDocumentation() throws {
        let listings = try SelfContainedListingsTests.listings(of: "changes")
        #expect(listings.count > 8)
        for listing in listings {
            for word in ["bench", "Workbench", "letTheMainQueueRun", "printFromAnyQueue"] {
                #expect(!listing.code.contains(word), "\(listing.name) calls \(word), which the book never shows")
            }
        }
        let page = try String(
            contentsOf: SelfContainedListingsTests.root.appendingPathComponent("book/changes.md"), encoding: .utf8)
        let reading = try #require(page.range(of: "\n## Further reading\n"))
        let links = page[reading.upperBound...].components(separatedBy: "](https://developer.apple.com/documentation/")
        #expect(links.count > 10)
        for path in [
            "coredata/nsmanagedobjectcontext/didchangeobjectsnotification",
            "coredata/nsmanagedobjectcontext/didsaveobjectsnotification", "coredata/nsfetchedresultscontroller",
            "coredata/nsmanagedobject/changedvalues()", "coredata/nsmanagedobjectcontext/undomanager",
        ] {
            #expect(page.contains("](https://developer.apple.com/documentation/\(path))"), "\(path)")
        }
        #expect(page.prefix(2_500).contains("(#further-reading)"))
    }
}
