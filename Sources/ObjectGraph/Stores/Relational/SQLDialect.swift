import Foundation

/// The SQL a ``SQLFetchTranslator`` writes. The two stores share the translator, its layout
/// and its meaning of every predicate; the dialect changes only the spelling where the two
/// engines differ (SQLite's registered functions and collations, GLOB, `IS`, types), and
/// writes out a ``SQLFragment``'s placeholders and quoted identifiers.
enum SQLDialect: Sendable {
    /// SQLite, with the functions and collations of ``SQLiteFunctions`` registered.
    case sqlite
    /// PostgreSQL, with the functions of ``PostgresFunctions`` in the store's schema.
    case postgres

    /// The placeholder of the `number`-th bound value (from 1): SQLite's `?` takes the values
    /// in order, PostgreSQL numbers them (`$1`, `$2`, ...).
    func placeholder(_ number: Int) -> String {
        switch self {
        case .sqlite: return "?"
        case .postgres: return "$\(number)"
        }
    }

    /// `name` as a quoted identifier, any `"` doubled: both engines quote alike.
    func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
