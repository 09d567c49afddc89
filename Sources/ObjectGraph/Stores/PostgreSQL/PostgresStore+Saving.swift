import Foundation
import GRDB

// PLACEHOLDER (issue 18, being written): saving to the PostgreSQL store.
extension PostgresStore {
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] { throw notYet("allocate keys") }
    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws { throw notYet("save") }
    /// Saves, recording history made by `history` when given (PersistentHistoryStore's save calls it).
    func save(_ changes: StoreChanges, model: ManagedObjectModel, history: HistoryTransactionInfo?) throws { throw notYet("save") }
    func exportContents() throws -> AtomicContents { throw notYet("export") }
    func importContents(_ contents: AtomicContents) throws { throw notYet("import") }
}
