import Foundation

/// What an entity mapping does: NSEntityMappingType, with Apple's raw values.
public enum EntityMappingType: Int, Hashable, Sendable {
    /// The developer creates destination instances (NSUndefinedEntityMappingType).
    case undefined = 0
    /// A custom policy creates them (NSCustomEntityMappingType).
    case custom = 1
    /// A new entity: no source instances (NSAddEntityMappingType).
    case add = 2
    /// A removed entity: its instances are not migrated (NSRemoveEntityMappingType).
    case remove = 3
    /// The entity is unchanged: instances are copied (NSCopyEntityMappingType).
    case copy = 4
    /// The entity exists in both models and is transformed (NSTransformEntityMappingType).
    case transform = 5
}

/// How the instances of one source entity become instances of a destination entity:
/// NSEntityMapping.
///
/// A mapping model lists entity mappings in the order they are processed. Each names its
/// source and destination entities with their version hashes, the expression that yields
/// the source instances, the policy that migrates them, and one property mapping per
/// destination attribute and relationship.
public final class EntityMapping: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: as its MappingModel, built first and then only read while a
    // migration runs.
    /// The mapping's name, such as `ToDoToToDo`; relationship expressions refer to it.
    public var name: String
    /// What the mapping does.
    public var mappingType: EntityMappingType
    /// The source entity's name (nil for an add mapping).
    public var sourceEntityName: String?
    /// The source entity's version hash, which the source model must match.
    public var sourceEntityVersionHash: Data?
    /// The destination entity's name (nil for a remove mapping).
    public var destinationEntityName: String?
    /// The destination entity's version hash, which the destination model must match.
    public var destinationEntityVersionHash: Data?
    /// Yields the source instances: Xcode writes `FETCH(FUNCTION($manager,
    /// "fetchRequestForSourceEntityNamed:predicateString:", "ToDo", "TRUEPREDICATE"),
    /// $manager.sourceContext, NO)`, which the manager streams in batches.
    public var sourceExpression: Expression?
    /// The policy's class name, looked up among the names given to
    /// ``EntityMigrationPolicy/register(_:as:)``.
    public var entityMigrationPolicyClassName: String?
    /// The policy's class, which wins over the class name; nil (with no name) is the base
    /// ``EntityMigrationPolicy``.
    public var entityMigrationPolicyType: EntityMigrationPolicy.Type?
    /// How each destination attribute gets its value.
    public var attributeMappings: [PropertyMapping]
    /// How each destination relationship gets its value (in the second pass).
    public var relationshipMappings: [PropertyMapping]
    /// Free-form information for the application.
    public var userInfo: [String: String]

    /// An entity mapping with every field.
    public init(
        name: String, mappingType: EntityMappingType, sourceEntityName: String?, sourceEntityVersionHash: Data? = nil,
        destinationEntityName: String?, destinationEntityVersionHash: Data? = nil, sourceExpression: Expression? = nil,
        entityMigrationPolicyClassName: String? = nil, entityMigrationPolicyType: EntityMigrationPolicy.Type? = nil,
        attributeMappings: [PropertyMapping] = [], relationshipMappings: [PropertyMapping] = [],
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.mappingType = mappingType
        self.sourceEntityName = sourceEntityName
        self.sourceEntityVersionHash = sourceEntityVersionHash
        self.destinationEntityName = destinationEntityName
        self.destinationEntityVersionHash = destinationEntityVersionHash
        self.sourceExpression = sourceExpression
        self.entityMigrationPolicyClassName = entityMigrationPolicyClassName
        self.entityMigrationPolicyType = entityMigrationPolicyType
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.userInfo = userInfo
    }

    /// The source expression Xcode writes: fetch the source entity's instances (not its
    /// sub-entities', which have mappings of their own) that match `predicate`.
    public static func fetchSourceExpression(entityName: String, predicate: String = "TRUEPREDICATE") -> Expression {
        .function(
            "FETCH",
            [
                .customFunction(
                    receiver: .variable("manager"), selector: "fetchRequestForSourceEntityNamed:predicateString:",
                    arguments: [.constant(.string(entityName)), .constant(.string(predicate))]),
                .member(.variable("manager"), "sourceContext"),
                .constant(.bool(false)),
            ])
    }

    /// The mapping's name, type and entities.
    public var description: String {
        "\(name) (\(mappingType), \(sourceEntityName ?? "-") -> \(destinationEntityName ?? "-"))"
    }
}
