import Foundation

/// The module's one lock type: a mutex and the state it guards, which is reachable only while
/// the mutex is held.
///
/// ```swift
/// let stores = Lock<[PersistentStore]>([])
/// stores.withLock { $0.append(store) }
/// let count = stores.withLock { $0.count }
/// ```
///
/// A recursive lock (`Lock((), recursive: true)`) may be taken again by the thread that holds
/// it; it guards a section of code with ``run(_:)`` rather than a value, since a value lent
/// `inout` twice at once would break Swift's exclusivity rule.
final class Lock<State>: @unchecked Sendable {
    // @unchecked Sendable: `state` is read and written only inside `withLock`, with the mutex
    // held, so no two threads ever touch it at once.
    private let mutex: NSLocking
    private var state: State

    /// A lock guarding `state`; `recursive` lets the holding thread take it again.
    init(_ state: State, recursive: Bool = false) {
        self.state = state
        self.mutex = recursive ? NSRecursiveLock() : NSLock()
    }

    /// Runs `body` with the mutex held, lending it the state.
    @inline(__always)
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state)
    }

    /// Runs `body` with the mutex held, without touching the state: the form a recursive lock
    /// uses, since its holder may run again inside `body`.
    @inline(__always)
    func run<R>(_ body: () throws -> R) rethrows -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}
