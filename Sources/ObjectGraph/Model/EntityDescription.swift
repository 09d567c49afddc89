/// An entity of a model: NSEntityDescription, as a value type.
///
/// ```swift
/// EntityDescription("Book", class: Book.self) {
///     AttributeDescription("title", .string, optional: false)
///     RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
/// }
/// ```
///
/// Declared properties are in ``properties``; once the entity is part of a
/// ``ManagedObjectModel``, ``attributes`` and ``relationships`` also hold the inherited ones.
public struct EntityDescription: Hashable, Sendable {
    /// The entity's name.
    public var name: String
    /// The properties this entity declares (not the inherited ones), in declaration order.
    public var properties: [PropertyDescription]
    /// The name of the parent entity, if any.
    public var parentEntityName: String?
    /// An abstract entity has no instances of its own, only of its sub-entities.
    public var isAbstract: Bool
    /// The class instances are made of (NSManagedObject or a subclass).
    public var managedObjectClass: ManagedObject.Type
    /// The name this entity had in an earlier model version.
    public var renamingIdentifier: String?
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// Free-form information for the application.
    public var userInfo: [String: String]
    /// Fetch indexes (Xcode's Indexes): compound indexes the store keeps; not part of the version hash.
    public var indexes: [FetchIndexDescription]
    /// Uniqueness constraints: each inner array names attributes whose values together are unique.
    ///
    /// They enter the version hash, as Apple documents (only when there are some, so models without
    /// constraints keep their hashes).
    public var uniquenessConstraints: [[String]]

    // Filled in by ManagedObjectModel.
    /// Every attribute, inherited ones first.
    public internal(set) var attributes: [AttributeDescription] = []
    /// Every relationship, inherited ones first.
    public internal(set) var relationships: [RelationshipDescription] = []
    /// Direct sub-entities' names, sorted.
    public internal(set) var subentityNames: [String] = []
    /// The topmost ancestor's name (the entity's own name if it has no parent).
    public internal(set) var rootEntityName: String = ""
    /// The entity's number in a SQLite store (`Z_ENT`): roots sorted by name, each followed by
    /// its sub-entities.
    public internal(set) var entityNumber: Int = 0
    /// A 32-byte digest of everything that changes the entity's storage (see VersionHash).
    public internal(set) var versionHash: [UInt8] = []
    /// Index of each property name in ``propertyNames``.
    var propertyIndex: [String: Int] = [:]

    /// Declares an entity with its properties.
    public init(_ name: String, parent: String? = nil, abstract: Bool = false, class managedObjectClass: ManagedObject.Type = ManagedObject.self,
                renamingIdentifier: String? = nil, versionHashModifier: String? = nil, userInfo: [String: String] = [:],
                indexes: [FetchIndexDescription] = [], uniquenessConstraints: [[String]] = [],
                @PropertyBuilder properties: () -> [PropertyDescription] = { [] }) {
        self.name = name
        self.parentEntityName = parent
        self.isAbstract = abstract
        self.managedObjectClass = managedObjectClass
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.indexes = indexes
        self.uniquenessConstraints = uniquenessConstraints
        self.properties = properties()
    }

    /// Every property name, attributes then relationships: the order values are stored in.
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }

    /// The attribute with this name, inherited ones included.
    public func attribute(named name: String) -> AttributeDescription? {
        guard let i = propertyIndex[name], i < attributes.count else { return nil }
        return attributes[i]
    }

    /// The relationship with this name, inherited ones included.
    public func relationship(named name: String) -> RelationshipDescription? {
        guard let i = propertyIndex[name], i >= attributes.count else { return nil }
        return relationships[i - attributes.count]
    }

    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs.name == rhs.name && lhs.properties == rhs.properties && lhs.parentEntityName == rhs.parentEntityName
            && lhs.isAbstract == rhs.isAbstract && ObjectIdentifier(lhs.managedObjectClass) == ObjectIdentifier(rhs.managedObjectClass)
            && lhs.renamingIdentifier == rhs.renamingIdentifier && lhs.versionHashModifier == rhs.versionHashModifier
            && lhs.userInfo == rhs.userInfo && lhs.indexes == rhs.indexes
            && lhs.uniquenessConstraints == rhs.uniquenessConstraints
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(properties)
        hasher.combine(parentEntityName)
    }
}

/// Builds a model's entity list.
@resultBuilder
public enum EntityBuilder {
    /// One entity.
    public static func buildExpression(_ e: EntityDescription) -> [EntityDescription] { [e] }
    /// Several entities.
    public static func buildBlock(_ parts: [EntityDescription]...) -> [EntityDescription] { parts.flatMap { $0 } }
    /// An optional entity.
    public static func buildOptional(_ part: [EntityDescription]?) -> [EntityDescription] { part ?? [] }
    /// One branch of an if.
    public static func buildEither(first: [EntityDescription]) -> [EntityDescription] { first }
    /// The other branch.
    public static func buildEither(second: [EntityDescription]) -> [EntityDescription] { second }
    /// A loop.
    public static func buildArray(_ parts: [[EntityDescription]]) -> [EntityDescription] { parts.flatMap { $0 } }
}
