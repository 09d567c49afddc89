import Foundation

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
/// Apple recommends that every relationship name its inverse, and building a model checks
/// that a named inverse exists and points back. A relationship without an inverse is allowed,
/// as Core Data allows it (Xcode warns; the loader keeps that warning).
public struct RelationshipDescription: Hashable, Sendable {
    /// The relationship's name, a key of the entity.
    public var name: String
    /// The entity at the other end.
    public var destinationEntityName: String
    /// The relationship of the destination that points back, or nil when there is none.
    public var inverseName: String?
    /// The entity that declares the inverse, when it is a sub-entity of the destination
    /// (Xcode's `inverseEntity`); nil when the inverse is on the destination or inherited by it.
    public var inverseEntityName: String?
    /// Whether it holds a set of objects rather than one.
    public var isToMany: Bool
    /// Whether a to-one may be nil when saved. A to-many's value is a set, never nil: it is
    /// bounded by ``minCount`` and ``maxCount`` alone (an optional one may also be empty).
    public var isOptional: Bool
    /// The fewest objects a to-many relationship may hold when saved (0: no minimum).
    public var minCount: Int
    /// The most objects a to-many relationship may hold when saved (0: no maximum).
    public var maxCount: Int
    /// What deleting the source does to the destination objects.
    public var deleteRule: DeleteRule
    /// Whether a to-many relationship keeps its objects in order (NSOrderedSet).
    public var isOrdered: Bool
    /// A transient relationship lives in memory only and is left out of the version hash.
    public var isTransient: Bool
    /// The name this relationship had in an earlier model version.
    public var renamingIdentifier: String?
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// Free-form information for the application.
    public var userInfo: [String: String]
    /// The inverse a model file named for this relationship when that relationship does not
    /// point back to it (Xcode warns; Core Data loads the file). Such a relationship is loaded
    /// without an inverse (``inverseName`` is nil), so that neither side is maintained as the
    /// other's inverse, writing its objects where they do not belong. The name is kept for the
    /// version hash, which Core Data computes from the inverse as written, so that the model's
    /// hashes still match the stores Core Data wrote with the same file.
    public internal(set) var unmatchedInverseName: String?
    /// The entity the model file named for that inverse (Xcode's `inverseEntity`), kept so that
    /// writing the model back gives the file as it was.
    var unmatchedInverseEntityName: String?
    /// Set by ``ManagedObjectModel``: whether the relationship is its own inverse, which leaves
    /// the inverse's name out of its version hash (<doc:OpeningStoresThatCoreDataWrote>).
    var isOwnInverse = false

    /// The relationship's version hash, as Core Data computes it (<doc:OpeningStoresThatCoreDataWrote>):
    /// from its name, flags, destination and inverse names, count range and orderedness.
    ///
    /// Whether a relationship is its own inverse depends on the entity that declares it, so the
    /// hash is exact once the relationship is part of a ``ManagedObjectModel`` (read it from an
    /// entity of the model).
    public var versionHash: Data { Data(VersionHash.relationship(self)) }

    /// A to-one relationship.
    public init(_ name: String, toOne destination: String, inverse: String?, deleteRule: DeleteRule = .nullify,
                optional: Bool = true, renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
                userInfo: [String: String] = [:], inverseEntity: String? = nil, transient: Bool = false) {
        self.init(name: name, destination: destination, inverse: inverse, toMany: false, optional: optional,
                  minCount: 0, maxCount: 1, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
                  versionHashModifier: versionHashModifier, userInfo: userInfo, inverseEntity: inverseEntity,
                  transient: transient)
    }

    /// A to-many relationship.
    public init(_ name: String, toMany destination: String, inverse: String?, deleteRule: DeleteRule = .nullify,
                optional: Bool = true, minCount: Int = 0, maxCount: Int = 0, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, userInfo: [String: String] = [:], ordered: Bool = false,
                inverseEntity: String? = nil, transient: Bool = false) {
        self.init(name: name, destination: destination, inverse: inverse, toMany: true, optional: optional,
                  minCount: minCount, maxCount: maxCount, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
                  versionHashModifier: versionHashModifier, userInfo: userInfo, ordered: ordered,
                  inverseEntity: inverseEntity, transient: transient)
    }

    /// Describes a relationship with every field given.
    public init(name: String, destination: String, inverse: String?, toMany: Bool, optional: Bool,
                minCount: Int, maxCount: Int, deleteRule: DeleteRule, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, userInfo: [String: String] = [:], ordered: Bool = false,
                inverseEntity: String? = nil, transient: Bool = false) {
        self.name = name
        self.destinationEntityName = destination
        self.inverseName = inverse
        self.inverseEntityName = inverseEntity
        self.isToMany = toMany
        self.isOptional = optional
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.isOrdered = ordered
        self.isTransient = transient
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
