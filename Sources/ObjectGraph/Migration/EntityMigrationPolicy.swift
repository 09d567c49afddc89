import Foundation

/// What a migration does with the instances of one entity mapping: NSEntityMigrationPolicy.
///
/// Subclass it and override the steps you need; a mapping names its policy with
/// ``EntityMapping/entityMigrationPolicyType`` (or a class name given to
/// ``register(_:as:)``). The manager makes one policy per entity mapping and calls it in
/// Apple's order, in three passes over all the mappings:
///
/// 1. ``begin(_:with:)``, ``createDestinationInstances(forSource:in:manager:)`` for each source
///    instance, ``endInstanceCreation(forMapping:manager:)``;
/// 2. ``createRelationships(forDestination:in:manager:)`` for each destination instance,
///    ``endRelationshipCreation(forMapping:manager:)``;
/// 3. ``performCustomValidation(forMapping:manager:)``, ``end(_:manager:)``.
///
/// ```swift
/// final class ToDoPolicy: EntityMigrationPolicy {
///     override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
///                                              manager: MigrationManager) throws {
///         let todo = try manager.destinationContext.insertNewObject(forEntityName: "ToDo")
///         try todo.checkedSetValue(try source.checkedValue(forKey: "title"), forKey: "title")
///         manager.associate(sourceInstance: source, withDestinationInstance: todo, for: mapping)
///     }
/// }
/// ```
///
/// A policy answers `FUNCTION($entityPolicy, "selector:", ...)` in value expressions by
/// overriding ``performFunction(_:arguments:)``, since Linux has no Objective-C messaging.
open class EntityMigrationPolicy: FunctionReceiver {
    /// A policy; the manager makes one per entity mapping.
    public required init() {}

    /// Called before the first pass of a mapping: prepare what it needs (beginEntityMapping:manager:error:).
    open func begin(_ mapping: EntityMapping, with manager: MigrationManager) throws {}

    /// Creates the destination instances for one source instance, sets their attributes from the
    /// mapping's attribute mappings and associates them with the source
    /// (createDestinationInstancesForSourceInstance:entityMapping:manager:error:).
    ///
    /// An override that does not call super must call
    /// ``MigrationManager/associate(sourceInstance:withDestinationInstance:for:)``.
    ///
    /// Where an attribute mapping yields nil for a required destination attribute that has a
    /// default value, the default stays: so an optional attribute made required with a
    /// default migrates.
    open func createDestinationInstances(
        forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        guard let entityName = mapping.destinationEntityName else { return }
        let destination = try manager.destinationContext.insertNewObject(forEntityName: entityName)
        for propertyMapping in mapping.attributeMappings {
            guard let expression = propertyMapping.valueExpression else { continue }
            let value = try manager.evaluate(
                expression, source: source, destination: destination, mapping: mapping,
                propertyMapping: propertyMapping, policy: self)
            if value == nil, let attribute = destination.entity.attribute(named: propertyMapping.name),
                !attribute.isOptional, attribute.defaultValue != nil
            {
                continue
            }
            try destination.checkedSetValue(value, forKey: propertyMapping.name)
        }
        manager.associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
    }

    /// Called when every source instance of the mapping has its destination instances
    /// (endInstanceCreationForEntityMapping:manager:error:).
    open func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Sets one destination instance's relationships from the mapping's relationship
    /// mappings, evaluated with `$source` the instance it was created from
    /// (createRelationshipsForDestinationInstance:entityMapping:manager:error:).
    open func createRelationships(
        forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        guard !mapping.relationshipMappings.isEmpty else { return }
        let source = try manager.sourceInstances(
            forEntityMappingName: mapping.name, destinationInstances: [destination]
        ).first
        for propertyMapping in mapping.relationshipMappings {
            guard let expression = propertyMapping.valueExpression,
                let relationship = destination.entity.relationship(named: propertyMapping.name),
                !manager.isFilledFromInverse(relationship, of: destination.entity, expression: expression)
            else { continue }
            let value: Any?
            if let objects = try manager.defaultRelationshipLookup(expression, source: source) {
                value = objects
            } else {
                value = try manager.evaluate(
                    expression, source: source, destination: destination, mapping: mapping,
                    propertyMapping: propertyMapping, policy: self)
            }
            try destination.checkedSetValue(
                MigrationManager.relationshipValue(value, toMany: relationship.isToMany), forKey: propertyMapping.name)
        }
    }

    /// Called when every destination instance of the mapping has its relationships
    /// (endRelationshipCreationForEntityMapping:manager:error:).
    open func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// The third pass: check what the model's validation cannot; fetch the objects you need
    /// from ``MigrationManager/destinationContext`` (performCustomValidationForEntityMapping:manager:error:).
    open func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Called last for the mapping: clean up (endEntityMapping:manager:error:).
    open func end(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Answers `FUNCTION($entityPolicy, "selector:", ...)`; nil for a selector the policy does not
    /// know.
    ///
    /// Override it to give value expressions your own functions.
    open func performFunction(_ selector: String, arguments: [Any?]) throws -> FunctionResult? { nil }

    // MARK: Policy classes by name

    private static let registry = Lock<[String: EntityMigrationPolicy.Type]>([:])

    /// Makes `entityMigrationPolicyClassName == name` mean `type` (Linux cannot look a Swift
    /// class up by name as NSClassFromString does on Apple's platforms).
    public static func register(_ type: EntityMigrationPolicy.Type, as name: String) {
        registry.withLock { $0[name] = type }
    }

    /// The class registered under a name: the full name (`Module.Class`) or the last part.
    static func registeredClass(named name: String) -> EntityMigrationPolicy.Type? {
        registry.withLock { classes in
            if let type = classes[name] { return type }
            if let short = name.split(separator: ".").last { return classes[String(short)] }
            return nil
        }
    }
}
