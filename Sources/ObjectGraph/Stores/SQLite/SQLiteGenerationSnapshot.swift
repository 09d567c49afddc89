import Foundation
import GRDB

/// A SQLite store's data as it was at one moment: GRDB's `DatabaseSnapshot`, a connection of
/// its own holding a read transaction open. In WAL mode a reader sees the database as of its
/// transaction's first read, whatever other connections commit afterwards; that is how Core
/// Data's query generations work ("Query generations leverage WAL mode to let you query
/// against the historical state of the database", Apple's "Accessing data when the store
/// changes"). Releasing the snapshot ends the transaction and closes the connection, so that
/// SQLite can checkpoint the WAL past it again.
final class SQLiteGenerationSnapshot: StoreGenerationSnapshot, Sendable {
    private let snapshot: DatabaseSnapshot

    /// Takes a snapshot of the store at `url` on a read-only connection of its own.
    init(url: URL, configuration: Configuration) throws {
        var configuration = configuration
        configuration.readonly = true
        // The pool is only the way GRDB makes a snapshot; the snapshot outlives it.
        snapshot = try DatabasePool(path: url.path, configuration: configuration).makeSnapshot()
        // The transaction's snapshot is taken at its first read: take it now.
        _ = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_METADATA") }
    }

    /// Runs a read in the snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try snapshot.read(body)
    }
}

extension SQLiteStore {
    /// Runs a read of the store: in the snapshot of the query generation this thread reads,
    /// if a pinned context is reading, else on the store's connection.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let snapshot = QueryGenerationScope.snapshot(forStore: identifier) as? SQLiteGenerationSnapshot {
            return try snapshot.read(body)
        }
        return try database.read(body)
    }

    func openGenerationSnapshot() throws -> (any StoreGenerationSnapshot)? {
        // A read-only store is a private copy or an immutable file: no one writes it.
        guard !isReadOnly else { return nil }
        if let refusal = queryGenerationRefusal { throw CoreDataError(exception: .invalidArgument, refusal) }
        return try CoreDataError.mappingSQLite("Taking a query generation of the store at", url) {
            try SQLiteConnection.retryingWhileBusy(timeout: timeout) {
                try SQLiteGenerationSnapshot(url: url, configuration: readerConfiguration)
            }
        }
    }

    var queryGenerationRefusal: String? {
        guard !isReadOnly, !usesWAL else { return nil }
        return
            "The SQLite store at \(url.path) is not in WAL journal mode (its NSSQLitePragmasOption sets journal_mode): query generations need WAL mode, as on Apple's platforms"
    }
}
