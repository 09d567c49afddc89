import ObjectGraph

/// What `--sql` prints of a section's SQL log: every fetch with its bound values and row
/// count, every statement a migration runs, and each save's statements, each distinct one once
/// with how many rows it ran for (their bound values are the section's data, which its listing
/// shows; `OBJECTGRAPH_SQL_DEBUG=1` prints every one). A section that ran no SQL says so.
final class SQLEcho: @unchecked Sendable {
    /// The log every coordinator and migration of the section sends its lines to.
    let log = SQLLog()
    private let lock = NSLock()
    private let write: (String) -> Void
    private var statements = 0
    private var inFetch = false
    private var migrationDepth = 0
    private var pendingBegin: String?
    private var migrationShown = false
    /// The write statements of the save in progress, in order, with how often each ran.
    private var pendingWrites: [(statement: String, count: Int)] = []

    /// An echo that indents each kept line and hands it to `write`.
    init(write: @escaping (String) -> Void) {
        self.write = write
        log.includesTimings = false
        log.handler = { [weak self] line in self?.receive(line) }
    }

    private func receive(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        let isStatement = line.hasPrefix("CoreData: sql: ")
        if isStatement { statements += 1 }
        if line.hasPrefix("CoreData: annotation: migration ") {
            if line.hasSuffix(" begins.") {
                migrationDepth += 1
                if migrationDepth == 1 {
                    pendingBegin = line
                    migrationShown = false
                }
                return
            }
            if line.hasSuffix(" ends.") {
                migrationDepth -= 1
                // A migration between XML stores runs no SQL: nothing to show for it.
                if migrationDepth == 0, migrationShown { write("    " + line) }
                return
            }
        }
        if migrationDepth > 0 {
            if let begin = pendingBegin {
                write("    " + begin)
                pendingBegin = nil
                migrationShown = true
            }
            write("    " + line)
            return
        }
        if isStatement {
            inFetch = line.hasPrefix("CoreData: sql: SELECT")
            if !inFetch {
                if let last = pendingWrites.indices.last, pendingWrites[last].statement == line {
                    pendingWrites[last].count += 1
                } else {
                    pendingWrites.append((line, 1))
                }
                return
            }
        }
        if line.hasPrefix("CoreData: annotation: ") {
            let wasWriting = !pendingWrites.isEmpty
            flushWrites()
            if inFetch || wasWriting { write("    " + line) }
            inFetch = false
            return
        }
        if inFetch { write("    " + line) }
    }

    /// Prints the save's statements: each run of one statement once, with its count.
    private func flushWrites() {
        for (statement, count) in pendingWrites {
            write("    " + statement + (count > 1 ? "  -- run \(count) times, once per row" : ""))
        }
        pendingWrites.removeAll()
    }

    /// Says so when the section ran no SQL at all (no store, or XML and in-memory stores only).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        flushWrites()
        if statements == 0 {
            write("    (no SQL ran: this section uses no SQLite store, only XML or in-memory ones, if any)")
        }
    }
}
