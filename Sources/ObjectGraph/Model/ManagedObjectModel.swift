import Foundation

/// A schema of entities: NSManagedObjectModel.
///
/// ```swift
/// let model = try ManagedObjectModel {
///     EntityDescription("Publisher") {
///         AttributeDescription("name", .string)
///         RelationshipDescription("books", toMany: "Book", inverse: "publisher", deleteRule: .cascade)
///     }
///     EntityDescription("Book") {
///         AttributeDescription("title", .string, optional: false)
///         RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
///     }
/// }
/// ```
///
/// Building a model checks it: a duplicate entity or property name, an unknown parent or
/// destination, a missing inverse or one that does not point back each throw
/// ``CoreDataError`` for the exception NSInvalidArgumentException, naming the culprit.
public final class ManagedObjectModel: Sendable, CustomStringConvertible {
    /// The entities, sorted by name.
    public let entities: [EntityDescription]
    /// The entities by name.
    public let entitiesByName: [String: EntityDescription]
    /// The identifiers of the model's version (NSManagedObjectModel.versionIdentifiers).
    public let versionIdentifiers: Set<String>
    /// Entities by their number in a SQLite store.
    let entitiesByNumber: [Int: EntityDescription]

    /// Builds and checks a model from its entities.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(versionIdentifier: "1") {
    ///     EntityDescription("Book") {
    ///         AttributeDescription("title", .string, optional: false)
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: ``CoreDataError`` for the exception NSInvalidArgumentException
    ///   (``CoreDataError/ExceptionName/invalidArgument``; Core Data has no error code for an
    ///   invalid model, and reads none from a file it cannot load) and a message naming the entity and property at fault, for a name that is not an identifier,
    ///   an entity or property declared twice, an unknown parent or destination, an entity that
    ///   inherits from itself, a missing inverse or one that does not point back, a bad count
    ///   range, or a regular expression that does not compile. For example: `Relationship
    ///   Book.publisher names the inverse Publisher.books, which does not exist; declare it,
    ///   pointing back to Book`.
    public convenience init(versionIdentifier: String? = nil, @EntityBuilder entities: () -> [EntityDescription]) throws {
        try self.init(entities: entities(), versionIdentifiers: versionIdentifier.map { [$0] } ?? [])
    }

    /// Builds and checks a model from an array of entities.
    ///
    /// - Throws: ``CoreDataError`` for the exception NSInvalidArgumentException
    ///   (``CoreDataError/ExceptionName/invalidArgument``), as ``init(versionIdentifier:entities:)`` does.
    public init(entities declared: [EntityDescription], versionIdentifiers: Set<String> = []) throws {
        var byName: [String: EntityDescription] = [:]
        for entity in declared {
            guard Self.isIdentifier(entity.name) else {
                throw CoreDataError(exception: .invalidArgument, "Entity name \"\(entity.name)\" is not a valid name: use letters, digits and underscores, starting with a letter")
            }
            guard byName[entity.name] == nil else {
                throw CoreDataError(exception: .invalidArgument, "The model declares the entity \(entity.name) twice")
            }
            byName[entity.name] = entity
        }
        // Parents exist, and no entity is its own ancestor.
        for entity in declared {
            var seen: Set<String> = [entity.name]
            var parent = entity.parentEntityName
            while let p = parent {
                guard let parentEntity = byName[p] else {
                    throw CoreDataError(exception: .invalidArgument, "Entity \(entity.name) names the parent entity \(p), which the model does not declare")
                }
                guard seen.insert(p).inserted else {
                    throw CoreDataError(exception: .invalidArgument, "Entity \(entity.name) inherits from itself through \(p)")
                }
                parent = parentEntity.parentEntityName
            }
        }
        func ancestry(_ name: String) -> [String] {
            var chain: [String] = []
            var current: String? = name
            while let c = current { chain.insert(c, at: 0); current = byName[c]?.parentEntityName }
            return chain
        }
        // Inherited properties, then the entity's own; names unique along the chain.
        for name in byName.keys {
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var owner: [String: String] = [:]
            for ancestor in ancestry(name) {
                for property in byName[ancestor]!.properties {
                    guard Self.isIdentifier(property.name) else {
                        throw CoreDataError(exception: .invalidArgument, "Property name \"\(property.name)\" of entity \(ancestor) is not a valid name: use letters, digits and underscores, starting with a letter")
                    }
                    if let first = owner[property.name] {
                        let detail = first == ancestor ? "declares it twice" : "inherits it from \(first)"
                        throw CoreDataError(exception: .invalidArgument, "Entity \(name) has two properties named \(property.name): \(ancestor) \(detail)")
                    }
                    owner[property.name] = ancestor
                    switch property {
                    case .attribute(let a): attributes.append(a)
                    case .relationship(let r): relationships.append(r)
                    }
                }
            }
            byName[name]!.attributes = attributes
            byName[name]!.relationships = relationships
            var index: [String: Int] = [:]
            for (i, n) in (attributes.map(\.name) + relationships.map(\.name)).enumerated() { index[n] = i }
            byName[name]!.propertyIndex = index
            byName[name]!.rootEntityName = ancestry(name)[0]
            byName[name]!.subentityNames = declared.filter { $0.parentEntityName == name }.map(\.name).sorted()
        }
        // Relationships: the destination exists and the inverse points back.
        func isKind(_ entity: String, of ancestor: String) -> Bool { ancestry(entity).contains(ancestor) }
        for entity in byName.values {
            for r in entity.relationships {
                guard let destination = byName[r.destinationEntityName] else {
                    throw CoreDataError(exception: .invalidArgument, "Relationship \(entity.name).\(r.name) points to the entity \(r.destinationEntityName), which the model does not declare")
                }
                guard let inverse = destination.relationship(named: r.inverseName) else {
                    throw CoreDataError(exception: .invalidArgument, "Relationship \(entity.name).\(r.name) names the inverse \(r.destinationEntityName).\(r.inverseName), which does not exist; declare it, pointing back to \(entity.name)")
                }
                guard isKind(entity.name, of: inverse.destinationEntityName), inverse.inverseName == r.name else {
                    throw CoreDataError(exception: .invalidArgument, "Relationship \(entity.name).\(r.name) and its inverse \(r.destinationEntityName).\(r.inverseName) do not match: the inverse points to \(inverse.destinationEntityName).\(inverse.inverseName)")
                }
                if !r.isToMany && (r.minCount > 1 || (r.maxCount != 1 && r.maxCount != 0)) {
                    throw CoreDataError(exception: .invalidArgument, "To-one relationship \(entity.name).\(r.name) cannot have a count range")
                }
                if r.isToMany && r.maxCount > 0 && r.minCount > r.maxCount {
                    throw CoreDataError(exception: .invalidArgument, "Relationship \(entity.name).\(r.name) has a minimum count \(r.minCount) above its maximum \(r.maxCount)")
                }
            }
            try Self.checkIndexesAndConstraints(of: entity)
            for a in entity.attributes {
                if let pattern = a.regularExpression, (try? NSRegularExpression(pattern: pattern)) == nil {
                    throw CoreDataError(exception: .invalidArgument, "Attribute \(entity.name).\(a.name) has a regular expression that does not compile: \(pattern)")
                }
            }
        }
        // Entity numbers: roots in name order, each followed by its sub-entities (pre-order),
        // as Core Data numbers Z_ENT.
        var number = 0
        func numberTree(_ name: String) {
            number += 1
            byName[name]!.entityNumber = number
            for child in byName[name]!.subentityNames { numberTree(child) }
        }
        for root in byName.values.filter({ $0.parentEntityName == nil }).map(\.name).sorted() { numberTree(root) }
        // Version hashes, parents first since a child's hash includes its parent's.
        for name in byName.keys.sorted(by: { ancestry($0).count < ancestry($1).count }) {
            let parentHash = byName[name]!.parentEntityName.map { byName[$0]!.versionHash } ?? []
            byName[name]!.versionHash = VersionHash.entity(byName[name]!, parentHash: parentHash)
        }
        self.entities = byName.values.sorted { $0.name < $1.name }
        self.entitiesByName = byName
        self.entitiesByNumber = Dictionary(uniqueKeysWithValues: byName.values.map { ($0.entityNumber, $0) })
        self.versionIdentifiers = versionIdentifiers
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.first, first.isASCIILetterOrUnderscore else { return false }
        return s.allSatisfy { $0.isASCIILetterOrUnderscore || $0.isASCIIDigit }
    }

    /// The entity with this name, or an error naming it and the entities there are.
    public func entity(named name: String) throws -> EntityDescription {
        guard let entity = entitiesByName[name] else {
            throw CoreDataError(exception: .internalInconsistency, "The model has no entity named \(name); its entities are \(entities.map(\.name).joined(separator: ", "))")
        }
        return entity
    }

    /// The entity and every entity below it, pre-order.
    public func entityAndSubentities(of name: String) -> [EntityDescription] {
        guard let entity = entitiesByName[name] else { return [] }
        return [entity] + entity.subentityNames.flatMap { entityAndSubentities(of: $0) }
    }

    /// Whether `entity` is `ancestor` or inherits from it (NSEntityDescription isKindOfEntity:).
    public func isEntity(_ entity: String, kindOf ancestor: String) -> Bool {
        var current: String? = entity
        while let c = current {
            if c == ancestor { return true }
            current = entitiesByName[c]?.parentEntityName
        }
        return false
    }

    /// Each entity's version hash by name (entityVersionHashesByName).
    public var entityVersionHashesByName: [String: Data] {
        entitiesByName.mapValues { Data($0.versionHash) }
    }

    /// A one-line summary per entity.
    public var description: String {
        entities.map { e in
            let props = e.attributes.map { "\($0.name): \($0.attributeType.xcodeName)" }
                + e.relationships.map { "\($0.name) -> \($0.isToMany ? "[\($0.destinationEntityName)]" : $0.destinationEntityName)" }
            return "\(e.name)(\(props.joined(separator: ", ")))"
        }.joined(separator: "\n")
    }
}

extension ManagedObjectModel {
    /// The entity that declares a property (itself or an ancestor).
    func declaringEntity(of property: String, in entityName: String) -> String {
        var current: String? = entityName
        while let c = current, let e = entitiesByName[c] {
            if e.properties.contains(where: { $0.name == property }) { return c }
            current = e.parentEntityName
        }
        return entityName
    }

    /// For a many-to-many relationship: the key that names the pair ("Entity.relationship" of
    /// the side whose key sorts first) and whether `relationship` of `entityName` is that side.
    func manyToManyKey(entity entityName: String, relationship r: RelationshipDescription) -> (key: String, isOwner: Bool) {
        let mine = "\(declaringEntity(of: r.name, in: entityName)).\(r.name)"
        let theirs = "\(declaringEntity(of: r.inverseName, in: r.destinationEntityName)).\(r.inverseName)"
        return mine <= theirs ? (mine, true) : (theirs, false)
    }
}
