import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport

/// The PostgreSQL server the `--store postgres` runs use: the one `--postgres-url` names, else
/// a throwaway cluster started for this run (the tests' ``PostgresTestServer``: initdb in /tmp,
/// a free loopback port, `fsync=off`, stopped when the bench exits). Each store the bench
/// makes lives in a schema of its own, dropped when the workload is done.
enum BenchPostgres {
    /// The server's URL: `--postgres-url`, else the throwaway cluster's.
    static func serverURL(_ settings: BenchSettings) throws -> URL {
        if let given = settings.postgresURL { return given }
        switch PostgresTestServer.shared {
        case .success(let server): return server.url(schema: "public")
        case .failure(let reason):
            throw BenchError(
                "no PostgreSQL server: give one with --postgres-url postgres://USER@HOST:PORT/DATABASE, or install PostgreSQL (\(reason))"
            )
        }
    }

    /// Where the numbers come from, for the line above the table.
    static func serverDescription(_ settings: BenchSettings) -> String {
        if let given = settings.postgresURL {
            var components = URLComponents(url: given, resolvingAgainstBaseURL: false)
            if components?.password != nil { components?.password = "***" }
            return "PostgreSQL at \(components?.string ?? "the given URL")"
        }
        if case .success(let server) = PostgresTestServer.shared {
            return
                "a throwaway PostgreSQL cluster on 127.0.0.1:\(server.port) (fsync=off), \(ProcessInfo.processInfo.activeProcessorCount) cores"
        }
        return "no PostgreSQL server"
    }

    /// A URL naming a new, empty schema of the server, for one store.
    static func newStoreURL(_ settings: BenchSettings, prefix: String) throws -> URL {
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        return PostgresTarget.url(try serverURL(settings), schema: "bench_\(prefix)_\(id)")
    }

    /// A store of the Books model created by ObjectGraph in the schema `url` names (tables,
    /// Z_PRIMARYKEY, Z_METADATA), then closed.
    static func createEmptyStore(at url: URL) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Books.model())
        let store = try coordinator.addPersistentStore(with: .postgres(url: url))
        try coordinator.remove(store)
    }

    /// Drops the store's schema and everything in it.
    static func dropStore(at url: URL) throws {
        let db = try RawPostgres(url: PostgresTarget.url(url, schema: "public"))
        try db.execute("DROP SCHEMA IF EXISTS \(PostgresNames.quoted(PostgresNames.schemaName(of: url))) CASCADE")
    }
}
