import Foundation

extension ManagedObjectContext {
    /// Registers rows a store returned as objects of this context, filling faults; objects
    /// already holding values keep them. For streaming reads such as a migration's.
    func objects(from rows: [StoreRow], store: PersistentStore) -> [ManagedObject] {
        rows.map { row in
            let id = ManagedObjectID(entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey)
            let object = self.object(with: id)
            if object.isFault { fill(object, from: row) }
            return object
        }
    }

    /// Loads the values of many faults in one query per table.
    func fireFaults(_ objects: [ManagedObject]) throws {
        let faults = objects.filter { $0.isFault && !$0.objectID.isTemporaryID }
        guard let first = faults.first else { return }
        let store = try persistentStoreCoordinator.store(for: first.objectID)
        let byID = Dictionary(faults.map { ($0.objectID, $0) }, uniquingKeysWith: { a, _ in a })
        for row in try store.backend.rows(for: faults.map(\.objectID), model: persistentStoreCoordinator.managedObjectModel) {
            let id = ManagedObjectID(entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey)
            if let object = byID[id], object.isFault { fill(object, from: row) }
        }
    }
}
