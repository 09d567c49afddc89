import Dispatch

/// Tells whether the code running now may use a queue context (GRDB's SchedulingWatchdog,
/// for contexts instead of database connections).
///
/// Each context queue carries a watchdog, as a dispatch-queue specific, that allows that
/// queue's contexts. While a block of `performAndWait` runs on a queue, the caller's queue is
/// blocked waiting for it, so the watchdog of the queue lends the block the contexts the
/// caller may use (``lending(_:_:)``): a child's block can read its parent without a second
/// hop, and a parent's block can use its child. The main queue has one watchdog, which allows
/// nothing by itself: main-queue contexts are allowed on the main queue and the main thread.
final class ConfinementWatchdog: @unchecked Sendable {
    // @unchecked Sendable: `allowed` is read and written only by blocks running on the serial
    // queue the watchdog is attached to, one at a time (GRDB's reasoning for its watchdog).

    private static let key = DispatchSpecificKey<ConfinementWatchdog>()
    /// The main queue's watchdog, attached once.
    private static let main: ConfinementWatchdog = {
        let watchdog = ConfinementWatchdog(allowed: [])
        DispatchQueue.main.setSpecific(key: key, value: watchdog)
        return watchdog
    }()

    /// The context queues (by identity) the code on this queue may use now.
    private(set) var allowed: [ObjectIdentifier]

    private init(allowed: [ObjectIdentifier]) { self.allowed = allowed }

    /// Attaches a watchdog allowing `owner` to a new context queue.
    static func attach(to queue: DispatchQueue, allowing owner: ObjectIdentifier) {
        queue.setSpecific(key: key, value: ConfinementWatchdog(allowed: [owner]))
    }

    /// Makes sure the main queue has its watchdog.
    static func attachToMainQueue() { _ = main }

    /// The watchdog of the queue running now, if it is a context queue (or the main queue).
    static var current: ConfinementWatchdog? { DispatchQueue.getSpecific(key: key) }

    /// Whether the code running now runs on the main queue (on whichever thread drains it).
    static var isOnMainQueue: Bool { current === main }

    /// Whether the code running now may use the contexts of the queue `owner`.
    static func allows(_ owner: ObjectIdentifier) -> Bool {
        current?.allowed.contains(owner) ?? false
    }

    /// Runs `body` (on this watchdog's queue) with `lent` allowed as well: the contexts of a
    /// caller blocked until `body` returns.
    func lending<T>(_ lent: [ObjectIdentifier], _ body: () throws -> T) rethrows -> T {
        guard !lent.isEmpty else { return try body() }
        let saved = allowed
        allowed += lent
        defer { allowed = saved }
        return try body()
    }
}
