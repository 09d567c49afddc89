import ArgumentParser
import Foundation

@testable import ToDoApp

/// Runs `todo` commands in process, in a directory of their own, on a clock that moves only
/// when told to (or when `watch` sleeps), printing into an array.
final class ToDoHarness: @unchecked Sendable {
    let directory: URL
    let clock: ManualClock
    let timeZone: TimeZone
    /// Whether the commands think a person is watching a terminal.
    var isTerminal = false
    private let lock = NSLock()
    private var printed: [String] = []

    /// 1 June 2009, 09:00 UTC, the chapters' fixed "now".
    static let start = Date(timeIntervalSinceReferenceDate: 265_539_600)

    init(timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        clock = ManualClock(Self.start)
        self.timeZone = timeZone
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var environment: ToDoEnvironment {
        ToDoEnvironment(
            clock: clock, timeZone: timeZone,
            variables: ["XDG_DATA_HOME": directory.path, "HOME": directory.appendingPathComponent("home").path],
            isTerminal: isTerminal, write: { [self] line in lock.withLock { printed.append(line) } })
    }

    /// The default store of these tests: `$XDG_DATA_HOME/todo/ToDo.xml`.
    var storeURL: URL { directory.appendingPathComponent("todo/ToDo.xml") }

    /// Runs one command line and returns what it printed.
    @discardableResult
    func run(_ arguments: String...) throws -> [String] { try run(arguments) }

    /// Runs one command line and returns what it printed.
    @discardableResult
    func run(_ arguments: [String]) throws -> [String] {
        lock.withLock { printed = [] }
        try ToDoEnvironment.$current.withValue(environment) {
            var command = try ToDoCommand.parseAsRoot(arguments)
            try command.run()
        }
        return lock.withLock { printed }
    }

    /// The message a person sees for a command line that fails: the error, as the program
    /// prints it, and nil when it succeeds.
    func failure(_ arguments: String...) -> String? { failure(arguments) }

    /// The message a person sees for a command line that fails, nil when it succeeds.
    func failure(_ arguments: [String]) -> String? {
        do {
            try run(arguments)
            return nil
        } catch {
            return ToDoCommand.message(for: error)
        }
    }
}
