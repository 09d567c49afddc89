import Foundation

/// The PostgreSQL store: the SQLite store's layout and semantics in one schema of a
/// PostgreSQL database, reached through a ``PostgresWire``.
final class PostgresStore {
    // FOUNDATION PLACEHOLDER: the store itself is being written (issue 18); until it lands,
    // opening one fails with this error rather than pretending.
    static func open(url: URL, model: ManagedObjectModel, description: PersistentStoreDescription, log: SQLLog) throws -> PersistentStoreBackend {
        _ = try PostgresWires.connector()
        throw CoreDataError(.persistentStoreOpen, "The PostgreSQL store is not built yet")
    }

    /// The metadata of the store a URL names, without adding it.
    static func metadata(at url: URL) throws -> [String: Any] {
        _ = try PostgresWires.connector()
        throw CoreDataError(.persistentStoreOpen, "The PostgreSQL store is not built yet")
    }
}
