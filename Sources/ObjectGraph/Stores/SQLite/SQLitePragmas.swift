import Foundation
import GRDB

/// The SQLite pragmas a store description may set (NSSQLitePragmasOption), checked before a
/// store opens and run on its connection when it does.
///
/// Apple documents the option as a dictionary of pragma names to string values, naming
/// `fullfsync` and `synchronous` as the trade of write speed against durability. Only pragmas
/// that tune the connection are allowed, each with the values sqlite.org documents for it; a
/// pragma that would let a crash lose or damage data (`journal_mode = OFF` or `MEMORY`), break
/// the store's layout (`foreign_keys`, `writable_schema`) or that a typed property already
/// governs (`busy_timeout` is ``PersistentStoreDescription/timeout``, `query_only` is
/// ``PersistentStoreDescription/isReadOnly``) is refused with a message saying so. Values are
/// checked against each pragma's grammar, so nothing but a keyword or a number reaches SQL.
enum SQLitePragmas {
    /// What values a pragma takes.
    private enum Values {
        /// One of these keywords (compared without case), or a number among `numbers`.
        case keywords([String], numbers: ClosedRange<Int>?)
        /// An integer in the range.
        case integer(ClosedRange<Int>)
    }

    private static let booleans = Values.keywords(["ON", "OFF", "TRUE", "FALSE", "YES", "NO"], numbers: 0...1)

    /// The pragmas allowed, by name, with the values each takes.
    private static let allowed: [String: Values] = [
        "journal_mode": .keywords(["WAL", "DELETE", "TRUNCATE", "PERSIST"], numbers: nil),
        "synchronous": .keywords(["OFF", "NORMAL", "FULL", "EXTRA"], numbers: 0...3),
        "fullfsync": booleans,
        "checkpoint_fullfsync": booleans,
        "secure_delete": .keywords(["ON", "OFF", "TRUE", "FALSE", "YES", "NO", "FAST"], numbers: 0...1),
        "temp_store": .keywords(["DEFAULT", "FILE", "MEMORY"], numbers: 0...2),
        "cache_size": .integer(Int(Int32.min)...Int(Int32.max)),
        "journal_size_limit": .integer(-1...Int.max),
        "wal_autocheckpoint": .integer(0...Int(Int32.max)),
        "mmap_size": .integer(0...Int.max),
    ]

    /// Why a pragma that is not allowed is refused, for the ones people reach for.
    private static let refusals: [String: String] = [
        "busy_timeout": "set the description's timeout (NSPersistentStoreTimeoutOption) instead",
        "query_only": "set the description's isReadOnly (NSReadOnlyPersistentStoreOption) instead",
        "foreign_keys": "Core Data's tables keep their relationships without SQLite's foreign keys",
        "writable_schema": "it lets SQL damage the store's schema",
        "locking_mode": "an exclusive lock would shut out the store's other connections and processes",
        "auto_vacuum": "the store sets incremental auto-vacuum itself, as Core Data does",
    ]

    /// The value to run for `name`, normalized (a keyword in capitals, a number as digits).
    ///
    /// - Throws: ``CoreDataError`` (NSInvalidArgumentException) naming the pragma and what it
    ///   takes, for a pragma that is not allowed or a value it does not take.
    static func check(name: String, value: String) throws -> String {
        let key = "\(StoreOption.sqlitePragmas)[\(name)]"
        guard let values = allowed[name] else {
            let why = refusals[name].map { ": \($0)" } ?? ""
            throw CoreDataError(
                exception: .invalidArgument,
                "The SQLite pragma \(name) is not allowed in a store description\(why). Allowed: \(allowed.keys.sorted().joined(separator: ", "))",
                key: key)
        }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        switch values {
        case .keywords(let words, let numbers):
            if words.contains(trimmed.uppercased()) { return trimmed.uppercased() }
            if let numbers, let number = Int(trimmed), numbers.contains(number) { return String(number) }
            let numberText = numbers.map { " or \($0.lowerBound) to \($0.upperBound)" } ?? ""
            throw CoreDataError(
                exception: .invalidArgument,
                "The SQLite pragma \(name) takes \(words.joined(separator: ", "))\(numberText), not \"\(value)\"",
                key: key)
        case .integer(let range):
            guard let number = Int(trimmed), range.contains(number) else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "The SQLite pragma \(name) takes an integer from \(range.lowerBound) to \(range.upperBound), not \"\(value)\"",
                    key: key)
            }
            return String(number)
        }
    }

    /// The pragmas of an options dictionary's ``StoreOption/sqlitePragmas`` value: a dictionary
    /// of names to strings (numbers are taken as their digits, as SQLite takes them).
    static func parse(_ value: Any?, key: String) throws -> [String: String] {
        guard let value else { return [:] }
        guard let dictionary = value as? [String: Any] else {
            throw PersistentStoreDescription.wrongType(
                value, key: key, expected: "a dictionary of pragma names to String values")
        }
        var pragmas: [String: String] = [:]
        for (name, raw) in dictionary {
            let text: String
            switch raw {
            case let string as String: text = string
            case let number as Int: text = String(number)
            case let number as NSNumber: text = number.stringValue
            default:
                throw PersistentStoreDescription.wrongType(raw, key: "\(key)[\(name)]", expected: "a String")
            }
            pragmas[name] = try check(name: name, value: text)
        }
        return pragmas
    }

    /// Whether the store's file should be in WAL mode: the default, unless `journal_mode` says
    /// otherwise.
    static func usesWAL(_ pragmas: [String: String]) -> Bool {
        pragmas["journal_mode"].map { $0 == "WAL" } ?? true
    }

    /// Runs the pragmas on a connection as it opens, in name order. A read-only store leaves the
    /// file's journal mode as it is (changing it would write the file); WAL mode itself is set
    /// by GRDB's configuration (see ``usesWAL(_:)``).
    static func apply(_ pragmas: [String: String], readOnly: Bool, to db: Database) throws {
        for (name, value) in pragmas.sorted(by: { $0.key < $1.key }) {
            if name == "journal_mode" && (readOnly || value == "WAL") { continue }
            // Checked by `check(name:value:)`: a name from `allowed`, a keyword or a number.
            try db.execute(sql: "PRAGMA \(name) = \(value)")
        }
    }
}
