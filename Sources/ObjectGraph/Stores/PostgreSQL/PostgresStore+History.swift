import Foundation
import GRDB

// PLACEHOLDER (issue 18, being written): persistent history in the PostgreSQL store.
extension PostgresStore {
    /// Creates the history tables when the store tracks history.
    func prepareHistoryTables() throws { throw notYet("track history") }
}
