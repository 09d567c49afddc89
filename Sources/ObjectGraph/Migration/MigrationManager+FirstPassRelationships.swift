import Foundation

extension MigrationManager {
    /// Whether the relationships of mapping `i` can be set in the first pass, right after its
    /// destination instances are made, with the values the second pass would give them: its
    /// policy keeps the base class's relationship creation (``EntityMigrationPolicy/overridesCreateRelationships``
    /// is false), and each relationship mapping is filled from its inverse or looks up only
    /// the instances of mappings before `i`, whose first pass is complete and saved.
    ///
    /// Each destination row is then inserted once with its foreign keys, where the second
    /// pass would load it again and update it.
    func relatesInFirstPass(mappingIndex i: Int, policy: EntityMigrationPolicy) -> Bool {
        guard !type(of: policy).overridesCreateRelationships, let mappings = mappingModel?.entityMappings,
            i < mappings.count
        else { return false }
        let mapping = mappings[i]
        guard let name = mapping.destinationEntityName, let entity = destinationModel.entitiesByName[name] else {
            return false
        }
        for propertyMapping in mapping.relationshipMappings {
            guard let expression = propertyMapping.valueExpression,
                let relationship = entity.relationship(named: propertyMapping.name),
                !isFilledFromInverse(relationship, of: entity, expression: expression)
            else { continue }
            guard let targets = lookedUpMappings(expression, sourceEntityName: mapping.sourceEntityName, in: mappings),
                targets.allSatisfy({ $0 < i })
            else { return false }
        }
        return true
    }

    /// The indexes of the mappings whose instances a relationship expression of the manager's
    /// two lookups can answer; nil for any other expression, whose answer cannot be known
    /// before the second pass.
    private func lookedUpMappings(_ expression: Expression, sourceEntityName: String?, in mappings: [EntityMapping])
        -> [Int]?
    {
        guard case .customFunction(.variable("manager"), let selector, let arguments) = expression,
            arguments.count == 2
        else { return nil }
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            guard case .constant(.string(let name)) = arguments[0],
                let index = mappings.firstIndex(where: { $0.name == name })
            else { return nil }
            return [index]
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            // The lookup takes every mapping of the sources' entities: those the source
            // relationship can hold.
            let key: String
            switch arguments[1] {
            case .member(.variable("source"), let k): key = k
            case .customFunction(.variable("source"), "valueForKey:", let a) where a.count == 1:
                guard case .constant(.string(let k)) = a[0] else { return nil }
                key = k
            default: return nil
            }
            guard let sourceEntityName, let sourceEntity = sourceModel.entitiesByName[sourceEntityName],
                let relationship = sourceEntity.relationship(named: key)
            else { return nil }
            let kinds = Set(sourceModel.entityAndSubentities(of: relationship.destinationEntityName).map(\.name))
            return mappings.indices.filter { j in
                mappings[j].destinationEntityName != nil && kinds.contains(mappings[j].sourceEntityName ?? "")
            }
        default:
            return nil
        }
    }

    /// Sets the relationships of the destination instances that mapping `i` made since pending
    /// association `start` (one batch of the first pass), as the base class's
    /// ``EntityMigrationPolicy/createRelationships(forDestination:in:manager:)`` would in the
    /// second pass, each with the source it was made from.
    ///
    /// False, having set nothing more, when an instance is not new in this batch or is made
    /// from two sources: the second pass then runs as Core Data's does, and as relationship
    /// creation only reads the sources and the association tables, setting a relationship
    /// again gives it the same value. `seen` holds the instances related so far: this batch's
    /// where each batch is saved (a saved instance is no longer new), else the mapping's.
    func relateInFirstPass(
        mappingIndex i: Int, policy: EntityMigrationPolicy, state: MigrationState, from start: Int,
        seen: inout Set<ObjectIdentifier>
    ) throws -> Bool {
        let mapping = state.mappings[i]
        let made = state.pendingAssociations(mapping: i, from: start)
        // Objects of saved batches are gone: their identifiers may be reused.
        if state.savesEachBatch { seen.removeAll(keepingCapacity: true) }
        for (_, destination) in made {
            guard destination.isInserted, seen.insert(ObjectIdentifier(destination)).inserted else { return false }
        }
        guard !mapping.relationshipMappings.isEmpty else { return true }
        for (sourceID, destination) in made {
            let source = state.sourceContext.object(with: sourceID)
            try perform(mapping) {
                try policy.createDefaultRelationships(
                    forDestination: destination, source: source, in: mapping, manager: self)
            }
            try checkCancelled()
        }
        return true
    }
}
