import Foundation

// Apple's object-graph API of NSEntityDescription: parents, sub-entities, the model, and
// properties by name. ObjectGraph's own code names entities (parentEntityName, subentityNames);
// these read the same graph as objects, and work before the entity's model is frozen.

extension EntityDescription {
    /// The model that holds the entity (managedObjectModel); nil before it is in a model's
    /// ``ManagedObjectModel/entities``.
    public var managedObjectModel: ManagedObjectModel! { model }

    /// The entity's sub-entities (subentities). Setting them makes this entity their parent
    /// (their ``superentity``), as Apple's does; a model given this entity also takes them.
    public var subentities: [EntityDescription] {
        get {
            if let model, model.isFrozen { return subentityNames.compactMap { model.entitiesByName[$0] } }
            if !subentityReferences.isEmpty { return subentityReferences }
            guard let model else { return [] }
            return model.entities.filter { $0.parentEntityName == name }
        }
        set {
            if isFrozen { PropertyDescription.refuseMutation(of: name) }
            for old in subentityReferences where old.superentityReference === self { old.superentityReference = nil }
            for child in newValue {
                child.parentEntityName = nil
                child.superentityReference = self
            }
            subentityReferences = newValue
        }
    }

    /// The parent entity (superentity), or nil for a root entity; set it through the parent's
    /// ``subentities``, or by name with ``parentEntityName``.
    public var superentity: EntityDescription? {
        if let parent = superentityReference { return parent }
        guard let parentName = parentEntityName else { return nil }
        return model?.entities.first { $0.name == parentName }
    }

    /// The sub-entities by name (subentitiesByName).
    public var subentitiesByName: [String: EntityDescription] {
        Dictionary(subentities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity and its ancestors, nearest first, found through references or the model.
    private var lineage: [EntityDescription] {
        var chain: [EntityDescription] = []
        var seen: Set<ObjectIdentifier> = []
        var current: EntityDescription? = self
        while let c = current, seen.insert(ObjectIdentifier(c)).inserted {
            chain.append(c)
            current = c.superentity
        }
        return chain
    }

    /// Every property, inherited ones included (the entity's own win over an ancestor's of the
    /// same name): what the by-name dictionaries read, frozen or not.
    private var allProperties: [PropertyDescription] {
        if isFrozen { return attributes as [PropertyDescription] + relationships + fetchedProperties }
        return lineage.reversed().flatMap { $0.properties + $0.fetchedProperties as [PropertyDescription] }
    }

    /// Every property by name, inherited and fetched ones included (propertiesByName).
    public var propertiesByName: [String: PropertyDescription] {
        Dictionary(allProperties.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The attributes by name, inherited ones included (attributesByName).
    public var attributesByName: [String: AttributeDescription] {
        Dictionary(
            allProperties.compactMap { p in (p as? AttributeDescription).map { (p.name, $0) } },
            uniquingKeysWith: { _, last in last })
    }

    /// The relationships by name, inherited ones included (relationshipsByName).
    public var relationshipsByName: [String: RelationshipDescription] {
        Dictionary(
            allProperties.compactMap { p in (p as? RelationshipDescription).map { (p.name, $0) } },
            uniquingKeysWith: { _, last in last })
    }

    /// The relationships, inherited ones included, whose destination is `entity`
    /// (relationshipsWithDestinationEntity:).
    public func relationships(forDestination entity: EntityDescription) -> [RelationshipDescription] {
        allProperties.compactMap { $0 as? RelationshipDescription }.filter { $0.destinationEntityName == entity.name }
    }

    /// Whether this entity is `entity` or one of its sub-entities, at any depth (isKindOfEntity:).
    public func isKindOf(entity: EntityDescription) -> Bool {
        lineage.contains { $0 === entity || ($0.name == entity.name && $0.model != nil && $0.model === entity.model) }
    }
}
