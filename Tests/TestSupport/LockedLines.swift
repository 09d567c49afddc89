import Foundation

/// Lines collected from any thread: a SQL log's handler, a command's output, the order in
/// which concurrent work ran.
public final class LockedLines: @unchecked Sendable {
    // Safe to share: every access to `lines` holds `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    /// An empty collection.
    public init() {}

    /// Adds a line.
    public func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    /// Every line so far, in the order they came.
    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
