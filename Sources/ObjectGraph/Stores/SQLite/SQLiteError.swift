import CSQLiteDefenses
import Foundation
import GRDB

extension CoreDataError {
    /// 134180 (NSSQLiteError) for a failure SQLite reported while doing `operation` on the
    /// store file at `url`, with SQLite's extended result code kept in ``sqliteCode``, as
    /// Apple keeps it under `NSSQLiteErrorDomain`. A ``CoreDataError`` passes through as it is.
    ///
    /// The message says what was being done, on which file, and what SQLite said:
    /// `Saving the store at /tmp/Books.sqlite failed: SQLite error 5 (database is locked)`.
    init(sqlite error: Error, operation: String, url: URL) {
        if let coreData = error as? CoreDataError {
            self = coreData
            return
        }
        guard let database = error as? DatabaseError else {
            self.init(.sqlite, "\(operation) \(url.path) failed: \(error)")
            return
        }
        let code = database.extendedResultCode.rawValue
        let message = database.message ?? "\(database.resultCode)"
        self.init(.sqlite, "\(operation) \(url.path) failed: SQLite error \(code) (\(message))", sqliteCode: code)
    }

    /// Runs `body`, turning SQLite's errors into 134180 errors about `operation` on `url`;
    /// every other error (a merge conflict, a predicate the store cannot translate) passes.
    static func mappingSQLite<T>(_ operation: String, _ url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw CoreDataError(sqlite: error, operation: operation, url: url)
        }
    }
}

/// How the library opens a SQLite file, wherever it opens one: the store, its metadata, an
/// in-place migration, an inspection.
enum SQLiteConnection {
    /// A configuration whose connection waits up to `timeout` seconds for a lock held by
    /// another connection or process (SQLite's busy timeout) instead of failing at once with
    /// SQLITE_BUSY; 0 fails at once. Writes begin `BEGIN IMMEDIATE` (GRDB's default for
    /// writes), so they wait for the lock before reading anything: a deferred transaction
    /// that upgrades to a write can get SQLITE_BUSY without the busy handler being called.
    ///
    /// Every such connection is defended against the file it opens (``defend(_:)``).
    static func configuration(timeout: TimeInterval) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = timeout > 0 ? .timeout(timeout) : .immediateError
        configuration.prepareDatabase { db in try defend(db) }
        return configuration
    }

    /// Sets SQLite's defences for a file that a stranger may have written (a store copied from
    /// a phone or a bug report): defensive mode (no SQL may corrupt the file) and
    /// `trusted_schema = OFF`, so that a trigger, view or index in the file can call only the
    /// functions registered as innocuous (``SQLiteFunctions``: Core Data's derived-attribute
    /// trigger functions, which do nothing). SQLite's "Defense Against The Dark Arts" advises both.
    static func defend(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        let code = objectgraph_sqlite_defend(UnsafeMutableRawPointer(connection))
        guard code == 0 else {
            throw CoreDataError(
                .sqlite,
                "SQLite refused its defensive settings (defensive on, trusted_schema off): "
                    + "result code \(code); this SQLite is older than 3.31")
        }
    }

    /// Runs `body` again while it fails with SQLITE_BUSY, for up to `timeout` seconds.
    ///
    /// For opening a file: there SQLite answers SQLITE_BUSY at once, without calling the busy
    /// handler, while another process turns a new file to WAL mode or recovers its WAL (seen
    /// once in a hundred trials of three processes creating one store together).
    static func retryingWhileBusy<T>(timeout: TimeInterval, _ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 1_000
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(pause)
                pause = min(pause * 2, 50_000)
            }
        }
    }
}
