import Foundation
import GRDB

/// What the PostgreSQL store asks of its connections: statements with bound values, held
/// connections for transactions, and notifications. ObjectGraphPostgres answers on
/// PostgresNIO; the store's SQL, layout and semantics are this module's, so that SQLite and
/// PostgreSQL share one translator and one meaning of every fetch.
///
/// Values cross as GRDB's `DatabaseValue` (NULL, 64-bit integer, double, text, bytes): the
/// store's columns hold only those (``PostgresSchema``), as the SQLite store's do.
package protocol PostgresWire: AnyObject, Sendable {
    /// Runs `body` on one connection of the pool, held until it returns: the statements of a
    /// transaction go on one connection.
    func withConnection<T>(_ body: (any PostgresWireConnection) throws -> T) throws -> T
    /// Calls `handler` with each notification's payload on `channel` (LISTEN) until the
    /// returned listening is cancelled. When the server drops the listening connection (a
    /// restart), the wire listens again as soon as it can and then calls `reconnected`:
    /// notifications sent meanwhile were lost.
    func listen(
        channel: String, reconnected: @escaping @Sendable () -> Void,
        handler: @escaping @Sendable (String) -> Void
    ) throws -> any PostgresListening
    /// Closes every connection; the wire is unusable afterwards.
    func close()
}

extension PostgresWire {
    /// Listens on `channel`, not told of reconnections.
    package func listen(
        channel: String,
        handler: @escaping @Sendable (String) -> Void
    ) throws -> any PostgresListening {
        try listen(channel: channel, reconnected: {}, handler: handler)
    }
}

/// One connection, held by ``PostgresWire/withConnection(_:)``.
package protocol PostgresWireConnection {
    /// Runs one statement whose `$1`, `$2`, ... placeholders are bound to `arguments` in order.
    func query(_ sql: String, _ arguments: [DatabaseValue]) throws -> PostgresWireResult
}

/// A LISTEN in progress.
package protocol PostgresListening: AnyObject, Sendable {
    /// Stops the notifications (UNLISTEN).
    func cancel()
}

/// What one statement returned: its rows, flat, and how many rows it changed.
package struct PostgresWireResult: Sendable {
    /// Columns per row.
    package var columnCount: Int
    /// The rows' values, row after row.
    package var values: [DatabaseValue]
    /// Rows inserted, updated or deleted (the command tag's count); the rows returned for a SELECT.
    package var affectedRows: Int

    /// A result.
    package init(columnCount: Int, values: [DatabaseValue], affectedRows: Int) {
        self.columnCount = columnCount
        self.values = values
        self.affectedRows = affectedRows
    }

    /// How many rows came back.
    package var rowCount: Int { columnCount == 0 ? 0 : values.count / columnCount }

    /// The value of column `column` in row `row`.
    package subscript(row: Int, column: Int) -> DatabaseValue { values[row * columnCount + column] }
}

/// An error PostgreSQL (or the connection) reported, with its SQLSTATE code when the server
/// sent one (`40001` serialization failure, `23505` unique violation, ...).
package struct PostgresWireError: Error, CustomStringConvertible, Sendable {
    /// The SQLSTATE code, or nil when the failure was the connection's.
    package var sqlState: String?
    /// The server's (or the connection's) message.
    package var message: String
    /// The statement that failed, if any.
    package var statement: String?

    /// An error.
    package init(sqlState: String?, message: String, statement: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.statement = statement
    }

    /// SQLSTATE 08006 (connection_failure): the connection broke, the server gone or restarting.
    package static let connectionFailure = "08006"
    /// SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection): no connection could be made.
    package static let unableToConnect = "08001"
    /// Not a server's SQLSTATE: every pooled connection stayed busy past the store's timeout.
    package static let poolTimeout = "OGP01"

    /// Whether the connection was lost or could not be made: the server stopped, restarted,
    /// dropped this connection (57P01 `pg_terminate_backend`, 57P02 crash) or is starting up
    /// (57P03). The statement's transaction, if any, did not commit (unless the loss came at
    /// its COMMIT), and the next connection may well work.
    package var isConnectionLoss: Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    package var description: String {
        var text = message
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let statement { text += " in: \(statement)" }
        return text
    }
}

/// How ObjectGraph reaches PostgreSQL: ObjectGraphPostgres registers its connector here when
/// it is used (`PersistentStoreDescription.postgres(url:)` or `PostgresStoreType.register()`),
/// since ObjectGraph itself does not link PostgresNIO.
package enum PostgresWires {
    /// Opens a wire to the database a `postgres://` URL names, with up to `poolSize`
    /// connections, each waiting up to `timeout` seconds to connect.
    package typealias Connector =
        @Sendable (_ url: URL, _ poolSize: Int, _ timeout: TimeInterval) throws -> any PostgresWire

    private static let registered = Lock<Connector?>(nil)

    /// Registers the connector (the last registration wins).
    package static func register(_ connector: @escaping Connector) {
        registered.withLock { $0 = connector }
    }

    /// The registered connector, or the error that says how to get one.
    static func connector() throws -> Connector {
        guard let connector = registered.withLock({ $0 }) else {
            throw CoreDataError(
                .persistentStoreOpen,
                "The PostgreSQL store type (.postgres) lives in the ObjectGraphPostgres library: add its product to your target's dependencies and describe the store with PersistentStoreDescription.postgres(url:), or call PostgresStoreType.register() once before adding it"
            )
        }
        return connector
    }
}

/// What a PostgreSQL store's URL and names mean, in one place for the store, its connections
/// (ObjectGraphPostgres) and the benchmark's raw baseline.
package enum PostgresNames {
    /// The store's schema: the URL's `schema` query item, `public` without one.
    package static func schemaName(of url: URL) -> String {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value
            ?? "public"
    }

    /// `name` as a quoted PostgreSQL identifier, any `"` doubled, as the dialect quotes a
    /// fragment's identifiers.
    package static func quoted(_ name: String) -> String {
        SQLDialect.postgres.quoted(name)
    }

    /// The URL without its password (in its user part or a `password` query item, as libpq
    /// takes it), for messages, logs and descriptions.
    package static func redacted(_ url: URL) -> String {
        url.textWithoutPassword
    }
}
