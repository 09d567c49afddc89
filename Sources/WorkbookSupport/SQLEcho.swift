import ObjectGraph

/// What `--sql` prints of a section's SQL log: every fetch with its bound values and row
/// count, and every statement a migration runs; the inserts and updates that set up a
/// section's data are left out, as they would drown the rest. A section that ran no SQL says so.
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

    /// An echo that indents each kept line and hands it to `write`.
    init(write: @escaping (String) -> Void) {
        self.write = write
        log.includesTimings = false
        log.handler = { [weak self] line in self?.receive(line) }
    }

    private func receive(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        let isStatement = line.hasPrefix("CoreData: sql: ")
        if isStatement { statements += 1 }
        if line.hasPrefix("CoreData: annotation: migration ") {
            if line.hasSuffix(" begins.") {
                migrationDepth += 1
                if migrationDepth == 1 { pendingBegin = line; migrationShown = false }
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
            if let begin = pendingBegin { write("    " + begin); pendingBegin = nil; migrationShown = true }
            write("    " + line)
            return
        }
        if isStatement { inFetch = line.hasPrefix("CoreData: sql: SELECT") }
        if inFetch { write("    " + line) }
        if line.hasPrefix("CoreData: annotation: ") { inFetch = false }
    }

    /// Says so when the section ran no SQL at all (no store, or XML and in-memory stores only).
    func finish() {
        lock.lock(); defer { lock.unlock() }
        if statements == 0 { write("    (no SQL ran: this section uses no SQLite store, only XML or in-memory ones, if any)") }
    }
}
