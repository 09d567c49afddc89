import Foundation
import ObjectGraph

/// The PostgreSQL store type's registration: ObjectGraph describes and runs the store, this
/// library gives it connections (PostgresNIO).
///
/// ```swift
/// import ObjectGraph
/// import ObjectGraphPostgres
///
/// let url = URL(string: "postgres://app@db.example.com:5432/books?schema=library")!
/// try coordinator.addPersistentStore(with: .postgres(url: url))
/// ```
public enum PostgresStoreType {
    /// Registers this library's connections with ObjectGraph, so that stores of type
    /// ``ObjectGraph/StoreType/postgres`` open; ``ObjectGraph/PersistentStoreDescription/postgres(url:poolSize:)``
    /// calls it. Calling it again does nothing more.
    public static func register() {
        _ = registration
    }

    private static let registration: Void = {
        PostgresWires.register { url, poolSize, timeout in
            try NIOPostgresWire(url: url, poolSize: poolSize, timeout: timeout)
        }
    }()
}

extension PersistentStoreDescription {
    /// A PostgreSQL store: the database a `postgres://user:password@host:port/database` URL
    /// names, in the schema its `schema` query item names (`public` without one), with at most
    /// `poolSize` connections. Add `sslmode=require` to the query to connect with TLS.
    public static func postgres(url: URL, poolSize: Int = 2) -> PersistentStoreDescription {
        PostgresStoreType.register()
        let description = PersistentStoreDescription(type: .postgres, url: url)
        description.connectionPoolSize = max(1, poolSize)
        return description
    }
}
