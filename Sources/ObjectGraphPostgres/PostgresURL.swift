import Foundation
import ObjectGraph
import PostgresNIO

/// What a `postgres://` URL says about connecting: host, port, user, password, database, TLS
/// and the store's schema; the benchmark's raw baseline connects with it too.
package struct PostgresURL {
    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String?
    package var requiresTLS: Bool
    /// The store's schema (`?schema=`; `public` without one): every connection's search_path.
    package var schema: String
    /// The `statement_timeout` query item (`5s`, `500ms`, `0` for none; PostgreSQL's units):
    /// each connection's statement_timeout, so that a statement running longer fails with
    /// 57014 instead of holding its locks; nil leaves the server's setting.
    package var statementTimeout: String?

    /// Parses `postgres://user:password@host:port/database?sslmode=require&statement_timeout=5s`;
    /// `postgresql://` too, as libpq accepts it. Without a password in the URL, `PGPASSWORD`.
    package init(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresWireError(sqlState: nil, message: "\(PostgresNames.redacted(url)) is not a postgres:// URL")
        }
        guard let host = url.host, !host.isEmpty else {
            throw PostgresWireError(sqlState: nil, message: "\(PostgresNames.redacted(url)) names no host")
        }
        self.host = host
        port = url.port ?? 5432
        guard let user = url.user, !user.isEmpty else {
            throw PostgresWireError(
                sqlState: nil, message: "\(PostgresNames.redacted(url)) names no user (postgres://USER@\(host)/...)")
        }
        self.user = user.removingPercentEncoding ?? user
        // PGPASSWORD, as libpq reads it, keeps the password out of the URL and so out of
        // anything that prints the URL.
        password =
            url.password.map { $0.removingPercentEncoding ?? $0 }
            ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = path.isEmpty ? nil : path
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        schema = PostgresNames.schemaName(of: url)
        guard !schema.isEmpty else {
            throw PostgresWireError(
                sqlState: nil, message: "\(PostgresNames.redacted(url)) has an empty schema= (leave it out for public)")
        }
        statementTimeout = query.first { $0.name == "statement_timeout" }?.value
        requiresTLS = query.contains {
            $0.name == "sslmode" && ["require", "verify-ca", "verify-full"].contains($0.value ?? "")
        }
    }

    /// PostgresNIO's configuration for it.
    package func configuration(timeout: TimeInterval) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            requiresTLS
            ? .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            : .disable
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password,
            database: database, tls: tls)
        configuration.options.connectTimeout = .milliseconds(Int64(max(timeout, 1) * 1000))
        return configuration
    }
}
