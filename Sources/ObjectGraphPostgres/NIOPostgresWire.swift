import Foundation
import GRDB
import ObjectGraph
import PostgresNIO

/// ObjectGraph's ``PostgresWire`` on PostgresNIO: a small pool of connections, used from the
/// contexts' own threads.
///
/// The store's calls are synchronous (a context's `fetch` returns its objects), so each
/// statement waits on PostgresNIO's future. That is safe on any thread but an event loop's,
/// and needs no Swift concurrency thread: a context's queue or a test's thread blocks, the
/// event loops run the protocol.
final class NIOPostgresWire: PostgresWire, @unchecked Sendable {
    // @unchecked Sendable: `idle`, `openCount` and `closed` are touched only with `condition` held.
    private let configuration: PostgresConnection.Configuration
    private let poolSize: Int
    private let timeout: TimeInterval
    private let where_: String
    /// `SET search_path` for the store's schema, run on each new connection: the store's SQL
    /// names its tables unqualified, as the SQLite store's does.
    private let searchPath: String
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var openCount = 0
    private var closed = false
    private let logger = Logger(label: "ObjectGraphPostgres")
    private static let nextID = LockedCounter()

    /// Connects once, so that a wrong URL, user or database fails when the store is added.
    init(url: URL, poolSize: Int, timeout: TimeInterval) throws {
        let parsed = try PostgresURL(url)
        configuration = try parsed.configuration(timeout: timeout)
        self.poolSize = max(1, poolSize)
        self.timeout = timeout
        where_ = PostgresNames.redacted(url)
        searchPath = "SET search_path TO \(PostgresNames.quoted(parsed.schema))"
        let first = try connect()
        condition.lock()
        openCount = 1
        idle.append(first)
        condition.unlock()
    }

    /// A wire dropped without ``close()`` (a coordinator released with its store) still closes
    /// its connections: PostgresNIO requires it.
    deinit {
        close()
    }

    func withConnection<T>(_ body: (any PostgresWireConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        let wrapped = Connection(connection: connection, logger: logger)
        do {
            let result = try body(wrapped)
            checkIn(connection)
            return result
        } catch {
            // A transaction the body left open must not reach the next user of the connection.
            if !connection.isClosed { _ = try? wrapped.query("ROLLBACK", []) }
            checkIn(connection)
            throw error
        }
    }

    func listen(channel: String, handler: @escaping @Sendable (String) -> Void) throws -> any PostgresListening {
        let connection = try connect()
        let context = connection.addListener(channel: channel) { _, notification in handler(notification.payload) }
        do {
            _ = try Connection(connection: connection, logger: logger).query("LISTEN \(PostgresNames.quoted(channel))", [])
        } catch {
            context.stop()
            try? connection.close().wait()
            throw error
        }
        return Listening(connection: connection, context: context)
    }

    func close() {
        condition.lock()
        closed = true
        let connections = idle
        idle = []
        openCount -= connections.count
        condition.broadcast()
        condition.unlock()
        for connection in connections { try? connection.close().wait() }
    }

    /// An idle connection, a new one while the pool has room, or the next one returned.
    private func checkOut() throws -> PostgresConnection {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: max(timeout, 1))
        while true {
            if closed {
                condition.unlock()
                throw PostgresWireError(sqlState: nil, message: "The connections to \(where_) are closed: the store was removed")
            }
            while let connection = idle.popLast() {
                if !connection.isClosed {
                    condition.unlock()
                    return connection
                }
                openCount -= 1
            }
            if openCount < poolSize {
                openCount += 1
                condition.unlock()
                do {
                    return try connect()
                } catch {
                    condition.lock()
                    openCount -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            guard condition.wait(until: deadline) else {
                condition.unlock()
                throw PostgresWireError(sqlState: "57014", message: "All \(poolSize) connections to \(where_) stayed busy for \(timeout) seconds (NSPersistentStoreTimeoutOption); raise connectionPoolSize or the timeout")
            }
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        condition.lock()
        if closed || connection.isClosed {
            openCount -= 1
            condition.signal()
            condition.unlock()
            if !connection.isClosed { try? connection.close().wait() }
            return
        }
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    private func connect() throws -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                                                        id: Self.nextID.next(), logger: logger).wait()
        } catch {
            throw PostgresWireError(connecting: where_, error)
        }
        do {
            _ = try Connection(connection: connection, logger: logger).query(searchPath, [])
        } catch {
            try? connection.close().wait()
            throw error
        }
        return connection
    }

    /// One held connection.
    private struct Connection: PostgresWireConnection {
        let connection: PostgresConnection
        let logger: Logger

        func query(_ sql: String, _ arguments: [DatabaseValue]) throws -> PostgresWireResult {
            var binds = PostgresBindings(capacity: arguments.count)
            for argument in arguments { try PostgresValues.bind(argument, into: &binds) }
            let result: PostgresQueryResult
            do {
                result = try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
            } catch {
                throw PostgresWireError(error, statement: sql)
            }
            return try PostgresValues.result(result)
        }
    }

    /// A LISTEN on a connection of its own.
    private final class Listening: PostgresListening, @unchecked Sendable {
        // @unchecked Sendable: both are Sendable in PostgresNIO; `cancel` may run twice harmlessly.
        let connection: PostgresConnection
        let context: PostgresListenContext

        init(connection: PostgresConnection, context: PostgresListenContext) {
            self.connection = connection
            self.context = context
        }

        func cancel() {
            context.stop()
            try? connection.close().wait()
        }
    }
}

/// Connection ids for PostgresNIO's logs, unique in the process.
final class LockedCounter: @unchecked Sendable {
    // @unchecked Sendable: `value` is touched only with `lock` held.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value
    }
}

extension PostgresWireError {
    /// A PostgresNIO error, with the server's SQLSTATE and message when it sent them.
    init(_ error: any Error, statement: String?) {
        if let error = error as? PSQLError {
            if let info = error.serverInfo {
                var message = info[.message] ?? "\(error.code)"
                if let detail = info[.detail] { message += ": " + detail }
                self.init(sqlState: info[.sqlState], message: message, statement: statement)
            } else {
                self.init(sqlState: nil, message: "the connection failed (\(error.code))", statement: statement)
            }
        } else {
            self.init(sqlState: nil, message: "\(error)", statement: statement)
        }
    }

    /// A failure to connect, naming where.
    init(connecting place: String, _ error: any Error) {
        let reason = PostgresWireError(error, statement: nil)
        self.init(sqlState: reason.sqlState, message: "Could not connect to \(place): \(reason.message)")
    }
}
