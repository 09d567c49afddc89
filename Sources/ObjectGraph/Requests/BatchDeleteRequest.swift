import Foundation

/// A request that deletes the objects a fetch request describes, or objects by ID, straight in
/// the persistent store, without loading them (NSBatchDeleteRequest).
///
/// ```swift
/// let fetch = FetchRequest(entityName: "Item")
/// fetch.predicate = try Predicate(checkedFormat: "done == YES")
/// let request = BatchDeleteRequest(fetchRequest: fetch)
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).result as? [ManagedObjectID] ?? []
/// ManagedObjectContext.mergeChanges(fromRemoteContextSave: [ManagedObjectContext.deletedObjectsKey: ids], into:
/// [context])
/// ```
///
/// Relationships' delete rules apply in the store, as Apple's header says a batch delete
/// enforces "basic delete rules": Cascade deletes the related objects too (and theirs, on),
/// Nullify clears the inverse of the related objects (a to-one's key, a many-to-many link),
/// Deny fails the request with 1600 while a related object would remain, and No Action leaves
/// the related objects as they are. Other validation rules are not applied. Nothing is
/// deleted when the request fails. The IDs the result gives include the cascaded objects.
public final class BatchDeleteRequest: PersistentStoreRequest {
    /// What executing the request returns (NSBatchDeleteRequestResultType, Apple's raw values).
    public enum ResultType: Int, Sendable {
        /// Whether the delete succeeded (NSBatchDeleteResultTypeStatusOnly).
        case statusOnly = 0
        /// The IDs of the deleted objects (NSBatchDeleteResultTypeObjectIDs).
        case objectIDs = 1
        /// How many objects were deleted (NSBatchDeleteResultTypeCount).
        case count = 2
    }

    /// The objects to delete (fetchRequest): its entity, predicate, sub-entities and window.
    public let fetchRequest: AnyFetchRequest
    /// The objects to delete by ID, when the request was made with IDs.
    public let objectIDs: [ManagedObjectID]?
    /// What the result holds; `.statusOnly` by default (resultType).
    public var resultType: ResultType = .statusOnly

    /// A request to delete what a fetch request describes (initWithFetchRequest:).
    public init(fetchRequest: AnyFetchRequest) {
        self.fetchRequest = fetchRequest.copy()
        self.objectIDs = nil
    }

    /// A request to delete objects by ID (initWithObjectIDs:); they must all be of one entity,
    /// as Apple requires, or executing the request fails.
    public init(objectIDs: [ManagedObjectID]) {
        self.fetchRequest = FetchRequest(entityName: objectIDs.first?.entityName ?? "")
        self.objectIDs = objectIDs
    }

    /// Deletes the objects in every store that holds some of them.
    public func execute(in context: ManagedObjectContext) throws -> any PersistentStoreResult {
        let model = context.model
        let wantsIDs = resultType == .objectIDs
        let coordinator = context.coordinator
        let transaction = HistoryTransactionInfo(by: context)
        var byStore: [String: [ManagedObjectID]] = [:]
        if let objectIDs {
            guard let first = objectIDs.first else { return result(BatchOutcome()) }
            for id in objectIDs {
                guard id.entityName == first.entityName else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "A batch delete's object IDs must all be of one entity: \(id.uriString) is a \(id.entityName), \(first.uriString) a \(first.entityName)",
                        objectURI: id.uriString)
                }
                guard !id.isTemporaryID else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "A batch delete cannot delete \(id.uriString): it is a temporary ID of an object that was never saved",
                        objectURI: id.uriString)
                }
                byStore[id.storeIdentifier, default: []].append(id)
            }
        }
        _ = try model.entity(named: fetchRequest.entityName)
        let outcome = try coordinator.performAndWait {
            var total = BatchOutcome()
            for store in coordinator.persistentStores {
                let targets: BatchDeleteTargets
                if objectIDs != nil {
                    guard let ids = byStore[store.identifier] else { continue }
                    targets = .objectIDs(ids)
                } else {
                    targets = .fetchRequest(fetchRequest)
                }
                total.append(
                    try store.backend.batchDelete(targets, wantsIDs: wantsIDs, model: model, transaction: transaction))
            }
            return total
        }
        return result(outcome)
    }

    private func result(_ outcome: BatchOutcome) -> BatchDeleteResult {
        switch resultType {
        case .statusOnly: return BatchDeleteResult(resultType: resultType, result: true)
        case .objectIDs: return BatchDeleteResult(resultType: resultType, result: outcome.ids)
        case .count: return BatchDeleteResult(resultType: resultType, result: outcome.count)
        }
    }
}

/// What a batch delete returns (NSBatchDeleteResult).
public struct BatchDeleteResult: PersistentStoreResult {
    /// The kind of result the request asked for (resultType).
    public let resultType: BatchDeleteRequest.ResultType
    /// `true`, the deleted objects' `[ManagedObjectID]`, or their count as an `Int` (result).
    public let result: Any?
}

/// The objects a batch delete starts from in one store.
enum BatchDeleteTargets {
    case fetchRequest(AnyFetchRequest)
    case objectIDs([ManagedObjectID])
}
