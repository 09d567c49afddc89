import Foundation
import GRDBSQLite

/// The raw baseline: SQLite's C API called directly, as a developer would write it by hand
/// (prepare, bind, step, read columns into Swift structs). Only the benchmark does this; the
/// module goes through GRDB.
final class RawDatabase {
    /// The connection handle.
    private(set) var handle: OpaquePointer?

    /// Opens a database with the settings ObjectGraph's store uses: WAL, synchronous NORMAL.
    init(path: String) throws {
        guard
            sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK
        else {
            defer { sqlite3_close_v2(handle) }
            throw BenchError("cannot open \(path): \(String(cString: sqlite3_errmsg(handle)))")
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit { close() }

    /// Closes the connection (finalize statements first).
    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs SQL without results.
    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    /// A prepared statement; the caller finalizes it.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw error(sql) }
        return statement
    }

    /// The connection's last error, for `sql`.
    func error(_ sql: String) -> BenchError {
        BenchError("SQLite error \(sqlite3_errcode(handle)) on \(sql): \(String(cString: sqlite3_errmsg(handle)))")
    }
}

/// Books read and written with the C API.
enum RawBooks {
    /// SQLITE_TRANSIENT: SQLite copies bound text before the bind returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A fetched book: its key and its values.
    struct Row {
        var primaryKey: Int64
        var values: BookValues
    }

    /// `SELECT Z_PK, Z_ENT, Z_OPT, ZTITLE, ... FROM ZBOOK t0` and `suffix` (a WHERE clause),
    /// the same select list ObjectGraph reads.
    static func selectSQL(_ suffix: String = "") -> String {
        "SELECT " + (["Z_PK", "Z_ENT", "Z_OPT"] + Books.columns).map { "t0." + $0 }.joined(separator: ", ")
            + " FROM \(Books.table) t0" + suffix
    }

    /// Runs a SELECT of `selectSQL`'s columns, binding `bind`, and decodes every row.
    static func fetch(_ db: RawDatabase, _ sql: String, bind: (OpaquePointer) -> Void = { _ in }) throws -> [Row] {
        let s = try db.prepare(sql)
        defer { sqlite3_finalize(s) }
        bind(s)
        var rows: [Row] = []
        while true {
            let code = sqlite3_step(s)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw db.error(sql) }
            rows.append(
                Row(
                    primaryKey: sqlite3_column_int64(s, 0),
                    values: BookValues(
                        title: text(s, 3),
                        author: text(s, 4),
                        salesRank: Int(sqlite3_column_int64(s, 5)),
                        price: sqlite3_column_double(s, 6),
                        published: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(s, 7)),
                        inPrint: sqlite3_column_int64(s, 8) != 0)))
        }
        return rows
    }

    /// The text of a column, decoded with its byte length.
    @inline(__always)
    static func text(_ s: OpaquePointer, _ i: Int32) -> String {
        guard let bytes = sqlite3_column_text(s, i) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(s, i))), as: UTF8.self)
    }

    /// Binds a string with its byte length.
    @inline(__always)
    static func bind(_ s: OpaquePointer, _ i: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = sqlite3_bind_text(
                s, i, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                transient)
        }
    }

    /// Inserts books in one transaction with one prepared INSERT, keys from `firstKey` up.
    static func insert(_ books: [BookValues], into db: RawDatabase, firstKey: Int64) throws {
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + Books.columns
        let sql =
            "INSERT INTO \(Books.table)(\(names.joined(separator: ", "))) VALUES(\(names.map { _ in "?" }.joined(separator: ", ")))"
        try db.execute("BEGIN IMMEDIATE")
        let s = try db.prepare(sql)
        defer { sqlite3_finalize(s) }
        var key = firstKey
        for book in books {
            sqlite3_bind_int64(s, 1, key)
            sqlite3_bind_int64(s, 2, Books.entityNumber)
            sqlite3_bind_int64(s, 3, 1)
            bind(s, 4, book.title)
            bind(s, 5, book.author)
            sqlite3_bind_int64(s, 6, Int64(book.salesRank))
            sqlite3_bind_double(s, 7, book.price)
            sqlite3_bind_double(s, 8, book.published.timeIntervalSinceReferenceDate)
            sqlite3_bind_int64(s, 9, book.inPrint ? 1 : 0)
            guard sqlite3_step(s) == SQLITE_DONE else { throw db.error(sql) }
            sqlite3_reset(s)
            key += 1
        }
        try db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(key - 1) WHERE Z_ENT = \(Books.entityNumber)")
        try db.execute("COMMIT")
    }
}
