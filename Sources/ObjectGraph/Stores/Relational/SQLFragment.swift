import Foundation
import GRDB

/// A piece of SQL with the values bound to its `?` placeholders, in order.
///
/// Build one with string interpolation: `"\(raw: column) < \(bind: value)"` binds the value
/// and splices only SQL text (aliases, column names) given with `raw:`; interpolating another
/// fragment appends its SQL and its arguments in place.
struct SQLFragment {
    var sql: String
    var arguments: [DatabaseValue] = []
}

extension SQLFragment: ExpressibleByStringInterpolation {
    init(stringLiteral value: String) { self.init(sql: value) }

    init(stringInterpolation: StringInterpolation) {
        self.init(sql: stringInterpolation.sql, arguments: stringInterpolation.arguments)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var arguments: [DatabaseValue] = []
        init(literalCapacity: Int, interpolationCount: Int) { sql.reserveCapacity(literalCapacity * 2) }
        mutating func appendLiteral(_ literal: String) { sql += literal }
        /// Another fragment, with its arguments.
        mutating func appendInterpolation(_ fragment: SQLFragment) {
            sql += fragment.sql
            arguments += fragment.arguments
        }
        /// SQL text made by the translator (identifiers, aliases, keywords), never a value.
        mutating func appendInterpolation(raw text: String) { sql += text }
        /// A value, as a `?` placeholder. GRDB binds text up to its first NUL (length -1), so
        /// a string holding a NUL is bound as the blob of its UTF-8 bytes and read back as
        /// TEXT by CAST, whole: `text == "admin\0evil"` does not match "admin".
        mutating func appendInterpolation(bind value: DatabaseValue) {
            if case .string(let s) = value.storage, s.utf8.contains(0) {
                sql += "CAST(? AS TEXT)"
                arguments.append(Data(s.utf8).databaseValue)
                return
            }
            sql += "?"
            arguments.append(value)
        }
    }

    /// Fragments joined by a separator, their arguments in order.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment(sql: "")
        for (i, f) in fragments.enumerated() {
            if i > 0 { result.sql += separator }
            result.sql += f.sql
            result.arguments += f.arguments
        }
        return result
    }

    /// The arguments as GRDB takes them.
    var statementArguments: StatementArguments { StatementArguments(arguments) }
}
