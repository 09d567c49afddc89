import Foundation

/// A request that changes properties of every object matching a predicate straight in the
/// persistent store, without loading them (NSBatchUpdateRequest).
///
/// ```swift
/// let request = BatchUpdateRequest(entityName: "Book")
/// request.predicate = try Predicate(checkedFormat: "salesRank > %@", 1000)
/// request.propertiesToUpdate = ["inPrint": false, "salesRank": try Expression(checkedFormat: "salesRank + 1")]
/// request.resultType = .updatedObjectIDs
/// let result = try context.execute(request)
/// ```
///
/// On a SQLite store this is one `UPDATE ... WHERE` in one transaction; it raises each row's
/// version (`Z_OPT`), so a context that holds one of those objects with changes gets a merge
/// conflict (133020) at its next save, resolved by its merge policy. Validation rules are not
/// applied, as Apple warns. Contexts are not told: merge the updated IDs with
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)`` to refresh them.
public final class BatchUpdateRequest: PersistentStoreRequest {
    /// What executing the request returns (NSBatchUpdateRequestResultType, Apple's raw values).
    public enum ResultType: Int, Sendable {
        /// Whether the update succeeded (NSStatusOnlyResultType).
        case statusOnly = 0
        /// The IDs of the updated objects (NSUpdatedObjectIDsResultType).
        case updatedObjectIDs = 1
        /// How many objects were updated (NSUpdatedObjectsCountResultType).
        case updatedObjectsCount = 2
    }

    /// The entity whose objects are updated (entityName).
    public let entityName: String
    /// Which objects; nil for all of them (predicate).
    public var predicate: Predicate?
    /// Whether objects of sub-entities are updated too; true by default (includesSubentities).
    public var includesSubentities = true
    /// What the result holds; `.statusOnly` by default (resultType).
    public var resultType: ResultType = .statusOnly
    /// Attribute name to new value: a constant, or an ``Expression`` evaluated on each object,
    /// such as a key path or `salesRank + 1` (propertiesToUpdate).
    public var propertiesToUpdate: [String: Any] = [:]

    /// A request to update objects of an entity (initWithEntityName:).
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// A request to update objects of an entity description (initWithEntity:).
    public convenience init(entity: EntityDescription) {
        self.init(entityName: entity.name)
    }

    /// Updates the matching objects in every store of the coordinator.
    public func execute(in context: ManagedObjectContext) throws -> any PersistentStoreResult {
        let model = context.model
        let entity = try model.entity(named: entityName)
        let changes = try BatchUpdateChanges(entity: entity, properties: propertiesToUpdate)
        let wantsIDs = resultType == .updatedObjectIDs
        let coordinator = context.coordinator
        let transaction = HistoryTransactionInfo(by: context)
        let outcome = try coordinator.performAndWait {
            var total = BatchOutcome()
            for store in coordinator.persistentStores {
                total.append(
                    try store.backend.batchUpdate(
                        self, changes: changes, wantsIDs: wantsIDs, model: model, transaction: transaction))
            }
            return total
        }
        switch resultType {
        case .statusOnly: return BatchUpdateResult(resultType: resultType, result: true)
        case .updatedObjectIDs: return BatchUpdateResult(resultType: resultType, result: outcome.ids)
        case .updatedObjectsCount: return BatchUpdateResult(resultType: resultType, result: outcome.count)
        }
    }

    /// A fetch request for the objects the update changes.
    func fetchRequest() -> FetchRequest<ManagedObject> {
        let request = FetchRequest(entityName: entityName)
        request.predicate = predicate
        request.includesSubentities = includesSubentities
        return request
    }
}

/// What a batch update returns (NSBatchUpdateResult).
public struct BatchUpdateResult: PersistentStoreResult {
    /// The kind of result the request asked for (resultType).
    public let resultType: BatchUpdateRequest.ResultType
    /// `true`, the updated objects' `[ManagedObjectID]`, or their count as an `Int` (result).
    public let result: Any?
}

/// How many rows a batch request touched in one store, and their IDs when asked for.
struct BatchOutcome {
    var count = 0
    var ids: [ManagedObjectID] = []

    mutating func append(_ other: BatchOutcome) {
        count += other.count
        ids += other.ids
    }
}

/// A batch update's new values, checked against the entity: each a constant converted to the
/// attribute's type, or an expression to evaluate per object.
struct BatchUpdateChanges {
    enum Value {
        case constant(Any?)
        case expression(Expression)
    }

    /// (attribute index, attribute, new value), in attribute order.
    let assignments: [(index: Int, attribute: AttributeDescription, value: Value)]

    init(entity: EntityDescription, properties: [String: Any]) throws {
        guard !properties.isEmpty else {
            throw CoreDataError(
                exception: .invalidArgument,
                "The batch update of \(entity.name) has no propertiesToUpdate: name at least one attribute and its new value"
            )
        }
        var result: [(index: Int, attribute: AttributeDescription, value: Value)] = []
        for (key, value) in properties {
            guard let i = entity.propertyIndex[key] else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "The batch update of \(entity.name) names an unknown property \"\(key)\" in propertiesToUpdate",
                    key: key)
            }
            guard i < entity.attributes.count else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "The batch update of \(entity.name) sets the relationship \"\(key)\": a batch update sets attributes only",
                    key: key)
            }
            let a = entity.attributes[i]
            guard !a.isTransient, !a.isDerived else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "The batch update of \(entity.name) sets \"\(key)\", a \(a.isTransient ? "transient" : "derived") attribute the store does not write",
                    key: key)
            }
            if let expression = value as? Expression {
                if case .constant(let c) = expression {
                    result.append((i, a, .constant(try Self.convert(c.runtimeValue, a, entity))))
                } else {
                    result.append((i, a, .expression(expression)))
                }
            } else {
                result.append((i, a, .constant(try Self.convert(value, a, entity))))
            }
        }
        assignments = result.sorted { $0.index < $1.index }
    }

    /// A new value converted to the attribute's type; a nil for a mandatory attribute is
    /// refused, as a save would refuse it.
    static func convert(_ value: Any?, _ a: AttributeDescription, _ entity: EntityDescription) throws -> Any? {
        let converted: Any?
        do { converted = try AttributeValue.convert(value, for: a, entity: entity.name) } catch let error
            as CoreDataError
        {
            throw CoreDataError(
                error.kind, "The batch update of \(entity.name) has a bad value for \"\(a.name)\": \(error.message)",
                key: a.name)
        }
        if converted == nil && !a.isOptional {
            throw CoreDataError(
                .missingMandatoryProperty,
                "The batch update of \(entity.name) sets the mandatory attribute \"\(a.name)\" to nil", key: a.name)
        }
        return converted
    }
}
