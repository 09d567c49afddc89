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
    /// The URL's `statement_timeout`, set on each new connection.
    private let statementTimeout: String?
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
        statementTimeout = parsed.statementTimeout
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

    /// Runs `body` on a pooled connection. A connection the server dropped while it sat idle
    /// (a restart, `pg_terminate_backend`) is found out by the first statement that uses it: when
    /// that statement is one that can have changed nothing (BEGIN, SELECT, SET, SHOW), `body`
    /// runs again once, on a new connection, so the caller never sees the dead one.
    func withConnection<T>(_ body: (any PostgresWireConnection) throws -> T) throws -> T {
        var (connection, reused) = try checkOut()
        while true {
            let wrapped = Connection(connection: connection, logger: logger)
            do {
                let result = try body(wrapped)
                checkIn(connection)
                return result
            } catch let error as PostgresWireError where error.isConnectionLoss {
                // A lost connection is never pooled again, nor are the idle ones beside it: a
                // server that dropped one has usually restarted and dropped them all.
                checkIn(connection, discarding: true)
                discardIdle()
                guard reused, wrapped.state.completed == 0, wrapped.state.firstIsHarmless else { throw error }
                (connection, reused) = try checkOut()
                reused = false
            } catch {
                // A transaction the body left open must not reach the next user of the connection.
                if !connection.isClosed, wrapped.state.lost == nil { _ = try? wrapped.query("ROLLBACK", []) }
                checkIn(connection)
                throw error
            }
        }
    }

    func listen(
        channel: String, reconnected: @escaping @Sendable () -> Void,
        handler: @escaping @Sendable (String) -> Void
    ) throws -> any PostgresListening {
        let listening = Listening(wire: self, channel: channel, reconnected: reconnected, handler: handler)
        try listening.start()
        return listening
    }

    /// A connection that LISTENs on `channel`, calling `handler` with each payload.
    fileprivate func listeningConnection(channel: String, handler: @escaping @Sendable (String) -> Void) throws
        -> (PostgresConnection, PostgresListenContext)
    {
        let connection = try connect()
        let context = connection.addListener(channel: channel) { _, notification in handler(notification.payload) }
        do {
            _ = try Connection(connection: connection, logger: logger).query(
                "LISTEN \(PostgresNames.quoted(channel))", [])
        } catch {
            context.stop()
            try? connection.close().wait()
            throw error
        }
        return (connection, context)
    }

    /// Closes the pool: its idle connections now, and it takes no more work.
    func close() {
        discardIdle(closing: true)
    }

    /// Closes every idle connection, after one was found lost: the next users connect afresh.
    /// With `closing`, the pool also takes no more work.
    private func discardIdle(closing: Bool = false) {
        condition.lock()
        if closing { closed = true }
        let connections = idle
        idle = []
        openCount -= connections.count
        condition.broadcast()
        condition.unlock()
        for connection in connections { try? connection.close().wait() }
    }

    /// An idle connection and true, or a new one while the pool has room and false, or the next
    /// one returned; waits up to the store's timeout (NSPersistentStoreTimeoutOption) for one.
    private func checkOut() throws -> (PostgresConnection, reused: Bool) {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: max(timeout, 0.001))
        while true {
            if closed {
                condition.unlock()
                throw PostgresWireError(
                    sqlState: nil, message: "The connections to \(where_) are closed: the store was removed")
            }
            while let connection = idle.popLast() {
                if !connection.isClosed {
                    condition.unlock()
                    return (connection, true)
                }
                openCount -= 1
            }
            if openCount < poolSize {
                openCount += 1
                condition.unlock()
                do {
                    return (try connect(), false)
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
                throw PostgresWireError(
                    sqlState: PostgresWireError.poolTimeout,
                    message: """
                        All \(poolSize) connections to \(where_) stayed busy for \(timeout) seconds \
                        (NSPersistentStoreTimeoutOption); raise the pool size (ObjectGraphConnectionPoolSize) \
                        or the timeout
                        """)
            }
        }
    }

    /// Returns a connection to the pool; a closed one, or one `discarding` says was lost, is
    /// closed and its place freed.
    private func checkIn(_ connection: PostgresConnection, discarding: Bool = false) {
        condition.lock()
        if closed || discarding || connection.isClosed {
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

    /// A new connection in the store's schema, with the URL's statement_timeout if it has one.
    private func connect() throws -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                id: Self.nextID.next(), logger: logger
            ).wait()
        } catch {
            throw PostgresWireError(connecting: where_, error)
        }
        do {
            let session = Connection(connection: connection, logger: logger)
            _ = try session.query(searchPath, [])
            // A bound value, never spliced into SQL: the URL is outside text. The server checks it.
            if let statementTimeout {
                _ = try session.query(
                    "SELECT set_config('statement_timeout', $1, false)",
                    [statementTimeout.databaseValue])
            }
        } catch {
            try? connection.close().wait()
            throw error
        }
        return connection
    }

    /// One held connection; it remembers how its statements went, for ``withConnection(_:)``.
    private struct Connection: PostgresWireConnection {
        let connection: PostgresConnection
        let logger: Logger
        /// How its statements went; a class, since the connection is handed out by value.
        let state = Progress()

        /// Statements completed, and whether the first one could have changed nothing. Used
        /// only on the thread that holds the connection.
        final class Progress {
            var completed = 0
            var firstIsHarmless = false
            /// The error that lost the connection, once it is lost.
            var lost: PostgresWireError?
        }

        func query(_ sql: String, _ arguments: [DatabaseValue]) throws -> PostgresWireResult {
            // A connection that lost its server takes no more statements: PostgresNIO may queue
            // one sent right after the loss (the caller's ROLLBACK) and never answer it.
            if let lost = state.lost { throw lost }
            if state.completed == 0 { state.firstIsHarmless = Self.isHarmless(sql) }
            var binds = PostgresBindings(capacity: arguments.count)
            for argument in arguments { try PostgresValues.bind(argument, into: &binds) }
            let result: PostgresQueryResult
            do {
                let query = PostgresQuery(unsafeSQL: sql, binds: binds)
                result = try Self.answer(to: connection.query(query, logger: logger), on: connection)
            } catch {
                let failure = error as? PostgresWireError ?? PostgresWireError(error, statement: sql)
                if failure.isConnectionLoss { state.lost = failure }
                throw failure
            }
            state.completed += 1
            return try PostgresValues.result(result)
        }

        /// What a statement's future gives. Waited for in slices rather than with `wait()`: when
        /// the server dies at some moments, PostgresNIO closes the connection but never answers a
        /// statement it had queued (a hundred crashes during saves met it once), which would hold
        /// the caller forever. A closed connection whose statement stays unanswered for a second
        /// is a lost connection; a long statement on a live one waits as long as it runs.
        static func answer<T>(to future: EventLoopFuture<T>, on connection: PostgresConnection) throws -> T {
            let answered = DispatchSemaphore(value: 0)
            // Written before the signal, read after it: the semaphore orders the two.
            nonisolated(unsafe) var outcome: Result<T, any Error>?
            future.whenComplete { result in
                outcome = result
                answered.signal()
            }
            var closedAt: Date?
            while answered.wait(timeout: .now() + 0.2) == .timedOut {
                guard connection.isClosed else { continue }
                if let closedAt, Date().timeIntervalSince(closedAt) > 1 {
                    throw PostgresWireError(
                        sqlState: PostgresWireError.connectionFailure,
                        message: "the connection closed and the statement was never answered")
                }
                closedAt = closedAt ?? Date()
            }
            return try outcome!.get()
        }

        /// Whether a statement changes nothing when it runs outside a transaction: the store's
        /// BEGIN, its SELECTs (reads and session-level locks) and SET or SHOW.
        static func isHarmless(_ sql: String) -> Bool {
            let head = sql.prefix(7).uppercased()
            return ["BEGIN", "SELECT ", "SET ", "SHOW "].contains { head.hasPrefix($0) }
        }
    }

    /// A LISTEN on a connection of its own, made again when the server drops it (a restart)
    /// until it is cancelled: a watcher keeps hearing saves made after the server came back.
    private final class Listening: PostgresListening, @unchecked Sendable {
        // @unchecked Sendable: `current` and `cancelled` are touched only with `lock` held.
        private weak var wire: NIOPostgresWire?
        private let channel: String
        private let reconnected: @Sendable () -> Void
        private let handler: @Sendable (String) -> Void
        private let lock = NSLock()
        private var current: (PostgresConnection, PostgresListenContext)?
        private var cancelled = false

        init(
            wire: NIOPostgresWire, channel: String, reconnected: @escaping @Sendable () -> Void,
            handler: @escaping @Sendable (String) -> Void
        ) {
            self.wire = wire
            self.channel = channel
            self.reconnected = reconnected
            self.handler = handler
        }

        /// Connects and LISTENs; when that connection closes, listens again.
        func start() throws {
            guard let wire else {
                throw PostgresWireError(sqlState: nil, message: "The store's connections are closed")
            }
            let (connection, context) = try wire.listeningConnection(channel: channel, handler: handler)
            lock.lock()
            if cancelled {
                lock.unlock()
                context.stop()
                try? connection.close().wait()
                return
            }
            current = (connection, context)
            lock.unlock()
            connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed(connection) }
        }

        /// Listens again, retrying every half second (the server may take a while to restart),
        /// then says so: notifications sent while nobody listened are lost, and the store
        /// catches up on what they said.
        private func connectionClosed(_ connection: PostgresConnection) {
            DispatchQueue.global().async { [weak self] in
                while let self {
                    self.lock.lock()
                    let replaced = self.current.map { $0.0 !== connection } ?? false
                    let stop = self.cancelled || replaced || self.wire?.isClosed != false
                    self.lock.unlock()
                    if stop { return }
                    do {
                        try self.start()
                        self.reconnected()
                        return
                    } catch {
                        Thread.sleep(forTimeInterval: 0.5)
                    }
                }
            }
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let listening = current
            current = nil
            lock.unlock()
            guard let (connection, context) = listening else { return }
            context.stop()
            try? connection.close().wait()
        }
    }

    /// Whether ``close()`` has run.
    fileprivate var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}

/// Connection ids for PostgresNIO's logs, unique in the process.
final class LockedCounter: @unchecked Sendable {
    // @unchecked Sendable: `value` is touched only with `lock` held.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

extension PostgresWireError {
    /// A PostgresNIO error, with the server's SQLSTATE and message when it sent them; a
    /// connection that broke without a word from the server is SQLSTATE 08006, as libpq says.
    init(_ error: any Error, statement: String?) {
        if let error = error as? PSQLError {
            if let info = error.serverInfo {
                var message = info[.message] ?? "\(error.code)"
                if let detail = info[.detail] { message += ": " + detail }
                self.init(sqlState: info[.sqlState], message: message, statement: statement)
            } else if let how = Self.lossDescriptions[error.code] {
                self.init(sqlState: Self.connectionFailure, message: "\(how) (\(error.code))", statement: statement)
            } else {
                self.init(sqlState: nil, message: "the connection failed (\(error.code))", statement: statement)
            }
        } else {
            self.init(sqlState: nil, message: "\(error)", statement: statement)
        }
    }

    /// How each of PostgresNIO's lost connections happened, in words.
    private static let lossDescriptions: [PSQLError.Code: String] = [
        .serverClosedConnection: "the server closed the connection",
        .clientClosedConnection: "the connection was closed after an earlier failure",
        .connectionError: "a network error broke the connection",
        .uncleanShutdown: "the connection ended without PostgreSQL's goodbye",
    ]

    /// A failure to connect, naming where: SQLSTATE 08001 when no server answered or it took
    /// no connection (shutting down, starting up: 57P0x), else the server's (28P01 for a wrong
    /// password).
    init(connecting place: String, _ error: any Error) {
        var reason = PostgresWireError(error, statement: nil)
        if let error = error as? PSQLError, error.serverInfo == nil, reason.sqlState == Self.connectionFailure {
            reason.message = "no server answered there (\(error.code))"
        }
        let state = reason.sqlState == nil || reason.isConnectionLoss ? Self.unableToConnect : reason.sqlState
        self.init(sqlState: state, message: "Could not connect to \(place): \(reason.message)")
    }
}
