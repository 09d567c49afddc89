import Foundation
import ObjectGraph
import ObjectGraphPostgres
import PostgresNIO

/// The raw PostgreSQL baseline: one PostgresNIO connection used directly, as a developer would
/// write it by hand (`PostgresConnection.query` with binds, rows decoded into Swift structs),
/// on the same transport ObjectGraph's store uses (PostgresNIO's futures, waited on).
final class RawPostgres {
    private let connection: PostgresConnection
    private let logger = Logger(label: "bench-raw-postgres")

    /// Connects to the database `url` names, its `search_path` the URL's schema, as
    /// ObjectGraph's connections are.
    init(url: URL) throws {
        let target = try PostgresURL(url)
        // Unencrypted, as the comparison is meant (ObjectGraph's connections would use TLS too).
        guard !target.requiresTLS else {
            throw BenchError(
                "the benchmark compares on unencrypted connections: leave sslmode out of \(url.absoluteString)")
        }
        let configuration = try target.configuration(timeout: 30)
        connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
            id: 1, logger: logger
        ).wait()
        do {
            try execute("SET search_path TO \(PostgresNames.quoted(target.schema))")
        } catch {
            try? connection.close().wait()
            throw error
        }
    }

    deinit { try? connection.close().wait() }

    /// Runs one statement with its `$n` placeholders bound to `binds`, and collects its rows.
    @discardableResult
    func query(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> PostgresQueryResult {
        do {
            return try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
        } catch let error as PSQLError {
            throw BenchError("PostgreSQL refused \(sql.prefix(200)): \(error.serverInfo?[.message] ?? "\(error.code)")")
        }
    }

    /// Runs statements without binds or results.
    func execute(_ sql: String) throws { try query(sql) }
}

/// Books read and written through ``RawPostgres``: the SQL ObjectGraph's store sends.
enum RawPostgresBooks {
    /// Runs a SELECT of ``RawBooks/selectSQL(_:)``'s columns and decodes every row.
    static func fetch(_ db: RawPostgres, _ sql: String) throws -> [RawBooks.Row] {
        let result = try db.query(sql)
        var rows: [RawBooks.Row] = []
        rows.reserveCapacity(result.rows.count)
        for row in result.rows {
            let (key, _, _, title, author, salesRank, price, published, inPrint) =
                try row.decode((Int64, Int64, Int64, String, String, Int64, Double, Double, Int64).self)
            rows.append(
                RawBooks.Row(
                    primaryKey: key,
                    values: BookValues(
                        title: title, author: author, salesRank: Int(salesRank), price: price,
                        published: Date(timeIntervalSinceReferenceDate: published), inPrint: inPrint != 0)))
        }
        return rows
    }

    /// Rows per INSERT: the store's multi-row INSERTs (PostgresWriter.rowsPerInsert).
    static let rowsPerInsert = 1_000

    /// Inserts books in one transaction: keys from Z_PRIMARYKEY (`UPDATE ... RETURNING`), then
    /// multi-row INSERTs of ``rowsPerInsert`` rows, the statements ObjectGraph's save sends.
    static func insert(_ books: [BookValues], into db: RawPostgres) throws {
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + Books.columns
        try db.execute("BEGIN")
        do {
            var binds = PostgresBindings()
            binds.append(Int64(books.count))
            binds.append(Books.entityNumber)
            let maximum = try db.query(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + $1 WHERE Z_ENT = $2 RETURNING Z_MAX", binds)
            guard let last = try maximum.rows.first?.decode(Int64.self) else {
                throw BenchError("the store has no Z_PRIMARYKEY row for Book")
            }
            var key = last - Int64(books.count) + 1
            var start = 0
            while start < books.count {
                let end = min(books.count, start + rowsPerInsert)
                var binds = PostgresBindings(capacity: (end - start) * names.count)
                var tuples: [String] = []
                tuples.reserveCapacity(end - start)
                for book in books[start..<end] {
                    let first = binds.count
                    tuples.append("(" + (1...names.count).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
                    binds.append(key)
                    binds.append(Books.entityNumber)
                    binds.append(Int64(1))
                    binds.append(book.title)
                    binds.append(book.author)
                    binds.append(Int64(book.salesRank))
                    binds.append(book.price)
                    binds.append(book.published.timeIntervalSinceReferenceDate)
                    binds.append(Int64(book.inPrint ? 1 : 0))
                    key += 1
                }
                try db.query(
                    "INSERT INTO \(Books.table) (\(names.joined(separator: ", "))) VALUES "
                        + tuples.joined(separator: ", "), binds)
                start = end
            }
            try db.execute("COMMIT")
        } catch {
            _ = try? db.execute("ROLLBACK")
            throw error
        }
    }
}

/// The benchmark's schemas in a server's URL.
enum PostgresTarget {
    /// `url` with its `schema` query item set to `schema`.
    static func url(_ url: URL, schema: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.queryItems =
            (components.queryItems ?? []).filter { $0.name != "schema" } + [URLQueryItem(name: "schema", value: schema)]
        return components.url ?? url
    }
}
