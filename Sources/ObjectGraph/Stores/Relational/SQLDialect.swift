import Foundation

/// The SQL a ``SQLFetchTranslator`` writes. The two stores share the translator, its layout
/// and its meaning of every predicate; the dialect changes only the spelling where the two
/// engines differ (SQLite's registered functions and collations, GLOB, `IS`, types).
enum SQLDialect: Sendable {
    /// SQLite, with the functions and collations of ``SQLiteFunctions`` registered.
    case sqlite
    /// PostgreSQL, with the functions of ``PostgresFunctions`` in the store's schema.
    case postgres
}
