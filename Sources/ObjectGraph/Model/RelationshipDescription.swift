/// What deleting the source object does to the objects at the other end of a relationship:
/// NSDeleteRule, with Apple's raw values.
public enum DeleteRule: Int, Hashable, Sendable {
    /// Do nothing: the other objects keep pointing at a deleted object.
    case noAction = 0
    /// Set the inverse relationship of the other objects to nil (or remove the object).
    case nullify = 1
    /// Delete the other objects too.
    case cascade = 2
    /// Refuse to delete while the relationship has objects (error 1600 at save).
    case deny = 3
}

/// A relationship between entities: NSRelationshipDescription, as a value type.
///
/// Every relationship names its inverse, as Apple recommends; building a model checks that
/// the inverse exists and points back.
public struct RelationshipDescription: Hashable, Sendable {
    /// The relationship's name, a key of the entity.
    public var name: String
    /// The entity at the other end.
    public var destinationEntityName: String
    /// The relationship of the destination that points back.
    public var inverseName: String
    /// Whether it holds a set of objects rather than one.
    public var isToMany: Bool
    /// Whether it may be empty (nil for to-one) when saved.
    public var isOptional: Bool
    /// The fewest objects a to-many relationship may hold when saved (0: no minimum).
    public var minCount: Int
    /// The most objects a to-many relationship may hold when saved (0: no maximum).
    public var maxCount: Int
    /// What deleting the source does to the destination objects.
    public var deleteRule: DeleteRule
    /// The name this relationship had in an earlier model version.
    public var renamingIdentifier: String?
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// Free-form information for the application.
    public var userInfo: [String: String]

    /// A to-one relationship.
    public init(_ name: String, toOne destination: String, inverse: String, deleteRule: DeleteRule = .nullify,
                optional: Bool = true, renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
                userInfo: [String: String] = [:]) {
        self.init(name: name, destination: destination, inverse: inverse, toMany: false, optional: optional,
                  minCount: 0, maxCount: 1, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
                  versionHashModifier: versionHashModifier, userInfo: userInfo)
    }

    /// A to-many relationship.
    public init(_ name: String, toMany destination: String, inverse: String, deleteRule: DeleteRule = .nullify,
                optional: Bool = true, minCount: Int = 0, maxCount: Int = 0, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, userInfo: [String: String] = [:]) {
        self.init(name: name, destination: destination, inverse: inverse, toMany: true, optional: optional,
                  minCount: minCount, maxCount: maxCount, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
                  versionHashModifier: versionHashModifier, userInfo: userInfo)
    }

    /// Describes a relationship with every field given.
    public init(name: String, destination: String, inverse: String, toMany: Bool, optional: Bool,
                minCount: Int, maxCount: Int, deleteRule: DeleteRule, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, userInfo: [String: String] = [:]) {
        self.name = name
        self.destinationEntityName = destination
        self.inverseName = inverse
        self.isToMany = toMany
        self.isOptional = optional
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }
}

/// An attribute or a relationship, as an entity lists them.
public enum PropertyDescription: Hashable, Sendable {
    /// An attribute.
    case attribute(AttributeDescription)
    /// A relationship.
    case relationship(RelationshipDescription)

    /// The property's name.
    public var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        }
    }
}

/// Builds the property list of an entity from attribute and relationship declarations.
@resultBuilder
public enum PropertyBuilder {
    /// One attribute.
    public static func buildExpression(_ a: AttributeDescription) -> [PropertyDescription] { [.attribute(a)] }
    /// One relationship.
    public static func buildExpression(_ r: RelationshipDescription) -> [PropertyDescription] { [.relationship(r)] }
    /// Several declarations.
    public static func buildBlock(_ parts: [PropertyDescription]...) -> [PropertyDescription] { parts.flatMap { $0 } }
    /// An optional declaration.
    public static func buildOptional(_ part: [PropertyDescription]?) -> [PropertyDescription] { part ?? [] }
    /// One branch of an if.
    public static func buildEither(first: [PropertyDescription]) -> [PropertyDescription] { first }
    /// The other branch.
    public static func buildEither(second: [PropertyDescription]) -> [PropertyDescription] { second }
    /// A loop.
    public static func buildArray(_ parts: [[PropertyDescription]]) -> [PropertyDescription] { parts.flatMap { $0 } }
}
