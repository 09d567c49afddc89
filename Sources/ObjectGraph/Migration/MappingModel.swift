import Foundation

/// How to turn a store of one model version into a store of another: NSMappingModel.
///
/// Its entity mappings run in order: "the order of the mappings dictates the order in which
/// they will be processed". A mapping model is matched to a store by the version hashes its
/// entity mappings record, as Core Data matches `.cdm` files: a model edited after its
/// mapping model was made no longer matches it.
///
/// Three ways to get one: ``defaultMappingModel(forSourceModel:destinationModel:)`` is what
/// Xcode's "New Mapping Model" writes and you then edit;
/// ``inferredMappingModel(forSourceModel:destinationModel:)`` is lightweight migration's;
/// or build the entity mappings yourself.
public final class MappingModel: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: a mapping model is built (or loaded) first and then only read by
    // the migrations that use it, as Core Data's are; change it only while no migration runs.
    /// The entity mappings, in processing order.
    public var entityMappings: [EntityMapping]
    /// Whether Core Data's inference made it: every mapping copies, adds, removes or moves
    /// values as they are, so a SQLite store can be migrated in place, in SQL.
    public internal(set) var isInferred = false

    /// A mapping model from its entity mappings.
    public init(entityMappings: [EntityMapping]) {
        self.entityMappings = entityMappings
    }

    /// A mapping model whose entity mappings get the source and destination hashes of these
    /// models where they name no hash, so it matches exactly this pair of versions.
    public convenience init(
        entityMappings: [EntityMapping], sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel
    ) {
        self.init(entityMappings: entityMappings)
        for mapping in entityMappings {
            if mapping.sourceEntityVersionHash == nil, let name = mapping.sourceEntityName,
                let e = sourceModel.entitiesByName[name]
            {
                mapping.sourceEntityVersionHash = Data(e.versionHash)
            }
            if mapping.destinationEntityVersionHash == nil, let name = mapping.destinationEntityName,
                let e = destinationModel.entitiesByName[name]
            {
                mapping.destinationEntityVersionHash = Data(e.versionHash)
            }
        }
    }

    /// The entity mappings by name.
    public var entityMappingsByName: [String: EntityMapping] {
        Dictionary(entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Whether this mapping model migrates stores of `sourceModel` to `destinationModel`: every
    /// entity it names exists there with the version hash it records, and every destination
    /// entity has a mapping.
    public func matches(sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel) -> Bool {
        for mapping in entityMappings {
            if let name = mapping.sourceEntityName {
                guard let entity = sourceModel.entitiesByName[name] else { return false }
                if let hash = mapping.sourceEntityVersionHash, hash != Data(entity.versionHash) { return false }
            }
            if let name = mapping.destinationEntityName {
                guard let entity = destinationModel.entitiesByName[name] else { return false }
                if let hash = mapping.destinationEntityVersionHash, hash != Data(entity.versionHash) { return false }
            }
        }
        let mapped = Set(entityMappings.compactMap(\.destinationEntityName))
        return destinationModel.entities.allSatisfy { $0.isAbstract || mapped.contains($0.name) }
    }

    /// The first of `candidates` that matches the two models
    /// (mappingModelFromBundles:forSourceModel:destinationModel:), or nil.
    public static func mappingModel(
        from candidates: [MappingModel], forSourceModel source: ManagedObjectModel,
        destinationModel destination: ManagedObjectModel
    ) -> MappingModel? {
        candidates.first { $0.matches(sourceModel: source, destinationModel: destination) }
    }

    /// The mapping model Xcode's "New Mapping Model" creates between two versions
    /// (<doc:WritingACustomMigrationPolicy>): one mapping `<Source>To<Destination>` per destination entity
    /// whose source is found by name (or renaming identifier), each fetching its source entity's
    /// instances, attributes `$source.<name>`, relationships `FUNCTION($manager,
    /// "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping of the destination
    /// entity>", $source.<name>)`, new properties without an expression; an add mapping for a new
    /// entity.
    ///
    /// Edit it, set a policy, and hand it to a ``MigrationManager`` or a ``VersionedModel``.
    public static func defaultMappingModel(
        forSourceModel source: ManagedObjectModel, destinationModel destination: ManagedObjectModel
    ) -> MappingModel {
        let matcher = ModelMatcher(source: source, destination: destination)
        var mappings: [EntityMapping] = []
        var mappingNameForDestination: [String: String] = [:]
        for d in destination.entities where !d.isAbstract {
            if let s = matcher.sourceEntity(for: d) { mappingNameForDestination[d.name] = "\(s.name)To\(d.name)" }
        }
        for d in destination.entities where !d.isAbstract {
            guard let s = matcher.sourceEntity(for: d) else {
                mappings.append(
                    EntityMapping(
                        name: "\(d.name)", mappingType: .add, sourceEntityName: nil, destinationEntityName: d.name,
                        destinationEntityVersionHash: Data(d.versionHash)))
                continue
            }
            var attributes: [PropertyMapping] = []
            for a in d.attributes where !a.isTransient {
                let expression = matcher.sourceAttribute(for: a, in: s).map {
                    Expression.member(.variable("source"), $0.name)
                }
                attributes.append(PropertyMapping(name: a.name, valueExpression: expression))
            }
            var relationships: [PropertyMapping] = []
            for r in d.relationships {
                var expression: Expression?
                if let sr = matcher.sourceRelationship(for: r, in: s),
                    let target = mappingNameForDestination[r.destinationEntityName]
                {
                    expression = .customFunction(
                        receiver: .variable("manager"),
                        selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                        arguments: [.constant(.string(target)), .member(.variable("source"), sr.name)])
                }
                relationships.append(PropertyMapping(name: r.name, valueExpression: expression))
            }
            mappings.append(
                EntityMapping(
                    name: "\(s.name)To\(d.name)", mappingType: .transform, sourceEntityName: s.name,
                    sourceEntityVersionHash: Data(s.versionHash), destinationEntityName: d.name,
                    destinationEntityVersionHash: Data(d.versionHash),
                    sourceExpression: EntityMapping.fetchSourceExpression(entityName: s.name),
                    attributeMappings: attributes, relationshipMappings: relationships))
        }
        return MappingModel(entityMappings: mappings)
    }

    /// One line per entity mapping.
    public var description: String { entityMappings.map(\.description).joined(separator: "\n") }
}

/// Finds each destination entity's and property's counterpart in the source model by
/// canonical name: the renaming identifier if set, else the name, on both sides
/// (Apple: a renaming identifier "creates a canonical name", so a chain keeps the first one).
struct ModelMatcher {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel

    static func canonical(_ e: EntityDescription) -> String { e.renamingIdentifier ?? e.name }
    static func canonical(_ a: AttributeDescription) -> String { a.renamingIdentifier ?? a.name }
    static func canonical(_ r: RelationshipDescription) -> String { r.renamingIdentifier ?? r.name }

    func sourceEntity(for d: EntityDescription) -> EntityDescription? {
        let name = Self.canonical(d)
        return source.entitiesByName[name].flatMap { Self.canonical($0) == name ? $0 : nil }
            ?? source.entities.first { Self.canonical($0) == name }
            ?? source.entitiesByName[d.name]
    }

    func destinationEntity(for s: EntityDescription) -> EntityDescription? {
        destination.entities.first { sourceEntity(for: $0)?.name == s.name }
    }

    func sourceAttribute(for a: AttributeDescription, in s: EntityDescription) -> AttributeDescription? {
        let name = Self.canonical(a)
        return s.attributes.first { !$0.isTransient && Self.canonical($0) == name }
            ?? s.attributes.first { !$0.isTransient && $0.name == a.name }
    }

    func sourceRelationship(for r: RelationshipDescription, in s: EntityDescription) -> RelationshipDescription? {
        let name = Self.canonical(r)
        return s.relationships.first { Self.canonical($0) == name } ?? s.relationships.first { $0.name == r.name }
    }
}
