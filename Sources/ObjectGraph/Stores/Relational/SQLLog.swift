import Foundation
import GRDB

/// The SQL debug log, in the manner of Core Data's `-com.apple.CoreData.SQLDebug 1`: each
/// statement with its bound values, then its time and row count.
///
/// Like Core Data's SQLDebug, the switch is process-wide: ``shared`` follows
/// `OBJECTGRAPH_SQL_DEBUG=1` (printing to standard error) or takes a handler, and every
/// coordinator's log, and every migration's, sends its lines there unless it has a handler of
/// its own:
///
/// ```swift
/// SQLLog.shared.handler = { line in print(line) }     // every store and migration
/// coordinator.sqlLog.handler = { line in print(line) } // or one coordinator's stores only
/// coordinator.sqlLog.includesTimings = false   // for output that must not change between runs
/// ```
public final class SQLLog: Sendable {
    /// What a log is set to, guarded by one lock.
    private struct Settings {
        var handler: (@Sendable (String) -> Void)?
        var includesTimings = true
        var parent: SQLLog?
    }
    private let settings: Lock<Settings>

    /// The process-wide log (Core Data's SQLDebug default): on, to standard error, when
    /// `OBJECTGRAPH_SQL_DEBUG` is 1 or more; logs without a handler of their own send it their lines.
    public static let shared = SQLLog(environment: ProcessInfo.processInfo.environment)

    /// The log that new coordinators and migrations send their lines to in ``routing(to:_:)``.
    @TaskLocal static var scoped: SQLLog?

    /// Runs `body` with `log`, instead of ``shared``, receiving the lines of every coordinator,
    /// migration step and migration manager made in it on this task: SQLDebug for one piece of
    /// work (a test, a workbook section) while others run beside it.
    public static func routing<T>(to log: SQLLog, _ body: () throws -> T) rethrows -> T {
        try $scoped.withValue(log) { try body() }
    }

    /// The log new logs send their lines to: the routed one, or ``shared``.
    static var ambient: SQLLog { scoped ?? shared }

    /// Receives each line of the log; nil sends the lines to ``shared`` (off when it has none).
    public var handler: (@Sendable (String) -> Void)? {
        get { settings.withLock { $0.handler } }
        set { settings.withLock { $0.handler = newValue } }
    }

    /// Whether lines give execution times (off for output that must be the same every run).
    public var includesTimings: Bool {
        get { settings.withLock { $0.includesTimings } }
        set { settings.withLock { $0.includesTimings = newValue } }
    }

    /// Where lines go when this log has no handler: ``shared``, or for a migration's own
    /// coordinators the log of the coordinator or step that runs it.
    var parent: SQLLog? {
        get { settings.withLock { $0.parent } }
        set { settings.withLock { $0.parent = newValue } }
    }

    /// A log with no handler of its own: its lines go to ``shared`` (or, made inside
    /// ``routing(to:_:)``, to the routed log).
    public init() {
        settings = Lock(Settings(parent: SQLLog.ambient))
    }

    private init(environment: [String: String]) {
        let level = Int(environment["OBJECTGRAPH_SQL_DEBUG"] ?? "") ?? 0
        let toStandardError: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        settings = Lock(Settings(handler: level >= 1 ? toStandardError : nil))
    }

    /// The handler that receives this log's lines and whether it wants timings: this log's,
    /// or its parent's.
    private var sink: (handler: @Sendable (String) -> Void, timings: Bool)? {
        let now = settings.withLock { $0 }
        if let handler = now.handler { return (handler, now.includesTimings) }
        return now.parent?.sink
    }

    var isEnabled: Bool { sink != nil }

    private func emit(_ line: String) { sink?.handler(line) }

    private var timed: Bool { sink?.timings ?? false }

    /// Runs a migration, its statements logged between two annotations, so a reader (and the
    /// workbook's `--sql`) can tell them from the application's own.
    func migration<T>(_ description: String, _ body: () throws -> T) rethrows -> T {
        guard isEnabled else { return try body() }
        emit("CoreData: annotation: migration \(description) begins.")
        defer { emit("CoreData: annotation: migration \(description) ends.") }
        return try body()
    }

    /// Logs a statement and its bound values.
    func statement(sql: String, arguments: [DatabaseValue]) {
        guard isEnabled else { return }
        emit("CoreData: sql: \(sql)")
        for (i, value) in arguments.enumerated() {
            emit("CoreData: details: SQLite bind[\(i)] = \(Self.describe(value))")
        }
    }

    /// Runs a query, logging it, its time and how many rows it returned.
    func measure<T>(sql: String, arguments: [DatabaseValue], _ body: () throws -> T, rowCount: (T) -> Int) throws -> T {
        guard isEnabled else { return try body() }
        statement(sql: sql, arguments: arguments)
        let start = DispatchTime.now()
        let result = try body()
        let count = rowCount(result)
        if timed {
            emit("CoreData: annotation: total fetch execution time: \(Self.seconds(since: start))s for \(count) rows.")
        } else {
            emit("CoreData: annotation: fetch returned \(count) row\(count == 1 ? "" : "s").")
        }
        return result
    }

    /// A free-form annotation, without a time: something a store did that its user should
    /// know of (Core Data writes such notes as annotations too).
    func note(_ text: String) {
        guard isEnabled else { return }
        emit("CoreData: annotation: \(text).")
    }

    /// A free-form annotation with the time since `start`.
    func annotate(_ text: String, since start: DispatchTime) {
        guard isEnabled else { return }
        emit(
            timed
                ? "CoreData: annotation: \(text) in \(Self.seconds(since: start))s." : "CoreData: annotation: \(text).")
    }

    private static func seconds(since start: DispatchTime) -> String {
        String(format: "%.4f", Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }

    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let i): return String(i)
        case .double(let d): return PredicatePrinter.formatDouble(d)
        case .string(let s): return PredicatePrinter.quote(s)
        case .blob(let d): return "<\(d.count) bytes>"
        }
    }
}
