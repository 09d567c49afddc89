import Foundation

/// What the program reads from the world: the clock, the time zone, the environment
/// variables, and where it prints. Tests replace it for one task with
/// `ToDoEnvironment.$current.withValue(...)`, so commands run in process on a fake clock.
public struct ToDoEnvironment: Sendable {
    /// Tells the time, and waits.
    public var clock: any ToDoClock
    /// The zone times are read and printed in: the user's own.
    public var timeZone: TimeZone
    /// Environment variables (`XDG_DATA_HOME`, `HOME`).
    public var variables: [String: String]
    /// Whether a person is watching a terminal: then alerts ring the bell and long work
    /// draws a progress bar.
    public var isTerminal: Bool
    /// Prints one line.
    public var write: @Sendable (String) -> Void

    /// Creates an environment.
    public init(
        clock: any ToDoClock, timeZone: TimeZone, variables: [String: String], isTerminal: Bool,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.clock = clock
        self.timeZone = timeZone
        self.variables = variables
        self.isTerminal = isTerminal
        self.write = write
    }

    /// The real world: the system clock, the user's time zone, standard output.
    public static let live = ToDoEnvironment(
        clock: SystemClock(), timeZone: .current, variables: ProcessInfo.processInfo.environment,
        isTerminal: isatty(STDOUT_FILENO) == 1,
        // Unbuffered: `todo watch` runs for hours, and its alerts must reach a pipe or a log
        // file as they happen, not when the program ends.
        write: { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) })

    /// The environment commands run in.
    @TaskLocal public static var current: ToDoEnvironment = .live
}

/// Tells the time and waits; the watch command's timer runs on it.
public protocol ToDoClock: Sendable {
    /// Now.
    var now: Date { get }
    /// Returns at `date` (at once if it has passed).
    func sleep(until date: Date)
}

/// The system's clock.
public struct SystemClock: ToDoClock {
    /// Creates the system clock.
    public init() {}
    /// Now, by the system.
    public var now: Date { Date() }
    /// Sleeps the thread until `date`.
    public func sleep(until date: Date) {
        let interval = date.timeIntervalSinceNow
        if interval > 0 { Thread.sleep(forTimeInterval: interval) }
    }
}

/// A clock that stands still until it is moved, and whose sleeping moves it: tests run a
/// minute timer without waiting a minute.
public final class ManualClock: ToDoClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// A clock showing `date`.
    public init(_ date: Date) { current = date }

    /// The time it shows.
    public var now: Date { lock.withLock { current } }

    /// Moves the clock forward to `date`.
    public func sleep(until date: Date) { lock.withLock { if date > current { current = date } } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) { lock.withLock { current += interval } }
}
