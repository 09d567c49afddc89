import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ExerciseCatalog
@testable import ExerciseRunner

// The contexts checks explain the mistakes the chapter warns about, in the learner's words:
// each wrong attempt here is one a learner is likely to write (keeping every context on its
// queue, since a use off the queue would stop the test process).
@Suite struct ContextsCheckTests {
    static func messages(_ verdict: Verdict) -> String {
        if case .failed(let messages) = verdict { return messages.joined(separator: "\n") }
        return "verdict \(verdict)"
    }

    @Test func idsTakenBeforeTheSaveAreExplained() {
        let verdict = ContextsChecks.importBooks { titles, container in
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                let books = try titles.map { title in
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.checkedSetValue(title, forKey: "title")
                    return book
                }
                let ids = books.map(\.objectID)
                try context.save()
                return ids
            }
        }
        #expect(Self.messages(verdict).contains("You returned temporary IDs"))
    }

    @Test func importingOnTheViewContextIsExplained() {
        let verdict = ContextsChecks.importBooks { titles, container in
            let context = container.viewContext
            return try context.performAndWait {
                let books = try titles.map { title in
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.checkedSetValue(title, forKey: "title")
                    return book
                }
                try context.save()
                return books.map(\.objectID)
            }
        }
        #expect(Self.messages(verdict).contains("an import belongs on a background context"))
    }

    @Test func rollingBackTheViewContextIsExplained() {
        let verdict = ContextsChecks.scratchPad { id, title, keep, viewContext in
            try viewContext.performAndWait {
                try viewContext.existingObject(with: id).checkedSetValue(title, forKey: "title")
                if !keep { viewContext.rollback() }
            }
        }
        #expect(Self.messages(verdict).contains("rollback() or reset() on the view context throws away everything"))
    }

    @Test func savingTheViewContextToIsExplained() {
        let verdict = ContextsChecks.scratchPad { id, title, keep, viewContext in
            let editor = ManagedObjectContext(concurrencyType: .privateQueue)
            editor.parent = viewContext
            try editor.performAndWait {
                try editor.existingObject(with: id).checkedSetValue(title, forKey: "title")
                if keep { try editor.save() }
            }
            if keep { try viewContext.performAndWait { try viewContext.save() } }
        }
        #expect(Self.messages(verdict).contains("The new title reached the store: you saved the view context too"))
    }

    @Test func mergingEveryContextsSavesIsExplained() {
        let verdict = ContextsChecks.mergeSaves { _, reader in
            reader.performAndWait { reader.automaticallyMergesChangesFromParent = true }
            return NotificationCenter.default.addObserver(forName: .init("nothing"), object: nil, queue: nil) { _ in }
        }
        let text = Self.messages(verdict)
        #expect(!text.contains("still shows"), "\(text)")
        #expect(text.contains("The reader also took in a save by another context"))
    }

    // A context used off its queue stops the exercise's program (the debug check); the report
    // says so in words before the check's own message and the learner's line.
    @Test func aContextUsedOffItsQueueIsReportedAsSuch() {
        let report = ExerciseRunner.crashReport(
            signal: 4,
            standardError:
                "ObjectGraph/ContextQueue.swift:157: Fatal error: Concurrency violation: the context \"reader\" was used off its queue\n",
            file: "Exercises/Workspace/Contexts/contexts-3.swift")
        #expect(report.hasPrefix("Your code trapped: it used a context off its queue."))
        #expect(report.contains("Fatal error: Concurrency violation: the context \"reader\""))
    }

    @Test func notMergingAtAllIsExplained() {
        let verdict = ContextsChecks.mergeSaves { writer, _ in
            NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveNotification, object: writer, queue: nil
            ) { _ in }
        }
        #expect(Self.messages(verdict).contains("the reader still shows \"Fetch, Clarus, Fetch\""))
    }
}
