import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

// Confinement, checked: a queue context used off its queue stops a debug build, as Core Data
// does with -com.apple.CoreData.ConcurrencyDebug 1 (Apple: NSManagedObjectContext,
// "Concurrency": a private-queue context is used only through perform(_:) and
// performAndWait(_:); a main-queue context on the main queue). Here each context's
// `confinementViolationHandler` reports the violation instead of stopping the test process;
// one test lets a child process stop for real.
#if DEBUG
    @Suite struct ConfinementTests {
        static var childURL: URL? { BuiltExecutable.url(named: "objectgraph-crash-child") }

        // Without a handler, a debug build stops at the first use off the queue, saying why.
        @Test(
            .enabled(
                if: childURL != nil, "the objectgraph-crash-child executable is built by `swift build --build-tests`"))
        func aDebugBuildStopsAtAUseOffTheQueue() throws {
            let process = Process()
            process.executableURL = Self.childURL
            process.arguments = ["--confinement"]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(printed.isEmpty)
            #expect(
                complaint.contains(
                    "Concurrency violation: a privateQueue context was used off its queue: count(for:) ran on the main thread; use it only inside its perform or performAndWait"
                ))
        }

        /// A context of a type on a fresh in-memory store, whose violations are collected.
        func watchedContext(_ type: ManagedObjectContext.ConcurrencyType) throws -> (ManagedObjectContext, LockedLines)
        {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
            try coordinator.addPersistentStore(type: .inMemory)
            let context = ManagedObjectContext(concurrencyType: type, coordinator: coordinator)
            let violations = LockedLines()
            context.confinementViolationHandler = { violations.append($0) }
            return (context, violations)
        }

        @Test func aPrivateQueueContextUsedOffItsQueueIsReported() throws {
            let (context, violations) = try watchedContext(.privateQueue)
            context.name = "importer"
            _ = try context.fetch(FetchRequest(entityName: "Book"))
            _ = try context.insertNewObject(forEntityName: "Publisher")
            #expect(violations.all.count == 2)
            #expect(
                violations.all.first
                    == "Concurrency violation: the context \"importer\" was used off its queue: fetch(_:) ran on a thread off its queue; use it only inside its perform or performAndWait"
            )
            #expect(violations.all.last?.contains("insertNewObject(forEntityName:)") == true)
        }

        @Test func insidePerformAndWaitNothingIsReported() async throws {
            let (context, violations) = try watchedContext(.privateQueue)
            try context.performAndWait {
                let publisher = try context.insertNewObject(forEntityName: "Publisher")
                try publisher.checkedSetValue("BookCo", forKey: "name")
                try context.save()
            }
            let count = try await context.perform { try context.count(for: FetchRequest(entityName: "Publisher")) }
            #expect(count == 1)
            #expect(violations.all.isEmpty)
        }

        // Objects are confined with their context: setting a value off the queue is reported.
        @Test func anObjectChangedOffItsContextsQueueIsReported() throws {
            let (context, violations) = try watchedContext(.privateQueue)
            let publisher = try context.performAndWait { try context.insertNewObject(forEntityName: "Publisher") }
            try publisher.checkedSetValue("BookCo", forKey: "name")
            #expect(violations.all.count == 1)
            #expect(violations.all.first?.contains("setValue(_:of:at:)") == true)
        }

        @Test func aMainQueueContextUsedOffTheMainQueueIsReported() async throws {
            let (context, violations) = try watchedContext(.mainQueue)
            // A test runs on the cooperative pool, not on the main queue.
            _ = try context.count(for: FetchRequest(entityName: "Book"))
            #expect(violations.all.count == 1)
            #expect(
                violations.all.first?.contains("use it on the main thread, or inside its perform or performAndWait")
                    == true)
            _ = try await MainActor.run { try context.count(for: FetchRequest(entityName: "Book")) }
            #expect(violations.all.count == 1)
        }

        // A context made with init(coordinator:) is confined by its caller, unchecked, as Core
        // Data's confinement type is.
        @Test func aConfinementContextIsNotChecked() throws {
            let (context, violations) = try watchedContext(.confinement)
            _ = try context.insertNewObject(forEntityName: "Publisher")
            #expect(context.concurrencyType == .confinement)
            #expect(
                ManagedObjectContext(coordinator: context.persistentStoreCoordinator).concurrencyType == .confinement)
            #expect(violations.all.isEmpty)
        }

        // One context's queue is not another's: a child used inside its parent's perform block,
        // without its own, is reported.
        @Test func anotherContextsQueueDoesNotCount() throws {
            let (parent, _) = try watchedContext(.privateQueue)
            let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
            let violations = LockedLines()
            child.confinementViolationHandler = { violations.append($0) }
            try parent.performAndWait { _ = try child.fetch(FetchRequest(entityName: "Book")) }
            #expect(violations.all.count == 1)
        }
    }
#endif
