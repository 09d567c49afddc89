import Foundation
import GRDB

// PLACEHOLDER (issue 18, being written): batch requests on the PostgreSQL store.
extension PostgresStore {
    func batchInsert(_ rows: [BatchInsertRow], entity: EntityDescription, mergePolicy: MergePolicyType, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws -> [ManagedObjectID] { throw notYet("batch insert") }
    func batchUpdate(_ request: BatchUpdateRequest, changes: BatchUpdateChanges, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws -> BatchOutcome { throw notYet("batch update") }
    func batchDelete(_ targets: BatchDeleteTargets, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws -> BatchOutcome { throw notYet("batch delete") }
}
