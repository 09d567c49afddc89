import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ContextsChapter

// Every behaviour the contexts chapter states, asserted through its sections' output and
// through the API. Each test names the Apple page it comes from.
@Suite struct ContextsChapterTests {
    static func output(_ name: String) throws -> String {
        try ChapterRunner.output(of: try ChapterRunner.section(named: name, in: ContextsChapter.self))
    }

    // Apple, "Using Core Data in the background": a main queue context for the interface, private
    // queue contexts that make their own queue; NSPersistentContainer's viewContext and
    // newBackgroundContext() share the coordinator; object IDs cross queues.
    @Test func theStackHasAViewContextAndBackgroundContextsOnOneCoordinator() throws {
        let text = try Self.output("the-stack")
        #expect(text.contains("viewContext: mainQueue, parent: none"))
        #expect(text.contains("background:  privateQueue, parent: none"))
        #expect(text.contains("Same coordinator: true"))
        #expect(text.contains("The background context saved 4 books; their IDs are permanent: true"))
        #expect(text.hasSuffix("  on the main queue: Core Data by Tutorials (2014)"))
    }

    // perform(_:) and performAndWait(_:): the value comes back, the error is rethrown, blocks run
    // in the order given; performBackgroundTask(_:) makes a private queue context each time.
    @Test func performRunsBlocksInOrderAndPerformAndWaitRethrows() throws {
        let text = try Self.output("perform")
        #expect(text.contains("performAndWait returned the block's value: 4 books"))
        #expect(text.contains("performAndWait rethrew the block's error: NSCocoaErrorDomain 1570"))
        let blocks = text.split(separator: "\n").filter { $0.hasPrefix("block ") }
        #expect(blocks.map { $0.prefix(7) } == ["block 1", "block 2", "block 3"])
        #expect(text.contains("performBackgroundTask: saved on a privateQueue context of its own"))
        #expect(text.hasSuffix("The store now holds 5 books."))
    }

    // NSManagedObjectContext.parent: a child's save goes into its parent, which holds the change
    // until it saves; a child rolled back changes nothing in its parent.
    @Test func aChildsSaveReachesItsParentAndNotTheStore() throws {
        let text = try Self.output("scratch-pad")
        #expect(
            text.contains(
                "After the editor saved: the view context has changes: true, title \"Core Data, 2nd edition\"\n  the store still holds \"Core Data\""
            ))
        #expect(text.contains("After the view context saved: the store holds \"Core Data, 2nd edition\""))
        #expect(text.contains("The draft: 1 inserted, 1 deleted\nAfter rollback(): 0 inserted, 0 deleted"))
        #expect(text.hasSuffix("The view context has changes: false, and still 4 books"))
    }

    // automaticallyMergesChangesFromParent and mergeChanges(fromContextDidSave:).
    @Test func savesAreMergedAutomaticallyOrFromTheNotification() throws {
        let text = try Self.output("merging")
        #expect(
            text.contains(
                "The view context shows \"Core Data by Tutorials\"\nAfter the background save: \"Core Data by Tutorials, 8th edition\""
            ))
        #expect(text.contains("The writer saved a new title; the reader still shows \"Fetch, Clarus, Fetch\""))
        #expect(
            text.hasSuffix("With the observer, after the writer's next save: \"Fetch, Clarus, Fetch (MacTech 21.11)\""))
    }

    // Errata R1: Apple's newBackgroundContext() page says the context consumes the did-save
    // broadcasts automatically; here, as the property's default says, it merges nothing until
    // asked.
    @Test func aNewBackgroundContextMergesNothingUntilAsked() throws {
        let bench = Workbench { _ in }
        let container = try Library.makeContainer(in: bench.makeDataFolder())
        let id = try Library.insertBooks(into: container)[0]
        let (reader, writer) = (container.newBackgroundContext(), container.newBackgroundContext())
        #expect(!reader.automaticallyMergesChangesFromParent)
        func title() -> String? {
            reader.performAndWait { try? reader.object(with: id).checkedValue(forKey: "title") as? String }
        }
        func rename(_ title: String) throws {
            try writer.performAndWait {
                try writer.existingObject(with: id).checkedSetValue(title, forKey: "title")
                try writer.save()
            }
        }
        #expect(title() == "Fetch, Clarus, Fetch")
        try rename("Renamed once")
        #expect(title() == "Fetch, Clarus, Fetch")
        reader.performAndWait { reader.automaticallyMergesChangesFromParent = true }
        try rename("Renamed twice")
        #expect(title() == "Renamed twice")
    }

    // The debug check (-com.apple.CoreData.ConcurrencyDebug 1 on Apple's): the section runs the
    // offending code in the chapter's own executable and prints what stopped it.
    #if DEBUG
        @Test(.enabled(if: OffQueue.contextsExecutable() != nil, "the contexts executable is built by `swift build`"))
        func aContextUsedOffItsQueueStopsADebugBuild() throws {
            let text = try Self.output("off-queue")
            #expect(
                text.contains(
                    "  Fatal error: Concurrency violation: the context \"importer\" was used off its queue: count(for:) ran on the main thread; use it only inside its perform or performAndWait\nThe program stopped there (a trap)."
                ), "\(text)")
            #expect(text.hasSuffix("Inside performAndWait, the importer counted 4 books."))
        }
    #endif

    // Like chapters 2 to 5 (SelfContainedListingsTests): no listing calls the workbook's
    // machinery, the helpers a listing calls are shown first, and the page links Apple's pages.
    @Test func theListingsStandOnTheirOwnAndThePageLinksApplesDocumentation() throws {
        let listings = try SelfContainedListingsTests.listings(of: "contexts")
        #expect(listings.count > 10)
        for listing in listings {
            for word in ["bench", "Workbench", "Library.insertBooks", "Library.storedTitle", "letTheMainQueueRun"] {
                #expect(!listing.code.contains(word), "\(listing.name) calls \(word), which the book never shows")
            }
        }
        let model = try #require(listings.firstIndex { $0.code.contains("static func library() throws") })
        let container = try #require(listings.firstIndex { $0.code.contains("ContextsModels.library()") })
        #expect(model < container)
        let page = try String(
            contentsOf: SelfContainedListingsTests.root.appendingPathComponent("book/contexts.md"), encoding: .utf8)
        let reading = try #require(page.range(of: "\n## Further reading\n"))
        let links = page[reading.upperBound...].components(separatedBy: "](https://developer.apple.com/documentation/")
        #expect(links.count > 10)
        #expect(
            page.contains("](https://developer.apple.com/documentation/coredata/using-core-data-in-the-background)"))
        #expect(page.prefix(2_500).contains("(#further-reading)"))
    }

    // The stack diagram is drawn from the contexts the chapter makes.
    @Test func theStackDiagramShowsEachContextAndItsParentStore() throws {
        let draw = try #require(ContextsChapter.diagrams["stack"])
        let diagram = try draw()
        #expect(diagram.contains("    PersistentStoreCoordinator {\n        SQLite store \"Library.sqlite\"\n    }"))
        #expect(diagram.contains("    viewContext {\n        mainQueue concurrencyType\n    }"))
        #expect(diagram.contains("    background ||--|| PersistentStoreCoordinator : \"persistentStoreCoordinator\""))
        #expect(diagram.contains("    editor ||--|| viewContext : \"parent\""))
    }
}
