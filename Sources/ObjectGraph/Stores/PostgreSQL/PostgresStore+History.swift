import Foundation
import GRDB

// PLACEHOLDER (issue 18, being written): persistent history in the PostgreSQL store.
extension PostgresStore {
    /// Creates the history tables when the store tracks history.
    func prepareHistoryTables() throws { throw notYet("track history") }

    /// Records a save in persistent history: called first in the save's transaction, before
    /// any of its rows is written (tombstones are read from the rows still there).
    func recordHistory(_ changes: StoreChanges, transaction: HistoryTransactionInfo, statements: PostgresStatements) throws {
        throw notYet("record history")
    }
}
