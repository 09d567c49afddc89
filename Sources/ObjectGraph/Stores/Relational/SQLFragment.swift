import Foundation
import GRDB

/// A piece of SQL as segments: SQL text, values bound to placeholders, and identifiers. The
/// dialect (``SQLDialect``) writes it out: SQLite's `?` or PostgreSQL's `$1`, `$2`, ... for
/// each binding, numbered in order, and each identifier quoted. No text is ever scanned for
/// placeholders, so a `?` inside a quoted string or an identifier is only ever text.
///
/// Build one with string interpolation: `"\(raw: column) < \(bind: value)"` binds the value
/// and splices only SQL text (aliases, column names) given with `raw:`; interpolating another
/// fragment appends its segments in place.
struct SQLFragment {
    /// One part of a fragment.
    enum Segment {
        /// SQL text the store wrote (keywords, Core Data's unquoted names, aliases), never a value.
        case sql(String)
        /// A value, bound to a placeholder.
        case binding(DatabaseValue)
        /// A name the dialect quotes (a schema a URL names).
        case identifier(String)
    }

    /// The segments, in order.
    private(set) var segments: [Segment] = []

    /// An empty fragment.
    init() {}

    /// SQL text without bindings.
    init(sql text: String) {
        if !text.isEmpty { segments = [.sql(text)] }
    }

    /// Whether the fragment holds no SQL at all.
    var isEmpty: Bool { segments.isEmpty }

    /// The bound values, in placeholder order.
    var arguments: [DatabaseValue] {
        var values: [DatabaseValue] = []
        for case .binding(let value) in segments { values.append(value) }
        return values
    }

    /// The SQL text in SQLite's spelling (`?` placeholders): what the SQLite store runs and
    /// what tests compare.
    var sql: String { rendered(in: .sqlite).sql }

    /// The SQL text in `dialect`'s spelling, and the values its placeholders bind, in order.
    func rendered(in dialect: SQLDialect) -> (sql: String, arguments: [DatabaseValue]) {
        var text = ""
        var arguments: [DatabaseValue] = []
        for segment in segments {
            switch segment {
            case .sql(let sql): text += sql
            case .binding(let value):
                arguments.append(value)
                text += dialect.placeholder(arguments.count)
            case .identifier(let name): text += dialect.quoted(name)
            }
        }
        return (text, arguments)
    }

    /// Appends SQL text.
    mutating func append(sql text: String) {
        guard !text.isEmpty else { return }
        // Adjacent text merges, so a fragment built piece by piece stays a few segments; the
        // last text is taken out of the array first, so appending to it does not copy it.
        switch segments.popLast() {
        case .sql(var last)?:
            last += text
            segments.append(.sql(last))
        case let other?:
            segments.append(other)
            segments.append(.sql(text))
        case nil:
            segments.append(.sql(text))
        }
    }

    /// Appends another fragment's segments.
    mutating func append(_ other: SQLFragment) {
        for segment in other.segments {
            if case .sql(let text) = segment { append(sql: text) } else { segments.append(segment) }
        }
    }

    /// Appends a value, as one placeholder.
    mutating func append(binding value: DatabaseValue) {
        segments.append(.binding(value))
    }
}

extension SQLFragment: ExpressibleByStringInterpolation {
    /// SQL text without bindings.
    init(stringLiteral value: String) { self.init(sql: value) }

    /// The interpolation's segments.
    init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.fragment
    }

    /// Builds a fragment from a literal with interpolated fragments, text and values.
    struct StringInterpolation: StringInterpolationProtocol {
        var fragment = SQLFragment()
        init(literalCapacity: Int, interpolationCount: Int) {}
        mutating func appendLiteral(_ literal: String) { fragment.append(sql: literal) }
        /// Another fragment, with its bindings.
        mutating func appendInterpolation(_ other: SQLFragment) { fragment.append(other) }
        /// SQL text made by the translator (identifiers, aliases, keywords), never a value.
        mutating func appendInterpolation(raw text: String) { fragment.append(sql: text) }
        /// A name the dialect quotes.
        mutating func appendInterpolation(identifier name: String) { fragment.segments.append(.identifier(name)) }
        /// A value, as a placeholder. GRDB binds text up to its first NUL (length -1), so
        /// a string holding a NUL is bound as the blob of its UTF-8 bytes and read back as
        /// TEXT by CAST, whole: `text == "admin\0evil"` does not match "admin".
        mutating func appendInterpolation(bind value: DatabaseValue) {
            if case .string(let s) = value.storage, s.utf8.contains(0) {
                fragment.append(sql: "CAST(")
                fragment.append(binding: Data(s.utf8).databaseValue)
                fragment.append(sql: " AS TEXT)")
                return
            }
            fragment.append(binding: value)
        }
    }

    /// Fragments joined by a separator, their bindings in order.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment()
        for (i, f) in fragments.enumerated() {
            if i > 0 { result.append(sql: separator) }
            result.append(f)
        }
        return result
    }

    /// The arguments as GRDB takes them.
    var statementArguments: StatementArguments { StatementArguments(arguments) }
}
