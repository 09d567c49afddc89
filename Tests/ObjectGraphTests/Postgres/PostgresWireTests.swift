import Foundation
import GRDB
import ObjectGraphPostgres
import TestSupport
import Testing

@testable import ObjectGraph

/// The connections ObjectGraphPostgres gives the PostgreSQL store: values both ways, errors with
/// their SQLSTATE, the pool, notifications.
@Suite struct PostgresWireTests {
    func wire(poolSize: Int = 2) throws -> (any PostgresWire)? {
        guard let url = try PostgresTestServer.url(schema: "public") else { return nil }
        PostgresStoreType.register()
        return try PostgresWires.connector()(url, poolSize, 10)
    }

    @Test func valuesGoAndComeBackAsTheyWere() throws {
        guard let wire = try wire() else { return }
        defer { wire.close() }
        let values: [DatabaseValue] = [
            .null, 42.databaseValue, Int64.min.databaseValue, 2.5.databaseValue,
            "straße ｈｅｌｌｏ".databaseValue, Data([0, 1, 255]).databaseValue,
        ]
        let result = try wire.withConnection {
            try $0.query("SELECT $1::bigint, $2::bigint, $3::bigint, $4::float8, $5::text, $6::bytea", values)
        }
        #expect(result.rowCount == 1)
        #expect(result.values == values)
        let sums = try wire.withConnection {
            try $0.query("SELECT SUM(x), AVG(x), true, false FROM (VALUES (1::bigint), (2::bigint)) AS v(x)", [])
        }
        #expect(sums.values == [3.databaseValue, 1.5.databaseValue, 1.databaseValue, 0.databaseValue])
    }

    @Test func aServerErrorCarriesItsSQLState() throws {
        guard let wire = try wire() else { return }
        defer { wire.close() }
        let error = #expect(throws: PostgresWireError.self) {
            try wire.withConnection { try $0.query("SELECT * FROM no_such_table", []) }
        }
        #expect(error?.sqlState == "42P01")
        #expect(error?.message.contains("no_such_table") == true)
    }

    @Test func aTransactionLeftOpenByAFailureIsRolledBack() throws {
        guard let wire = try wire(poolSize: 1) else { return }
        defer { wire.close() }
        let schema = PostgresTestServer.uniqueSchema()
        _ = try wire.withConnection { try $0.query("CREATE SCHEMA \(schema)", []) }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try wire.withConnection { connection in
                _ = try connection.query("BEGIN", [])
                _ = try connection.query("CREATE TABLE \(schema).t (x bigint)", [])
                throw Stop()
            }
        }
        // The one connection is back, outside any transaction, and the table never was.
        let tables = try wire.withConnection {
            try $0.query("SELECT count(*) FROM pg_tables WHERE schemaname = $1", [schema.databaseValue])
        }
        #expect(tables.values == [0.databaseValue])
    }

    @Test func notificationsReachAListener() throws {
        guard let wire = try wire() else { return }
        defer { wire.close() }
        let channel = PostgresTestServer.uniqueSchema("c")
        let received = TestLines()
        let listening = try wire.listen(channel: channel) { received.append($0) }
        defer { listening.cancel() }
        _ = try wire.withConnection { try $0.query("SELECT pg_notify($1, 'saved 7')", [channel.databaseValue]) }
        let deadline = Date(timeIntervalSinceNow: 10)
        while received.lines.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(received.lines == ["saved 7"])
    }

    @Test func aWrongURLSaysWhatIsWrong() throws {
        PostgresStoreType.register()
        let error = #expect(throws: PostgresWireError.self) {
            _ = try PostgresWires.connector()(URL(string: "http://example.com/db")!, 1, 1)
        }
        #expect(error?.message.contains("is not a postgres:// URL") == true)
    }
}

/// Lines appended from other threads.
final class TestLines: @unchecked Sendable {
    // @unchecked Sendable: `storage` is touched only with `lock` held.
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
