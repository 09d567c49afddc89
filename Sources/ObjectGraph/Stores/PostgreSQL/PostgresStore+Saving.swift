import Foundation
import GRDB

// PLACEHOLDER (issue 18, being written): saving to the PostgreSQL store.
extension PostgresStore {
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] { throw notYet("allocate keys") }
    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws { throw notYet("save") }
    func exportContents() throws -> AtomicContents { throw notYet("export") }
    func importContents(_ contents: AtomicContents) throws { throw notYet("import") }
}
