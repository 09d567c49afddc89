import Foundation
import GRDB

// PLACEHOLDER (issue 18, being written): fetching from the PostgreSQL store.
extension PostgresStore: PersistentStoreBackend {
    func fetchRows(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [StoreRow] { throw notYet("fetchRows") }
    func fetchIDs(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [ManagedObjectID] { throw notYet("fetchIDs") }
    func fetchDictionaries(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [[String: Any]] { throw notYet("fetchDictionaries") }
    func count(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> Int { throw notYet("count") }
    func row(for id: ManagedObjectID, model: ManagedObjectModel) throws -> StoreRow? { throw notYet("row") }
    func rows(for ids: [ManagedObjectID], model: ManagedObjectModel) throws -> [StoreRow] { throw notYet("rows") }
    func relatedIDs(of ids: [ManagedObjectID], relationship: RelationshipDescription, model: ManagedObjectModel) throws -> [ManagedObjectID: Set<ManagedObjectID>] { throw notYet("relatedIDs") }
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, model: ManagedObjectModel) throws -> Set<ManagedObjectID> { throw notYet("relatedIDs") }

    func notYet(_ what: String) -> CoreDataError {
        CoreDataError(.persistentStoreOperation, "The PostgreSQL store cannot \(what) yet")
    }
}
