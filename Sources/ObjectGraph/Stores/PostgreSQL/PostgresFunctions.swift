import Foundation

/// The SQL functions the translator's PostgreSQL dialect calls where SQLite calls the Swift
/// functions of ``SQLiteFunctions`` (string comparisons with `[c]`, `[d]`, `[n]`, MATCHES,
/// the sort comparators, exact sums). The PostgreSQL store creates them in its schema.
enum PostgresFunctions {
    /// The statements that create (or replace) the functions in the current schema.
    static let creationStatements: [String] = []
}
