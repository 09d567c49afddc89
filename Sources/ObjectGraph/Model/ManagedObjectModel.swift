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
///
/// A model can also be built as Apple's documentation builds one, from an empty model whose
/// ``entities`` are set:
///
/// ```swift
/// let model = NSManagedObjectModel()
/// model.entities = [item, tag]
/// let container = NSPersistentContainer(name: "Items", managedObjectModel: model)
/// ```
///
/// Such a model is checked and **frozen** the first time it is used: by a coordinator (which
/// throws the check's error from `addPersistentStore`, and `loadPersistentStores` reports it),
/// or the first time something the model derives is asked for (``entitiesByName``, version
/// hashes, ``checkValidity()``). The throwing initializers freeze at once. Freezing derives
/// inherited properties, entity numbers, inverses and version hashes, and makes the model's
/// entities and properties read-only: a setter then stops the program with Apple's
/// NSInternalInconsistencyException, "Can't modify an immutable model", so a running stack
/// never sees its model change. The entities and properties stay the objects the program
/// made (`model.entities[0] === item`, `item.managedObjectModel === model`), except those
/// that already belonged to another model, which are copied.
public final class ManagedObjectModel: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the mutable state (`declared`, the settable fields) is written only
    // while the model is built, on one thread, as Apple requires; `derived` is set once, under
    // `freezing`, and never changes after; every setter refuses once it is set.

    /// What freezing derives, never changed once made: what the hot paths read.
    final class Derived: Sendable {
        let entities: [EntityDescription]
        let entitiesByName: [String: EntityDescription]
        let entityVersionHashesByName: [String: Data]
        let legacyEntityVersionHashesByName: [String: Data]
        let entitiesByNumber: [Int: EntityDescription]
        let inverses: [String: (entity: String, relationship: RelationshipDescription)]

        init(
            entities: [EntityDescription], entitiesByName: [String: EntityDescription],
            entityVersionHashesByName: [String: Data], legacyEntityVersionHashesByName: [String: Data],
            entitiesByNumber: [Int: EntityDescription],
            inverses: [String: (entity: String, relationship: RelationshipDescription)]
        ) {
            self.entities = entities
            self.entitiesByName = entitiesByName
            self.entityVersionHashesByName = entityVersionHashesByName
            self.legacyEntityVersionHashesByName = legacyEntityVersionHashesByName
            self.entitiesByNumber = entitiesByNumber
            self.inverses = inverses
        }
    }

    /// The entities as set, in the order given, until the model is frozen.
    private var declared: [EntityDescription] = []
    /// What freezing derived; nil until the model is frozen. `@exclusivity(unchecked)`: set
    /// once under `freezing` and read on every fetch; a frozen model never writes it again.
    @exclusivity(unchecked) private var derived: Derived?
    /// Serializes freezing, so that two threads asking at once derive the model once.
    private let freezing = NSLock()

    /// Whether the model is frozen: checked, derived, and read-only from now on.
    var isFrozen: Bool { derived != nil }

    /// The entities (entities): sorted by name once the model is frozen. Setting them makes
    /// each entity this model's (``EntityDescription/managedObjectModel``), with the
    /// sub-entities set through ``EntityDescription/subentities``; an entity that belongs to
    /// another model is copied.
    public var entities: [EntityDescription] {
        get { derived?.entities ?? declared.sorted { $0.name < $1.name } }
        set {
            refuseIfFrozen()
            for old in declared where old.model === self { old.model = nil }
            declared = Self.adopt(newValue, into: self)
        }
    }
    /// The entities by name (entitiesByName). Asking freezes the model.
    public var entitiesByName: [String: EntityDescription] { frozenOrProvisional.entitiesByName }
    /// The identifiers of the model's version (NSManagedObjectModel.versionIdentifiers).
    public var versionIdentifiers: Set<String> { willSet { refuseIfFrozen() } }
    /// The named configurations (Xcode's Configurations), in declaration order; the default
    /// configuration, with every entity, is not listed.
    public private(set) var configurationDescriptions: [ModelConfiguration]
    /// The fetch request templates stored in the model, by name (fetchRequestTemplatesByName).
    public private(set) var fetchRequestTemplatesByName: [String: FetchRequestTemplate]
    /// Each entity's version hash by name (entityVersionHashesByName): what a store's
    /// `NSStoreModelVersionHashes` holds, byte for byte as Core Data computes it. Asking freezes
    /// the model.
    public var entityVersionHashesByName: [String: Data] { frozenOrProvisional.entityVersionHashesByName }
    /// The hashes ObjectGraph computed before it computed Core Data's, by entity name: only to
    /// recognise the stores it wrote then.
    var legacyEntityVersionHashesByName: [String: Data] { frozenOrProvisional.legacyEntityVersionHashesByName }
    /// Entities by their number in a SQLite store.
    var entitiesByNumber: [Int: EntityDescription] { frozenOrProvisional.entitiesByNumber }
    /// Each relationship's inverse and the entity that declares it, by ``inverseKey(_:)``.
    var inverses: [String: (entity: String, relationship: RelationshipDescription)] { frozenOrProvisional.inverses }

    /// An empty model (init()), to be given its ``entities``, as Apple's documentation builds
    /// models in code. It is checked and frozen when first used.
    public init() {
        versionIdentifiers = []
        configurationDescriptions = []
        fetchRequestTemplatesByName = [:]
    }

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
    /// invalid model, and reads none from a file it cannot load) and a message naming the entity and property at fault,
    /// for a name that is not an identifier,
    ///   an entity or property declared twice, an unknown parent or destination, an entity that
    ///   inherits from itself, a named inverse that does not exist or does not point back, a bad
    ///   count range, a stored attribute of type Undefined, or a regular expression that does
    ///   not compile. For example: `Relationship Book.publisher names the inverse
    ///   Publisher.books, which does not exist; declare it, pointing back to Book`.
    public convenience init(versionIdentifier: String? = nil, @EntityBuilder entities: () -> [EntityDescription]) throws
    {
        try self.init(entities: entities(), versionIdentifiers: versionIdentifier.map { [$0] } ?? [])
    }

    /// Builds and checks a model from an array of entities, and optionally its configurations
    /// and fetch request templates; the model is frozen.
    ///
    /// - Throws: ``CoreDataError`` for the exception NSInvalidArgumentException
    ///   (``CoreDataError/ExceptionName/invalidArgument``), as ``init(versionIdentifier:entities:)``
    ///   does, and for a configuration or template that names an entity the model does not have.
    public init(
        entities declared: [EntityDescription], versionIdentifiers: Set<String> = [],
        configurations: [ModelConfiguration] = [], fetchRequestTemplates: [FetchRequestTemplate] = []
    ) throws {
        self.versionIdentifiers = versionIdentifiers
        self.configurationDescriptions = configurations
        self.fetchRequestTemplatesByName = Dictionary(
            fetchRequestTemplates.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first })
        self.declared = Self.adopt(declared, into: self)
        try checkValidity()
    }

    /// Stops the program, as Apple raises, when the model is frozen.
    private func refuseIfFrozen() {
        if derived != nil { PropertyDescription.refuseMutation(of: "the model") }
    }

    /// Makes `entities` (and the sub-entities set through them) the model's: an entity that is
    /// frozen or belongs to another model is copied, since an entity has one model.
    private static func adopt(_ entities: [EntityDescription], into model: ManagedObjectModel) -> [EntityDescription] {
        var result: [EntityDescription] = []
        var seen: Set<ObjectIdentifier> = []
        // An entity listed twice stays twice (the check refuses it, as merging two models that
        // declare one entity must fail); a sub-entity is added once, unless it is listed.
        var queue = entities.map { (entity: $0, listed: true) }
        while !queue.isEmpty {
            let (e, listed) = queue.removeFirst()
            guard seen.insert(ObjectIdentifier(e)).inserted || listed else { continue }
            queue += e.subentityReferences.filter { s in !entities.contains { $0 === s } }.map { ($0, false) }
            // A copy knows its parent, destinations and inverses by name, which is enough.
            let mine = e.isFrozen || (e.model != nil && e.model !== model) ? e.copy() : e
            mine.model = model
            result.append(mine)
        }
        return result
    }

    /// Checks the model and freezes it, once: derives inherited properties, entity numbers,
    /// inverses and version hashes, and makes the entities read-only. A model already frozen
    /// is valid; a model that is not valid stays unfrozen, so that it can be corrected.
    ///
    /// - Throws: ``CoreDataError`` naming the entity and property at fault, as
    ///   ``init(entities:versionIdentifiers:configurations:fetchRequestTemplates:)`` does.
    public func checkValidity() throws {
        if derived != nil { return }
        freezing.lock()
        defer { freezing.unlock() }
        if derived != nil { return }
        derived = try derive(
            declared, configurations: configurationDescriptions,
            fetchRequestTemplates: Array(fetchRequestTemplatesByName.values))
    }

    /// The derived data of a frozen model; for a model that is not valid (which only a model
    /// built with ``init()`` can be), what can be had without checking, so that a getter does
    /// not trap: the entities by name, without hashes or inverses. Its first throwing use
    /// throws the check's error.
    private var frozenOrProvisional: Derived {
        if let derived { return derived }
        if (try? checkValidity()) != nil, let derived { return derived }
        let sorted = declared.sorted { $0.name < $1.name }
        return Derived(
            entities: sorted,
            entitiesByName: Dictionary(
                sorted.map { ($0.name, $0) },
                uniquingKeysWith: { first, _ in first }),
            entityVersionHashesByName: [:], legacyEntityVersionHashesByName: [:], entitiesByNumber: [:],
            inverses: [:])
    }

    /// Checks `declared` and derives what a frozen model holds, writing the derived fields into
    /// the entities, then freezes them.
    private func derive(
        _ declared: [EntityDescription], configurations: [ModelConfiguration],
        fetchRequestTemplates: [FetchRequestTemplate]
    ) throws -> Derived {
        var byName: [String: EntityDescription] = [:]
        for entity in declared {
            guard Self.isIdentifier(entity.name) else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Entity name \"\(entity.name)\" is not a valid name: use letters, digits and underscores, starting with a letter"
                )
            }
            guard byName[entity.name] == nil else {
                throw CoreDataError(exception: .invalidArgument, "The model declares the entity \(entity.name) twice")
            }
            byName[entity.name] = entity
        }
        // References set through Apple's API become names: destinations, inverses, parents.
        for entity in declared {
            for case let r as RelationshipDescription in entity.properties { r.resolveReferences(in: byName) }
        }
        // Parents exist, and no entity is its own ancestor.
        for entity in declared {
            var seen: Set<String> = [entity.name]
            var parent = entity.parentEntityName
            while let p = parent {
                guard let parentEntity = byName[p] else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "Entity \(entity.name) names the parent entity \(p), which the model does not declare")
                }
                guard seen.insert(p).inserted else {
                    throw CoreDataError(
                        exception: .invalidArgument, "Entity \(entity.name) inherits from itself through \(p)")
                }
                parent = parentEntity.parentEntityName
            }
        }
        func ancestry(_ name: String) -> [String] {
            var chain: [String] = []
            var current: String? = name
            while let c = current {
                chain.insert(c, at: 0)
                current = byName[c]?.parentEntityName
            }
            return chain
        }
        // A relationship is its own inverse when its inverse has its name and its destination
        // is the entity that declares it: then the inverse found there is the relationship itself.
        for name in byName.keys {
            for case let r as RelationshipDescription in byName[name]!.properties {
                r.isOwnInverse =
                    r.inverseName == r.name && r.destinationEntityName == name
                    && (r.inverseEntityName == nil || r.inverseEntityName == name)
            }
        }
        // Inherited properties, then the entity's own; names unique along the chain.
        for name in byName.keys {
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var owner: [String: String] = [:]
            for ancestor in ancestry(name) {
                for property in byName[ancestor]!.properties {
                    guard Self.isIdentifier(property.name) else {
                        throw CoreDataError(
                            exception: .invalidArgument,
                            "Property name \"\(property.name)\" of entity \(ancestor) is not a valid name: use letters, digits and underscores, starting with a letter"
                        )
                    }
                    if let first = owner[property.name] {
                        let detail = first == ancestor ? "declares it twice" : "inherits it from \(first)"
                        throw CoreDataError(
                            exception: .invalidArgument,
                            "Entity \(name) has two properties named \(property.name): \(ancestor) \(detail)")
                    }
                    owner[property.name] = ancestor
                    switch property.kind {
                    case .attribute(let a): attributes.append(a)
                    case .relationship(let r): relationships.append(r)
                    case .fetched: break
                    }
                }
            }
            for fetched in byName[name]!.fetchedProperties {
                if let first = owner[fetched.name] {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "Entity \(name) has two properties named \(fetched.name): the fetched property and one of \(first)"
                    )
                }
                guard byName[fetched.fetchRequest.entityName] != nil else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "Fetched property \(name).\(fetched.name) fetches the entity \(fetched.fetchRequest.entityName), which the model does not declare"
                    )
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
        // Relationships: the destination exists, and a named inverse exists and points back.
        for entity in byName.values {
            for r in entity.relationships {
                guard byName[r.destinationEntityName] != nil else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "Relationship \(entity.name).\(r.name) points to the entity \(r.destinationEntityName), which the model does not declare"
                    )
                }
                if let inverseName = r.inverseName {
                    guard Self.inverse(of: r, in: byName) != nil else {
                        let place = r.inverseEntityName ?? r.destinationEntityName
                        throw CoreDataError(
                            exception: .invalidArgument,
                            "Relationship \(entity.name).\(r.name) names the inverse \(place).\(inverseName), which does not exist; declare it, pointing back to \(entity.name)"
                        )
                    }
                    if let (inverseOwner, inverse) = Self.unmatchedInverse(of: r, heldBy: entity.name, in: byName) {
                        throw CoreDataError(
                            exception: .invalidArgument,
                            "Relationship \(entity.name).\(r.name) and its inverse \(inverseOwner).\(inverseName) do not match: the inverse points to \(inverse.destinationEntityName).\(inverse.inverseName ?? "(no inverse)")"
                        )
                    }
                }
                if !r.isToMany && (r.minCount > 1 || (r.maxCount != 1 && r.maxCount != 0)) {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "To-one relationship \(entity.name).\(r.name) cannot have a count range")
                }
                if r.isToMany && r.maxCount > 0 && r.minCount > r.maxCount {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "Relationship \(entity.name).\(r.name) has a minimum count \(r.minCount) above its maximum \(r.maxCount)"
                    )
                }
                if r.isOrdered && !r.isToMany {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "Relationship \(entity.name).\(r.name) is ordered but to-one; only to-many relationships keep an order"
                    )
                }
            }
            try Self.checkIndexesAndConstraints(of: entity)
            for a in entity.attributes {
                try Self.checkAttribute(a, of: entity.name)
            }
        }
        try Self.check(configurations: configurations, templates: fetchRequestTemplates, entities: byName)
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
            let parentHash = byName[name]!.parentEntityName.map { byName[$0]!.versionHash }
            byName[name]!.versionHash = VersionHash.entity(byName[name]!, parentHash: parentHash)
        }
        var inverses: [String: (entity: String, relationship: RelationshipDescription)] = [:]
        for entity in byName.values {
            for r in entity.relationships { inverses[Self.inverseKey(r)] = Self.inverse(of: r, in: byName) }
        }
        // Parents set through `subentities` are kept by name from now on.
        for entity in declared where entity.superentityReference != nil {
            entity.parentEntityName = entity.parentEntityName
        }
        let entities = byName.values.sorted { $0.name < $1.name }
        for entity in entities { entity.freeze() }
        // So that `Book.entity()` and `Book.fetchRequest()` find the entity of a class.
        ManagedObjectClassRegistry.shared.register(entities)
        return Derived(
            entities: entities, entitiesByName: byName,
            entityVersionHashesByName: byName.mapValues(\.versionHash),
            legacyEntityVersionHashesByName: LegacyVersionHash.entityHashes(byName),
            entitiesByNumber: Dictionary(uniqueKeysWithValues: byName.values.map { ($0.entityNumber, $0) }),
            inverses: inverses)
    }

    /// A relationship's inverse and the entity that declares it: looked for on the entity the
    /// relationship names as the inverse's (Xcode's `inverseEntity`) or its destination, with
    /// their inherited properties, then on the destination's sub-entities (an inverse declared
    /// on a sub-entity, which Core Data allows).
    static func inverse(of r: RelationshipDescription, in entities: [String: EntityDescription]) -> (
        entity: String, relationship: RelationshipDescription
    )? {
        guard let inverseName = r.inverseName else { return nil }
        var candidates = [r.inverseEntityName, r.destinationEntityName].compactMap { $0 }
        var queue = [r.destinationEntityName]
        var seen: Set<String> = []
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard seen.insert(next).inserted else { continue }
            candidates.append(next)
            queue += entities.values.filter { $0.parentEntityName == next }.map(\.name).sorted()
        }
        for candidate in candidates {
            // The candidate's own declarations, then its ancestors' (an inherited inverse).
            var current: String? = candidate
            var visited: Set<String> = []
            while let c = current, visited.insert(c).inserted, let e = entities[c] {
                for case let found as RelationshipDescription in e.properties where found.name == inverseName {
                    return (c, found)
                }
                current = e.parentEntityName
            }
        }
        return nil
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.first, first.isASCIILetterOrUnderscore else { return false }
        return s.allSatisfy { $0.isASCIILetterOrUnderscore || $0.isASCIIDigit }
    }

    /// The entity with this name, or an error naming it and the entities there are.
    public func entity(named name: String) throws -> EntityDescription {
        guard let entity = entitiesByName[name] else {
            throw CoreDataError(
                exception: .internalInconsistency,
                "The model has no entity named \(name); its entities are \(entities.map(\.name).joined(separator: ", "))"
            )
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

    /// The model's version checksum (NSManagedObjectModel.versionChecksum): base64 of SHA-256
    /// over the entities' version hashes in name order, as a store's
    /// `NSStoreModelVersionChecksumKey` and a compiled model's `VersionInfo.plist` record it.
    public var versionChecksum: String { VersionHash.checksum(entityVersionHashesByName) }

    /// The names of the model's configurations (NSManagedObjectModel.configurations), the
    /// default one not included.
    public var configurations: [String] { configurationDescriptions.map(\.name) }

    /// The entities of a configuration, sorted by name (entitiesForConfiguration:): every
    /// entity for the default configuration (`nil`, `"Default"`, `"PF_DEFAULT_CONFIGURATION_NAME"`),
    /// nil for a name the model does not declare.
    public func entities(forConfigurationName name: String?) -> [EntityDescription]? {
        guard let name, !Self.defaultConfigurationNames.contains(name) else { return entities }
        guard let configuration = configurationDescriptions.first(where: { $0.name == name }) else { return nil }
        return configuration.entityNames.compactMap { entitiesByName[$0] }.sorted { $0.name < $1.name }
    }

    /// The names that mean the default configuration.
    static let defaultConfigurationNames: Set<String> = ["Default", "PF_DEFAULT_CONFIGURATION_NAME"]

    /// The fetch request template with this name, as a fetch request
    /// (fetchRequestTemplateForName:); nil when there is none.
    ///
    /// - Throws: ``PredicateError`` when the template's predicate does not parse.
    public func fetchRequestTemplate(forName name: String) throws -> FetchRequest<ManagedObject>? {
        try fetchRequestTemplatesByName[name]?.fetchRequest()
    }

    /// A one-line summary per entity.
    public var description: String {
        entities.map { e in
            let props =
                e.attributes.map { "\($0.name): \($0.attributeType.xcodeName)" }
                + e.relationships.map {
                    "\($0.name) -> \($0.isToMany ? "[\($0.destinationEntityName)]" : $0.destinationEntityName)"
                }
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
    func manyToManyKey(entity entityName: String, relationship r: RelationshipDescription) -> (
        key: String, isOwner: Bool
    ) {
        let mine = "\(declaringEntity(of: r.name, in: entityName)).\(r.name)"
        let found = inverses[Self.inverseKey(r)]
        let theirs = "\(found?.entity ?? r.destinationEntityName).\(r.inverseName ?? "")"
        return mine <= theirs ? (mine, true) : (theirs, false)
    }

    /// What a relationship's inverse is found by: its destination, the inverse's entity and name.
    static func inverseKey(_ r: RelationshipDescription) -> String {
        "\(r.destinationEntityName)|\(r.inverseEntityName ?? "")|\(r.inverseName ?? "")"
    }

    /// A relationship's inverse (inverseRelationship): on its destination, inherited by it, or
    /// declared on a sub-entity of it; nil when the relationship has no inverse.
    public func inverseRelationship(of r: RelationshipDescription) -> RelationshipDescription? {
        inverses[Self.inverseKey(r)]?.relationship
    }

    /// The entity that declares a relationship's inverse, or nil when it has none.
    func inverseEntityName(of r: RelationshipDescription) -> String? {
        inverses[Self.inverseKey(r)]?.entity
    }
}
