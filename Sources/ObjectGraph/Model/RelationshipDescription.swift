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

/// A relationship between entities: NSRelationshipDescription.
///
/// Apple recommends that every relationship name its inverse, and building a model checks
/// that a named inverse exists and points back. A relationship without an inverse is allowed,
/// as Core Data allows it (Xcode warns; the loader keeps that warning).
///
/// A relationship names its destination and inverse (``destinationEntityName``,
/// ``inverseName``), as model files and the DSL do, or points at them, as Apple's API does
/// (``destinationEntity``, ``inverseRelationship``); the model turns references into names
/// when it is frozen, so an entity may be named after a relationship points at it.
public class RelationshipDescription: PropertyDescription, @unchecked Sendable {
    /// The name of the entity at the other end.
    public var destinationEntityName: String {
        get {
            if !isFrozen, let d = destinationReference { return d.name }
            return storedDestinationName
        }
        set {
            willMutate()
            storedDestinationName = newValue
            destinationReference = nil
        }
    }
    /// The destination's name as set or as resolved when the model was frozen.
    private var storedDestinationName: String
    /// The destination as Apple's API set it: read for its name until the model is frozen.
    weak var destinationReference: EntityDescription?
    /// The name of the relationship of the destination that points back, or nil when there is none.
    public var inverseName: String? {
        get {
            if !isFrozen, let i = inverseReference { return i.name }
            return storedInverseName
        }
        set {
            willMutate()
            storedInverseName = newValue
            inverseReference = nil
        }
    }
    /// The inverse's name as set or as resolved when the model was frozen.
    private var storedInverseName: String?
    /// The inverse as Apple's API set it: read for its name until the model is frozen.
    weak var inverseReference: RelationshipDescription?
    /// The entity that declares the inverse, when it is a sub-entity of the destination
    /// (Xcode's `inverseEntity`); nil when the inverse is on the destination or inherited by it.
    public var inverseEntityName: String? { willSet { willMutate() } }
    /// Whether it holds a set of objects rather than one. Setting ``maxCount`` sets it as
    /// Apple's derives it (to-many unless the maximum is 1); Xcode's files may also declare a
    /// to-many with a maximum of 1, which setting this after ``maxCount`` gives.
    public var isToMany: Bool { willSet { willMutate() } }
    /// The fewest objects a to-many relationship may hold when saved (0: no minimum).
    public var minCount: Int { willSet { willMutate() } }
    /// The most objects a to-many relationship may hold when saved (0: no maximum; 1: to-one).
    public var maxCount: Int {
        willSet { willMutate() }
        didSet { isToMany = maxCount != 1 }
    }
    /// What deleting the source does to the destination objects.
    public var deleteRule: DeleteRule { willSet { willMutate() } }
    /// Whether a to-many relationship keeps its objects in order (NSOrderedSet).
    public var isOrdered: Bool { willSet { willMutate() } }
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
    public override var versionHash: Data { Data(VersionHash.relationship(self)) }

    /// The entity at the other end (destinationEntity): the one set, or once the relationship
    /// is in a model, the model's entity of that name.
    public var destinationEntity: EntityDescription? {
        get {
            // Only a frozen model is asked: asking an unfrozen one would freeze it.
            if let model = owner?.managedObjectModel, model.isFrozen,
                let e = model.entitiesByName[destinationEntityName]
            {
                return e
            }
            return destinationReference
        }
        set {
            willMutate()
            destinationReference = newValue
            storedDestinationName = newValue?.name ?? ""
        }
    }

    /// The relationship at the destination that points back (inverseRelationship): the one set,
    /// or once the relationship is in a model, the inverse the model found.
    public var inverseRelationship: RelationshipDescription? {
        get {
            if let model = owner?.managedObjectModel, model.isFrozen { return model.inverseRelationship(of: self) }
            return inverseReference
        }
        set {
            willMutate()
            inverseReference = newValue
            storedInverseName = newValue?.name
        }
    }

    /// Turns the references Apple's API set into names, once, when the model derives its data:
    /// an inverse declared on a sub-entity of the destination is named with that entity, as
    /// Xcode's `inverseEntity` names it. `entities` are the model's entities by name.
    func resolveReferences(in entities: [String: EntityDescription]) {
        if let d = destinationReference { storedDestinationName = d.name }
        guard let i = inverseReference else { return }
        storedInverseName = i.name
        guard let declaring = i.owner?.name, declaring != storedDestinationName else { return }
        var current = entities[declaring]?.parentEntityName
        var seen: Set<String> = [declaring]
        while let c = current, seen.insert(c).inserted {
            if c == storedDestinationName {
                inverseEntityName = declaring
                return
            }
            current = entities[c]?.parentEntityName
        }
    }

    /// A to-one relationship.
    public convenience init(
        _ name: String, toOne destination: String, inverse: String?, deleteRule: DeleteRule = .nullify,
        optional: Bool = true, renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
        userInfo: [String: String] = [:], inverseEntity: String? = nil, transient: Bool = false
    ) {
        self.init(
            name: name, destination: destination, inverse: inverse, toMany: false, optional: optional,
            minCount: 0, maxCount: 1, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, userInfo: userInfo, inverseEntity: inverseEntity,
            transient: transient)
    }

    /// A to-many relationship.
    public convenience init(
        _ name: String, toMany destination: String, inverse: String?, deleteRule: DeleteRule = .nullify,
        optional: Bool = true, minCount: Int = 0, maxCount: Int = 0, renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:], ordered: Bool = false,
        inverseEntity: String? = nil, transient: Bool = false
    ) {
        self.init(
            name: name, destination: destination, inverse: inverse, toMany: true, optional: optional,
            minCount: minCount, maxCount: maxCount, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, userInfo: userInfo, ordered: ordered,
            inverseEntity: inverseEntity, transient: transient)
    }

    /// An empty relationship, as Apple's `init()` makes it: no name or destination, optional,
    /// to-many without bounds (Apple's default `maxCount` is 0), nullify on delete.
    public convenience init() {
        self.init(
            name: "", destination: "", inverse: nil, toMany: true, optional: true,
            minCount: 0, maxCount: 0, deleteRule: .nullify)
    }

    /// Describes a relationship with every field given.
    public init(
        name: String, destination: String, inverse: String?, toMany: Bool, optional: Bool,
        minCount: Int, maxCount: Int, deleteRule: DeleteRule, renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:], ordered: Bool = false,
        inverseEntity: String? = nil, transient: Bool = false
    ) {
        self.storedDestinationName = destination
        self.storedInverseName = inverse
        self.inverseEntityName = inverseEntity
        self.isToMany = toMany
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.isOrdered = ordered
        super.init(
            name: name, isOptional: optional, isTransient: transient, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, userInfo: userInfo)
    }

    /// A copy that belongs to no entity or model, with the names of its destination and inverse.
    public override func copy() -> RelationshipDescription {
        let c = RelationshipDescription(
            name: name, destination: destinationEntityName, inverse: inverseName,
            toMany: isToMany, optional: isOptional, minCount: minCount, maxCount: maxCount,
            deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, userInfo: userInfo,
            ordered: isOrdered, inverseEntity: inverseEntityName, transient: isTransient)
        c.unmatchedInverseName = unmatchedInverseName
        c.unmatchedInverseEntityName = unmatchedInverseEntityName
        c.isOwnInverse = isOwnInverse
        return c
    }

    override func isEqual(to other: PropertyDescription) -> Bool {
        guard let o = other as? RelationshipDescription, super.isEqual(to: other) else { return false }
        return destinationEntityName == o.destinationEntityName && inverseName == o.inverseName
            && inverseEntityName == o.inverseEntityName && isToMany == o.isToMany && minCount == o.minCount
            && maxCount == o.maxCount && deleteRule == o.deleteRule && isOrdered == o.isOrdered
            && unmatchedInverseName == o.unmatchedInverseName
            && unmatchedInverseEntityName == o.unmatchedInverseEntityName
            && isOwnInverse == o.isOwnInverse
    }
}

/// Builds the property list of an entity from attribute and relationship declarations.
@resultBuilder
public enum PropertyBuilder {
    /// One attribute.
    public static func buildExpression(_ a: AttributeDescription) -> [PropertyDescription] { [a] }
    /// One relationship.
    public static func buildExpression(_ r: RelationshipDescription) -> [PropertyDescription] { [r] }
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
