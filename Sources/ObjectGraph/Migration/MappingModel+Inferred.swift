import Foundation

extension MappingModel {
    /// The mapping model lightweight migration uses
    /// (inferredMappingModelForSourceModel:destinationModel:error:), following Apple's rules
    /// (Apple's "Lightweight Migration"; <doc:VersioningAndMigration>).
    ///
    /// Inferred: adding or removing attributes, relationships and entities; non-optional to
    /// optional; optional to non-optional with a default value; renames through
    /// `renamingIdentifier`; to-one to to-many and back; new parent or child entities and
    /// properties moved up or down a hierarchy; entities moved out of a hierarchy.
    ///
    /// Not inferred, each reported by name: a changed attribute type, optional to
    /// non-optional (or a new non-optional attribute) without a default value, a new or newly
    /// required relationship that existing objects cannot have, an entity that became
    /// abstract, and entities of two source hierarchies under one destination parent. The
    /// error is 134190 (NSInferredMappingModelError) and lists every problem.
    ///
    /// Mappings are named as Core Data names them: `IEM_Copy_<Entity>` for an unchanged
    /// entity, `IEM_Transform_<Entity>`, `IEM_Add_<Entity>` and `IEM_Remove_<Entity>`.
    /// Attributes read `FUNCTION($source, "valueForKey:", "<name>")`; relationships
    /// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
    /// "<name>", FUNCTION($source, "valueForKey:", "<name>"))`.
    public static func inferredMappingModel(
        forSourceModel source: ManagedObjectModel, destinationModel destination: ManagedObjectModel
    ) throws -> MappingModel {
        let matcher = ModelMatcher(source: source, destination: destination)
        var problems: [String] = []
        var mappings: [EntityMapping] = []
        var usedSources: Set<String> = []
        func valueForKey(_ name: String) -> Expression {
            .customFunction(
                receiver: .variable("source"), selector: "valueForKey:", arguments: [.constant(.string(name))])
        }
        for d in destination.entities {
            guard let s = matcher.sourceEntity(for: d) else {
                if !d.isAbstract {
                    mappings.append(
                        EntityMapping(
                            name: "IEM_Add_\(d.name)", mappingType: .add, sourceEntityName: nil,
                            destinationEntityName: d.name, destinationEntityVersionHash: Data(d.versionHash)))
                }
                continue
            }
            usedSources.insert(s.name)
            if d.isAbstract && !s.isAbstract {
                problems.append(
                    "entity \(d.name) became abstract, so the existing \(s.name) objects cannot be migrated to it")
            }
            var attributes: [PropertyMapping] = []
            for a in d.attributes where !a.isTransient {
                guard let sa = matcher.sourceAttribute(for: a, in: s) else {
                    if !a.isOptional && a.defaultValue == nil {
                        problems.append(
                            "\(d.name).\(a.name) is new and required but has no default value for the existing objects: give it a default value or make it optional"
                        )
                    }
                    attributes.append(PropertyMapping(name: a.name))
                    continue
                }
                if sa.attributeType != a.attributeType {
                    problems.append(
                        "\(d.name).\(a.name) changed type from \(sa.attributeType.xcodeName) to \(a.attributeType.xcodeName): write a mapping model whose value expression converts it, or add a new attribute"
                    )
                }
                if sa.isOptional && !a.isOptional && a.defaultValue == nil {
                    problems.append(
                        "\(d.name).\(a.name) became required but has no default value for objects where it is nil: give it a default value"
                    )
                }
                attributes.append(PropertyMapping(name: a.name, valueExpression: valueForKey(sa.name)))
            }
            var relationships: [PropertyMapping] = []
            for r in d.relationships {
                guard let sr = matcher.sourceRelationship(for: r, in: s) else {
                    if !r.isOptional || r.minCount > 0 {
                        problems.append(
                            "\(d.name).\(r.name) is a new required relationship that existing objects cannot have: make it optional"
                        )
                    }
                    relationships.append(PropertyMapping(name: r.name))
                    continue
                }
                let sourceDestination = source.entitiesByName[sr.destinationEntityName]
                let expectedDestination = sourceDestination.flatMap(matcher.destinationEntity(for:))
                if let expectedDestination,
                    !destination.isEntity(expectedDestination.name, kindOf: r.destinationEntityName)
                {
                    problems.append(
                        "\(d.name).\(r.name) now leads to \(r.destinationEntityName) instead of \(sr.destinationEntityName)"
                    )
                }
                if sr.isOptional && !r.isOptional {
                    problems.append(
                        "\(d.name).\(r.name) became required, and objects where it is empty cannot be migrated: make it optional"
                    )
                }
                relationships.append(
                    PropertyMapping(
                        name: r.name,
                        valueExpression: .customFunction(
                            receiver: .variable("manager"),
                            selector: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
                            arguments: [.constant(.string(sr.name)), valueForKey(sr.name)])))
            }
            guard !d.isAbstract || !s.isAbstract else { continue }
            let unchanged = s.name == d.name && s.versionHash == d.versionHash
            mappings.append(
                EntityMapping(
                    name: unchanged ? "IEM_Copy_\(d.name)" : "IEM_Transform_\(d.name)",
                    mappingType: unchanged ? .copy : .transform,
                    sourceEntityName: s.name, sourceEntityVersionHash: Data(s.versionHash),
                    destinationEntityName: d.name, destinationEntityVersionHash: Data(d.versionHash),
                    sourceExpression: EntityMapping.fetchSourceExpression(entityName: s.name),
                    attributeMappings: attributes, relationshipMappings: relationships))
        }
        // Merging hierarchies: destination entities under one root must come from one source root.
        for root in destination.entities where root.parentEntityName == nil {
            let sourceRoots = Set(
                destination.entityAndSubentities(of: root.name).compactMap {
                    matcher.sourceEntity(for: $0)?.rootEntityName
                })
            if sourceRoots.count > 1 {
                problems.append(
                    "the hierarchy of \(root.name) joins entities of separate source hierarchies (\(sourceRoots.sorted().joined(separator: ", "))): Core Data cannot infer merging hierarchies"
                )
            }
        }
        for s in source.entities where !usedSources.contains(s.name) && !s.isAbstract {
            mappings.append(
                EntityMapping(
                    name: "IEM_Remove_\(s.name)", mappingType: .remove, sourceEntityName: s.name,
                    sourceEntityVersionHash: Data(s.versionHash), destinationEntityName: nil))
        }
        guard problems.isEmpty else {
            throw CoreDataError(
                .inferredMappingModel, "Can't infer a mapping model: \(problems.joined(separator: "; "))")
        }
        let model = MappingModel(entityMappings: mappings)
        model.isInferred = true
        return model
    }
}
