import Foundation
import GRDB

/// One SQL store's statements on its open connection (in a batch request's transaction, or
/// reading persistent history): the SQLite store's or the PostgreSQL store's.
protocol SQLStoreStatements {
    /// Runs a query; its rows, each as its columns' values.
    func fetch(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[DatabaseValue]]
    /// Runs a query written as a fragment, in the store's dialect; its rows.
    func fetch(_ statement: SQLFragment) throws -> [[DatabaseValue]]
    /// Runs a statement; how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int
}
