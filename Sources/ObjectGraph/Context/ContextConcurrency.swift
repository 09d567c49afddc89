import Foundation
import Dispatch

/// A context's serial queue: the work `perform` and `performAndWait` confine to it.
final class ContextQueue: @unchecked Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init() {
        queue = DispatchQueue(label: "ObjectGraph.ManagedObjectContext")
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the caller is running on this queue (inside `perform` or `performAndWait`).
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

extension ManagedObjectContext {
    /// How `perform(schedule:_:)` runs a block (NSManagedObjectContext.ScheduledTaskType).
    public enum ScheduledTaskType: Hashable, Sendable {
        /// Runs at once when already on the context's queue, otherwise enqueued.
        case immediate
        /// Always enqueued after the blocks already waiting on the context's queue.
        case enqueued
    }

    /// Whether the caller is on this context's queue, inside a `perform` or `performAndWait`
    /// block of this context.
    public var isOnContextQueue: Bool { contextQueue.isCurrent }

    /// Runs a block on the context's queue and returns at once (perform(_:)).
    ///
    /// A context is used from one queue at a time. Core Data's way, followed here: each context
    /// has its own serial queue, and work that touches the context or its objects runs in
    /// `perform` or `performAndWait` blocks; objects cross between contexts as
    /// ``ManagedObjectID``s, which are `Sendable`.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        contextQueue.queue.async(execute: block)
    }

    /// Runs a block on the context's queue and returns its result when it is done
    /// (perform(schedule:_:)); a thrown error is rethrown to the caller.
    ///
    /// ```swift
    /// let count = try await context.perform {
    ///     try context.count(for: FetchRequest(entityName: "Book"))
    /// }
    /// ```
    public func perform<T, E: Error>(schedule: ScheduledTaskType = .immediate, _ block: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        if schedule == .immediate && contextQueue.isCurrent { return try block() }
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            contextQueue.queue.async {
                continuation.resume(returning: Result { () throws(E) -> T in try block() })
            }
        }
        return try result.get()
    }

    /// Runs a block on the context's queue and waits for it (performAndWait(_:)); returns its
    /// result and rethrows its error. Reentrant: inside a block of the same context it runs
    /// at once.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if contextQueue.isCurrent { return try block() }
        return try contextQueue.queue.sync(execute: block)
    }
}
