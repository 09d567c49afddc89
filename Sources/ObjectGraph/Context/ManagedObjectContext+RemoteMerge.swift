import Foundation

/// Merging changes made outside any context: by a batch request, another process, or a saved
/// serialized state (mergeChangesFromRemoteContextSave:intoContexts:).
extension ManagedObjectContext {
    /// Merges object IDs that changed in the store into several contexts, each on its own
    /// queue (mergeChanges(fromRemoteContextSave:into:)).
    ///
    /// ```swift
    /// let result = try context.execute(deleteRequest) as! BatchDeleteResult
    /// ManagedObjectContext.mergeChanges(fromRemoteContextSave: [ManagedObjectContext.deletedObjectsKey: result.result
    /// as! [ManagedObjectID]], into: [viewContext])
    /// ```
    ///
    /// The keys are Apple's: ``insertedObjectsKey``, ``updatedObjectsKey``,
    /// ``deletedObjectsKey`` ("inserted", "updated", "deleted"), and the did-save notification's
    /// ``insertedObjectIDsKey``, ``updatedObjectIDsKey``, ``deletedObjectIDsKey``. As Apple
    /// documents, each value is an array (or set) of object IDs or of their URI
    /// representations (`URL`); a URI that names no object of the coordinator is skipped. In
    /// each context, as ``checkedMergeChanges(fromContextDidSave:)`` does: deleted objects leave it,
    /// updated ones are refreshed from the store (their unsaved changes kept on top), and
    /// inserted ones are seen by the next fetch.
    public static func mergeChanges(
        fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts: [ManagedObjectContext]
    ) {
        for context in contexts {
            let coordinator = context.coordinator
            func ids(_ keys: [String]) -> Set<ManagedObjectID> {
                var result = Set<ManagedObjectID>()
                for key in keys {
                    guard let value = changeNotificationData[key] else { continue }
                    let elements: [Any] =
                        (value as? [Any]) ?? (value as? Set<ManagedObjectID>).map { Array($0) } ?? (value as? Set<URL>)
                        .map { Array($0) } ?? []
                    for element in elements {
                        if let id = element as? ManagedObjectID {
                            result.insert(id)
                        } else if let uri = element as? URL,
                            let id = coordinator.managedObjectID(forURIRepresentation: uri)
                        {
                            result.insert(id)
                        }
                    }
                }
                return result
            }
            let inserted = ids([insertedObjectsKey, insertedObjectIDsKey])
            let updated = ids([updatedObjectsKey, updatedObjectIDsKey])
            let deleted = ids([deletedObjectsKey, deletedObjectIDsKey])
            guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { continue }
            context.performAndWait {
                // A merge refreshes objects from the store; one that fails (the store went
                // away) leaves them as they were: Core Data's merge does not fail either.
                try? context.mergeChanges(inserted: inserted, updated: updated, deleted: deleted)
            }
        }
    }
}
