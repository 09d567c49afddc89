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
    ///
    /// The manager calls it in the second pass only for a policy whose class says it overrides
    /// it (``overridesCreateRelationships``); otherwise it sets the same relationships during
    /// the first pass where it can, so that each destination row is written once.
    open func createRelationships(
        forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        guard !mapping.relationshipMappings.isEmpty else { return }
        let source = try manager.sourceInstances(
            forEntityMappingName: mapping.name, destinationInstances: [destination]
        ).first
        try createDefaultRelationships(forDestination: destination, source: source, in: mapping, manager: manager)
    }

    /// Whether this class overrides ``createRelationships(forDestination:in:manager:)``, so that
    /// the manager must call it for each destination instance in the second pass, as Core Data
    /// does.
    ///
    /// Swift cannot ask a class whether it overrides a method, so a class says so: true for every
    /// subclass unless it declares otherwise, which is always correct. When it is false, and the
    /// mapping's relationship mappings only look up the instances of mappings that come before
    /// it (Xcode's default `destinationInstancesForEntityMappingNamed:sourceInstances:`, or the
    /// inferred `destinationInstancesForSourceRelationshipNamed:sourceInstances:`), the manager
    /// sets those relationships right after ``createDestinationInstances(forSource:in:manager:)``,
    /// in the first pass, with the same values: each destination row is then inserted with its
    /// foreign keys and not updated again, and the second pass does not load the instances.
    /// Answer false only if the policy's relationship creation is the base class's and nothing
    /// in the policy needs it to come after ``endInstanceCreation(forMapping:manager:)``:
    ///
    /// ```swift
    /// class ToDoPolicy: EntityMigrationPolicy {
    ///     override class var overridesCreateRelationships: Bool { self != ToDoPolicy.self }
    /// }
    /// ```
    ///
    /// (`{ false }` in a `final` class).
    open class var overridesCreateRelationships: Bool { self != EntityMigrationPolicy.self }

    /// The base class's relationship creation for one destination instance made from `source`:
    /// each relationship mapping's value, looked up or evaluated, set on the destination.
    func createDefaultRelationships(
        forDestination destination: ManagedObject, source: ManagedObject?, in mapping: EntityMapping,
        manager: MigrationManager
    ) throws {
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
