import Foundation
import GRDB

/// The SQL debug log, in the manner of Core Data's `-com.apple.CoreData.SQLDebug 1`: each
/// statement with its bound values, then its time and row count.
///
/// Set `OBJECTGRAPH_SQL_DEBUG=1` in the environment to print it to standard error, or give a
/// coordinator's log a handler:
///
/// ```swift
/// coordinator.sqlLog.handler = { line in print(line) }
/// coordinator.sqlLog.includesTimings = false   // for output that must not change between runs
/// ```
public final class SQLLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _handler: (@Sendable (String) -> Void)?
    private var _includesTimings: Bool

    /// Receives each line of the log; nil turns the log off.
    public var handler: (@Sendable (String) -> Void)? {
        get { lock.lock(); defer { lock.unlock() }; return _handler }
        set { lock.lock(); _handler = newValue; lock.unlock() }
    }

    /// Whether lines give execution times (off for output that must be the same every run).
    public var includesTimings: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _includesTimings }
        set { lock.lock(); _includesTimings = newValue; lock.unlock() }
    }

    /// A log that follows `OBJECTGRAPH_SQL_DEBUG`: on (to standard error) when it is 1 or more.
    public init() {
        let level = Int(ProcessInfo.processInfo.environment["OBJECTGRAPH_SQL_DEBUG"] ?? "") ?? 0
        _includesTimings = true
        if level >= 1 {
            _handler = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
    }

    var isEnabled: Bool { handler != nil }

    private func emit(_ line: String) { handler?(line) }

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
        if includesTimings {
            emit("CoreData: annotation: total fetch execution time: \(Self.seconds(since: start))s for \(count) rows.")
        } else {
            emit("CoreData: annotation: fetch returned \(count) row\(count == 1 ? "" : "s").")
        }
        return result
    }

    /// A free-form annotation with the time since `start`.
    func annotate(_ text: String, since start: DispatchTime) {
        guard isEnabled else { return }
        emit(includesTimings ? "CoreData: annotation: \(text) in \(Self.seconds(since: start))s." : "CoreData: annotation: \(text).")
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
