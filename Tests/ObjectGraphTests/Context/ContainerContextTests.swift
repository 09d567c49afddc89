import Foundation
import Testing

@testable import ObjectGraph

// The container's contexts and Swift concurrency. Apple pages: NSPersistentContainer
// viewContext ("The main queue's managed object context ... associated directly with the
// NSPersistentStoreCoordinator"), newBackgroundContext() ("a new managed object context that
// executes on a private queue"), performBackgroundTask(_:) ("Executes a closure on a private
// queue using an ephemeral managed object context", and its async form);
// NSManagedObjectContext perform(_:), perform(schedule:_:), performAndWait(_:).
@Suite struct ContainerContextTests {
    /// A container on a fresh SQLite store of the books model.
    func container(in directory: TemporaryDirectory) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Books", managedObjectModel: try booksModel())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.file("Books.sqlite"))]
        try container.loadPersistentStores()
        return container
    }

    @Test func viewContextIsOnTheMainQueueAndBackgroundContextsArePrivate() throws {
        let directory = try TemporaryDirectory()
        let container = try container(in: directory)
        let view = container.viewContext
        #expect(view.concurrencyType == .mainQueue)
        #expect(view.parent == nil)
        #expect(view.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(container.viewContext === view)
        let background = container.newBackgroundContext()
        #expect(background.concurrencyType == .privateQueue)
        #expect(background.parent == nil)
        #expect(background.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(container.newBackgroundContext() !== background)
        // Each private context has its own queue; the view context's is the main queue.
        #expect(background.performAndWait { background.isOnContextQueue })
        #expect(!background.isOnContextQueue)
    }

    // A background save reaches the store, and the view context merges it
    // (automaticallyMergesChangesFromParent, the usual pairing with performBackgroundTask).
    @Test func performBackgroundTaskSavesAndTheViewContextMerges() async throws {
        let directory = try TemporaryDirectory()
        let container = try container(in: directory)
        let view = container.viewContext
        await view.perform { view.automaticallyMergesChangesFromParent = true }
        let id = try await container.performBackgroundTask { context in
            #expect(context.concurrencyType == .privateQueue)
            #expect(context.isOnContextQueue)
            let publisher = try context.insertNewObject(forEntityName: "Publisher")
            try publisher.checkedSetValue("BookCo", forKey: "name")
            try context.save()
            return publisher.objectID
        }
        #expect(!id.isTemporaryID)
        let name = try await view.perform { try view.existingObject(with: id).checkedValue(forKey: "name") as? String }
        #expect(name == "BookCo")

        // The callback form runs the block on a new private context and returns at once.
        let renamed: Bool = await withCheckedContinuation { continuation in
            container.performBackgroundTask { context in
                do {
                    try context.existingObject(with: id).checkedSetValue("Renamed", forKey: "name")
                    try context.save()
                    continuation.resume(returning: true)
                } catch {
                    continuation.resume(returning: false)
                }
            }
        }
        #expect(renamed)
        let merged = try await view.perform(schedule: .enqueued) {
            try view.object(with: id).checkedValue(forKey: "name") as? String
        }
        #expect(merged == "Renamed")
    }

    // performAndWait on the main-queue context from another queue runs the block on the main
    // queue and returns its value; perform(_:) enqueues on it.
    @Test func mainQueueContextRunsItsBlocksOnTheMainQueue() async throws {
        let directory = try TemporaryDirectory()
        let container = try container(in: directory)
        let view = container.viewContext
        let count = try view.performAndWait {
            #expect(view.isOnContextQueue)
            return try view.count(for: FetchRequest(entityName: "Book"))
        }
        #expect(count == 0)
        let onMain: Bool = await withCheckedContinuation { continuation in
            view.perform { continuation.resume(returning: view.isOnContextQueue) }
        }
        #expect(onMain)
    }
}
