import Foundation

/// A request that inserts objects straight into the persistent store, without making managed
/// objects of them (NSBatchInsertRequest).
///
/// ```swift
/// let request = BatchInsertRequest(entityName: "Book", objects: [
///     ["title": "Fetch, Clarus, Fetch", "salesRank": 192],
///     ["title": "Core Data", "salesRank": 7],
/// ])
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).result as? [ManagedObjectID]
/// ```
///
/// Values are checked against the model before anything is written: an unknown key, a value of
/// the wrong type or a missing mandatory attribute fails the whole request with a
/// ``CoreDataError`` naming the entity, the key and the index of the dictionary, and no row is
/// written. Relationships cannot be set, as with Apple's batch insert. With uniqueness
/// constraints, the context's ``ManagedObjectContext/mergePolicy`` decides what a duplicate
/// does: `.error` fails with 133021, `.mergeByPropertyObjectTrump` and `.overwrite` update the
/// stored object (an upsert), `.mergeByPropertyStoreTrump` and `.rollback` keep it. Contexts
/// are not told: merge the result's IDs with
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
public final class BatchInsertRequest: PersistentStoreRequest {
    /// What executing the request returns (NSBatchInsertRequestResultType, Apple's raw values).
    public enum ResultType: Int, Sendable {
        /// Whether the insert succeeded (NSBatchInsertRequestResultTypeStatusOnly).
        case statusOnly = 0
        /// The IDs of the inserted objects, in insertion order (NSBatchInsertRequestResultTypeObjectIDs).
        case objectIDs = 1
        /// How many objects were inserted (NSBatchInsertRequestResultTypeCount).
        case count = 2
    }

    /// The entity the objects are inserted as (entityName).
    public let entityName: String
    /// The objects to insert, one dictionary of property values each (objectsToInsert).
    public var objectsToInsert: [[String: Any]]?
    /// Fills one dictionary per call, until it returns true; the dictionary of that last call
    /// is not inserted (dictionaryHandler).
    public var dictionaryHandler: ((inout [String: Any]) throws -> Bool)?
    /// Sets the values of one new object per call, until it returns true; the object of that
    /// last call is not inserted (managedObjectHandler).
    public var managedObjectHandler: ((ManagedObject) throws -> Bool)?
    /// What the result holds; `.statusOnly` by default, as in Core Data (resultType).
    public var resultType: ResultType = .statusOnly

    /// A request to insert dictionaries of values as objects of an entity (initWithEntityName:objects:).
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        self.objectsToInsert = objects
    }

    /// A request for an entity description's objects (initWithEntity:objects:).
    public convenience init(entity: EntityDescription, objects: [[String: Any]]) {
        self.init(entityName: entity.name, objects: objects)
    }

    /// A request whose handler fills one dictionary per call until it returns true
    /// (initWithEntityName:dictionaryHandler:).
    public init(entityName: String, dictionaryHandler: @escaping (inout [String: Any]) throws -> Bool) {
        self.entityName = entityName
        self.dictionaryHandler = dictionaryHandler
    }

    /// A request whose handler sets the values of one new object per call until it returns
    /// true (initWithEntityName:managedObjectHandler:).
    public init(entityName: String, managedObjectHandler: @escaping (ManagedObject) throws -> Bool) {
        self.entityName = entityName
        self.managedObjectHandler = managedObjectHandler
    }

    /// Inserts the objects into the coordinator's default store, in one transaction.
    public func execute(in context: ManagedObjectContext) throws -> any PersistentStoreResult {
        let entity = try context.model.entity(named: entityName)
        let dictionaries = try collectObjects(entity: entity, context: context)
        let rows = try BatchInsertValues(entity: entity, model: context.model).rows(for: dictionaries)
        let policy = context.mergePolicy.mergeType
        let coordinator = context.coordinator
        let transaction = HistoryTransactionInfo(by: context)
        let ids = try coordinator.performAndWait {
            let store = try coordinator.defaultStore()
            return try store.backend.batchInsert(
                rows, entity: entity, mergePolicy: policy, model: coordinator.managedObjectModel,
                transaction: transaction)
        }
        switch resultType {
        case .statusOnly: return BatchInsertResult(resultType: resultType, result: true)
        case .objectIDs: return BatchInsertResult(resultType: resultType, result: ids)
        case .count: return BatchInsertResult(resultType: resultType, result: ids.count)
        }
    }

    /// The dictionaries to insert: the objects given, or the handler's, called until it is done.
    private func collectObjects(entity: EntityDescription, context: ManagedObjectContext) throws -> [[String: Any]] {
        if let objectsToInsert { return objectsToInsert }
        var result: [[String: Any]] = []
        if let dictionaryHandler {
            while true {
                var dictionary: [String: Any] = [:]
                if try dictionaryHandler(&dictionary) { break }
                result.append(dictionary)
            }
            return result
        }
        if let managedObjectHandler {
            // Each object lives in a scratch context of its own, never saved: the handler sets
            // its values as on any object, and only those values are inserted.
            let scratch = ManagedObjectContext(coordinator: context.coordinator)
            while true {
                let object = try scratch.insertNewObject(forEntityName: entity.name)
                if try managedObjectHandler(object) { break }
                var dictionary: [String: Any] = [:]
                for (i, a) in entity.attributes.enumerated() where !a.isTransient && !a.isDerived {
                    if let value = object.storage[i].any { dictionary[a.name] = value }
                }
                result.append(dictionary)
                scratch.reset()
            }
            return result
        }
        throw CoreDataError(
            exception: .invalidArgument,
            "The batch insert request for \(entityName) has no objects to insert: give it objects, a dictionary handler or a managed object handler"
        )
    }
}

/// What a batch insert returns (NSBatchInsertResult).
public struct BatchInsertResult: PersistentStoreResult {
    /// The kind of result the request asked for (resultType).
    public let resultType: BatchInsertRequest.ResultType
    /// `true`, the inserted objects' `[ManagedObjectID]`, or their count as an `Int` (result).
    public let result: Any?
}
