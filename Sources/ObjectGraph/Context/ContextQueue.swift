import Dispatch
import Foundation

/// A context's serial queue: the work `perform` and `performAndWait` confine to it. A
/// `.mainQueue` context's queue is the main queue.
final class ContextQueue: @unchecked Sendable {
    // @unchecked Sendable: both properties are constants set in init; the watchdog keeps its
    // own state on the queue it is attached to.
    let queue: DispatchQueue
    let isMain: Bool

    init(_ type: ManagedObjectContext.ConcurrencyType) {
        isMain = type == .mainQueue
        if isMain {
            queue = .main
            ConfinementWatchdog.attachToMainQueue()
        } else {
            queue = DispatchQueue(label: "ObjectGraph.ManagedObjectContext")
            ConfinementWatchdog.attach(to: queue, allowing: ObjectIdentifier(queue))
        }
    }

    /// The identity the watchdog allows: the queue's.
    var identity: ObjectIdentifier { ObjectIdentifier(queue) }

    /// Whether the caller may use a context of this queue now: it runs on the queue (or, for the
    /// main queue, on the main thread), or inside a `performAndWait` of a context whose queue
    /// this one waits for.
    var isCurrent: Bool {
        // The main queue, not only the main thread: once the main thread calls dispatchMain()
        // (as Swift's async main does on Linux), other threads drain the main queue.
        if isMain && (Thread.isMainThread || ConfinementWatchdog.isOnMainQueue) { return true }
        return ConfinementWatchdog.allows(identity)
    }
}

extension ManagedObjectContext {
    /// How a context is confined to a queue (NSManagedObjectContextConcurrencyType), with
    /// Apple's raw values.
    public enum ConcurrencyType: Int, Hashable, Sendable, CustomStringConvertible {
        /// Confined by its caller to one thread at a time, unchecked (confinementConcurrencyType,
        /// deprecated by Apple; the type of ``ManagedObjectContext/init(coordinator:)``).
        case confinement = 0
        /// Runs on a private queue of its own: use it inside `perform` or `performAndWait`
        /// (privateQueueConcurrencyType).
        case privateQueue = 1
        /// Runs on the main queue: use it on the main thread, or inside `perform` or
        /// `performAndWait` (mainQueueConcurrencyType).
        case mainQueue = 2

        /// The type's name as Apple's Swift API spells it, without the suffix.
        public var description: String {
            switch self {
            case .confinement: return "confinement"
            case .privateQueue: return "privateQueue"
            case .mainQueue: return "mainQueue"
            }
        }
    }

    /// How `perform(schedule:_:)` runs a block (NSManagedObjectContext.ScheduledTaskType).
    public enum ScheduledTaskType: Hashable, Sendable {
        /// Runs at once when already on the context's queue, otherwise enqueued.
        case immediate
        /// Always enqueued after the blocks already waiting on the context's queue.
        case enqueued
    }

    /// Whether the caller may use this context now: it runs on the context's queue (inside a
    /// `perform` or `performAndWait` block of this context, or for a `.mainQueue` context on
    /// the main thread), or inside a `performAndWait` that this context's queue waits for.
    public var isOnContextQueue: Bool { contextQueue.isCurrent }

    /// Runs a block on the context's queue and returns at once (perform(_:)).
    ///
    /// A context is used from one queue at a time. Core Data's way, followed here: each context
    /// has its own serial queue (the main queue for `.mainQueue`), and work that touches the
    /// context or its objects runs in `perform` or `performAndWait` blocks; objects cross
    /// between contexts as ``ManagedObjectID``s, which are `Sendable`.
    ///
    /// The block is an event: the context processes its pending changes when the block ends
    /// (``processPendingChanges()``; Apple's performBlock "encapsulates an autorelease pool and
    /// a call to processPendingChanges").
    public func perform(_ block: @escaping @Sendable () -> Void) {
        contextQueue.queue.async {
            block()
            self.processPendingChanges()
        }
    }

    /// Runs a block on the context's queue and returns its result when it is done
    /// (perform(schedule:_:)); a thrown error is rethrown to the caller. The context processes
    /// its pending changes when the block ends, as after ``perform(_:)``.
    ///
    /// ```swift
    /// let count = try await context.perform {
    ///     try context.count(for: FetchRequest(entityName: "Book"))
    /// }
    /// ```
    public func perform<T, E: Error>(
        schedule: ScheduledTaskType = .immediate, _ block: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        if schedule == .immediate && contextQueue.isCurrent {
            defer { processPendingChanges() }
            return try block()
        }
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            contextQueue.queue.async {
                let result = Result { () throws(E) -> T in try block() }
                self.processPendingChanges()
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    /// Runs a block on the context's queue and waits for it (performAndWait(_:)); returns its
    /// result and rethrows its error. Reentrant: inside a block of the same context it runs
    /// at once. It does not end the event (call ``processPendingChanges()``), as Core Data's
    /// performAndWait does not.
    ///
    /// While the block runs, the caller's queue waits, so the contexts the caller could use
    /// stay usable inside the block (as GRDB's SchedulingWatchdog lends its databases): a child
    /// context's block can ask its parent, and the parent its child, without deadlock. As in
    /// Core Data, a `.mainQueue` context's `performAndWait` called from another queue waits for
    /// the main thread, so the main thread must not be waiting for that queue.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if contextQueue.isCurrent { return try block() }
        let lent = ConfinementWatchdog.current?.allowed ?? []
        return try contextQueue.queue.sync {
            guard let watchdog = ConfinementWatchdog.current else { return try block() }
            return try watchdog.lending(lent, block)
        }
    }

    /// Stops the program (debug builds) when a queue context is used off its queue, naming the
    /// context and the method: Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`. Release
    /// builds skip the check.
    @inline(__always)
    func checkConfinement(_ function: StaticString = #function) {
        #if DEBUG
            if concurrencyType != .confinement && !contextQueue.isCurrent { confinementViolated(function) }
        #endif
    }

    private func confinementViolated(_ function: StaticString) {
        let thread = Thread.isMainThread ? "the main thread" : "a thread off its queue"
        let fix =
            concurrencyType == .mainQueue
            ? "use it on the main thread, or inside its perform or performAndWait"
            : "use it only inside its perform or performAndWait"
        let message =
            "Concurrency violation: \(displayName) was used off its queue: \(function) ran on \(thread); \(fix)"
        if let confinementViolationHandler {
            confinementViolationHandler(message)
        } else {
            preconditionFailure(message)
        }
    }
}
