import Foundation
import ObjectGraphPostgres
import PostgresServer
import WorkbookSupport

/// The PostgreSQL server the chapter's stores live on: a private one, started on first use by
/// ``PrivatePostgresServer`` (initdb into a temporary folder, a free loopback port), the same
/// server the tests start, stopped when the process ends. No server, no section: each prints
/// one line saying why it skipped.
public enum ScalingServer {
    /// Why the chapter cannot run here (`skipped: PostgreSQL is not installed ...`), or nil when
    /// the server is running. Asking starts it.
    public static var unavailableReason: String? {
        if case .failure(let reason) = PrivatePostgresServer.shared { return "skipped: \(reason)" }
        return nil
    }

    /// A new, empty store location on the server, shown as `shownSchema`; nil when there is no
    /// server, having printed why on `bench`.
    public static func store(_ shownSchema: String, on bench: Workbench) -> ScalingStore? {
        switch PrivatePostgresServer.shared {
        case .success(let server):
            return ScalingStore(server: server, shownSchema: shownSchema)
        case .failure(let reason):
            bench.print("skipped: \(reason)")
            return nil
        }
    }
}

/// One store's place on the private server: its schema's real name (unique, since the tests
/// share one server across parallel runs) and the name the chapter prints instead.
public struct ScalingStore: Sendable {
    /// The store's `postgres://` URL, with the real schema and port.
    public let url: URL
    /// The schema's real name: the shown name and a counter, unique in this process.
    public let schema: String
    /// The name the output shows: `todo`.
    public let shownSchema: String
    /// The server's port, which the output replaces with `PORT`.
    let port: Int

    init(server: PrivatePostgresServer, shownSchema: String) {
        // A description whose type is set to `.postgres` by hand (the exercises') needs the
        // driver's connections registered, as NSPersistentStoreDescription.postgres(url:) does.
        PostgresStoreType.register()
        schema = PrivatePostgresServer.uniqueSchema(shownSchema)
        self.shownSchema = shownSchema
        port = server.port
        url = server.url(schema: schema)
    }

    /// `text` with the real schema and port replaced by the ones the book shows, so that the
    /// output is the same on every run: `postgres://postgres@127.0.0.1:PORT/postgres?schema=todo`.
    public func shown(_ text: String) -> String {
        text.replacingOccurrences(of: schema, with: shownSchema).replacingOccurrences(
            of: "127.0.0.1:\(port)", with: "127.0.0.1:PORT")
    }

    /// Runs `psql` on the store's schema with `sql` (unaligned, tuples only, ` | ` between
    /// columns), as a reader would at a terminal; its lines.
    public func psql(_ sql: String) throws -> [String] {
        guard let psql = PrivatePostgresServer.program(named: "psql") else { return ["(psql is not installed)"] }
        let child = try ChapterProcess.run(
            URL(fileURLWithPath: psql),
            arguments: [
                "-X", "-A", "-t", "-F", " | ", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "postgres",
                "-c", "SET search_path TO \(schema)", "-c", sql,
            ])
        // The first line is SET's own ("SET"): only the query's rows are wanted.
        return child.outputLines.filter { $0 != "SET" }
            + child.errors.split(separator: "\n").map { "psql: " + String($0) }
    }
}
