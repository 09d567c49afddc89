import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

// Contexts on different threads: each confined to its own queue through perform and
// performAndWait, saves serialized by the coordinator. Apple pages: NSManagedObjectContext
// perform(_:), perform(schedule:_:), performAndWait(_:); Core Data Programming Guide,
// "Concurrency"; NSPersistentStoreCoordinator performAndWait(_:).
@Suite struct ConcurrencyTests {
    static let increments = 200

    func counterModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Counter") {
                AttributeDescription("value", .integer64, defaultValue: 0)
                AttributeDescription("a", .integer64, defaultValue: 0)
                AttributeDescription("b", .integer64, defaultValue: 0)
            }
        }
    }

    /// A stack with one saved counter at zero.
    func counterStack(_ type: StoreType) throws -> (StackFixture, ManagedObjectID) {
        let stack = try StackFixture(type, model: try counterModel())
        let counter = try stack.context.insertNewObject(forEntityName: "Counter")
        try stack.context.save()
        return (stack, counter.objectID)
    }

    // performAndWait(_:) runs the block on the context's queue and returns its result; it is
    // reentrant. perform(schedule:_:) returns the block's result and rethrows its error.
    @Test func performRunsOnTheContextsQueue() async throws {
        let context = try inMemoryContext()
        #expect(!context.isOnContextQueue)
        let inside = context.performAndWait {
            context.isOnContextQueue && context.performAndWait { context.isOnContextQueue }
        }
        #expect(inside)
        let id = try await context.perform {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("Async", forKey: "title")
            try context.save()
            return book.objectID
        }
        #expect(!id.isTemporaryID)
        let title = try await context.perform(schedule: .enqueued) {
            try context.existingObject(with: id).checkedValue(forKey: "title") as? String
        }
        #expect(title == "Async")
        await #expect(throws: CoreDataError.self) {
            try await context.perform { _ = try context.insertNewObject(forEntityName: "Nothing") }
        }
        let onQueue = await context.perform { context.isOnContextQueue }
        #expect(onQueue)
    }

    // perform(_:) returns at once and runs the block later, in order, on the context's queue.
    @Test func performEnqueuesInOrder() async throws {
        let context = try inMemoryContext()
        let order = LockedLines()
        // In an async function the async overload wins, as with Core Data: enqueue from sync code.
        func enqueue(_ n: Int) { context.perform { order.append("\(n)") } }
        for n in 1...5 { enqueue(n) }
        await context.perform(schedule: .enqueued) { order.append("done") }
        #expect(order.all == ["1", "2", "3", "4", "5", "done"])
    }

    /// Adds one to the counter `times` times, in its own context on its own queue, each time
    /// reading the value the store has and retrying when another writer saved first (133020).
    /// Returns how many saves were retried.
    static func increment(_ id: ManagedObjectID, on coordinator: PersistentStoreCoordinator, times: Int) async throws
        -> Int
    {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try await context.perform {
            var retries = 0
            for _ in 0..<times {
                while true {
                    let counter = try context.existingObject(with: id)
                    let value = try counter.checkedValue(forKey: "value") as? Int ?? 0
                    try counter.checkedSetValue(value + 1, forKey: "value")
                    do {
                        try context.save()
                        break
                    } catch let error as CoreDataError where error.code == .merge {
                        retries += 1
                        try context.checkedRefresh(counter, mergeChanges: false)
                    }
                }
            }
            return retries
        }
    }

    // Two writers, each in its own context, increment one counter at the same time; optimistic
    // locking turns every lost update into a conflict the writer retries, so none is lost.
    @Test(arguments: [StoreType.sqlite, .xml, .inMemory])
    func twoWritersLoseNoIncrement(_ type: StoreType) async throws {
        let (stack, id) = try counterStack(type)
        let coordinator = stack.coordinator
        async let first = Self.increment(id, on: coordinator, times: Self.increments)
        async let second = Self.increment(id, on: coordinator, times: Self.increments)
        // Conflicts do happen: on this machine tens of retries on SQLite, hundreds on XML.
        _ = try await first + second
        let reader = ManagedObjectContext(coordinator: coordinator)
        let value = try reader.performAndWait {
            try reader.existingObject(with: id).checkedValue(forKey: "value") as? Int
        }
        #expect(value == 2 * Self.increments)
    }

    /// Adds one to the counter's `key` `times` times with a property merge policy and no
    /// retries: the other writer's property is merged in at each conflict.
    static func increment(_ key: String, of id: ManagedObjectID, on coordinator: PersistentStoreCoordinator, times: Int)
        async throws
    {
        let context = ManagedObjectContext(coordinator: coordinator)
        context.mergePolicy = .mergeByPropertyObjectTrump
        try await context.perform {
            let counter = try context.existingObject(with: id)
            for _ in 0..<times {
                let value = try counter.checkedValue(forKey: key) as? Int ?? 0
                try counter.checkedSetValue(value + 1, forKey: key)
                try context.save()
            }
        }
    }

    // NSMergeByPropertyObjectTrumpMergePolicy under concurrency: two writers change different
    // properties of one object; every save merges the other's property, none is lost.
    @Test(arguments: [StoreType.sqlite, .binary])
    func twoWritersOfDifferentPropertiesMergeByProperty(_ type: StoreType) async throws {
        let (stack, id) = try counterStack(type)
        let coordinator = stack.coordinator
        async let first: Void = Self.increment("a", of: id, on: coordinator, times: Self.increments)
        async let second: Void = Self.increment("b", of: id, on: coordinator, times: Self.increments)
        _ = try await (first, second)
        let reader = ManagedObjectContext(coordinator: coordinator)
        let counter = try reader.existingObject(with: id)
        #expect(try counter.checkedValue(forKey: "a") as? Int == Self.increments)
        #expect(try counter.checkedValue(forKey: "b") as? Int == Self.increments)
    }

    // Many contexts inserting at once on one SQLite store: each save gets its own keys and
    // every object arrives.
    @Test func concurrentInsertsAllArrive() async throws {
        let (stack, _) = try counterStack(.sqlite)
        let coordinator = stack.coordinator
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let context = ManagedObjectContext(coordinator: coordinator)
                    try await context.perform {
                        for _ in 0..<25 {
                            _ = try context.insertNewObject(forEntityName: "Counter")
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        let ids = try reader.fetchObjectIDs(FetchRequest(entityName: "Counter"))
        #expect(ids.count == 101)
        #expect(Set(ids.map(\.primaryKey)).count == 101)
    }
}
