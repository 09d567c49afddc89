import Foundation
import ObjectGraph
import PostgresNIO

/// What a `postgres://` URL says about connecting: host, port, user, password, database and
/// TLS. The store reads the schema from it itself.
struct PostgresURL {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String?
    var requiresTLS: Bool
    /// The store's schema (`?schema=`; `public` without one): every connection's search_path.
    var schema: String

    /// Parses `postgres://user:password@host:port/database?sslmode=require`; `postgresql://`
    /// too, as libpq accepts it.
    init(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresWireError(sqlState: nil, message: "\(Self.redacted(url)) is not a postgres:// URL")
        }
        guard let host = url.host, !host.isEmpty else {
            throw PostgresWireError(sqlState: nil, message: "\(Self.redacted(url)) names no host")
        }
        self.host = host
        port = url.port ?? 5432
        guard let user = url.user, !user.isEmpty else {
            throw PostgresWireError(sqlState: nil, message: "\(Self.redacted(url)) names no user (postgres://USER@\(host)/...)")
        }
        self.user = user.removingPercentEncoding ?? user
        password = url.password.map { $0.removingPercentEncoding ?? $0 }
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = path.isEmpty ? nil : path
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        schema = query.first { $0.name == "schema" }?.value ?? "public"
        guard !schema.isEmpty else {
            throw PostgresWireError(sqlState: nil, message: "\(Self.redacted(url)) has an empty schema= (leave it out for public)")
        }
        requiresTLS = query.contains { $0.name == "sslmode" && ["require", "verify-ca", "verify-full"].contains($0.value ?? "") }
    }

    /// The URL without its password, for messages.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil else {
            return url.absoluteString
        }
        components.password = "***"
        return components.string ?? url.absoluteString
    }

    /// PostgresNIO's configuration for it.
    func configuration(timeout: TimeInterval) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS = requiresTLS
            ? .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            : .disable
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                             database: database, tls: tls)
        configuration.options.connectTimeout = .milliseconds(Int64(max(timeout, 1) * 1000))
        return configuration
    }
}
