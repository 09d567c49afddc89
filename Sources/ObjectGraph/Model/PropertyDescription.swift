import Foundation

/// A property of an entity: NSPropertyDescription, the base class of ``AttributeDescription``,
/// ``RelationshipDescription`` and ``FetchedPropertyDescription``.
///
/// Descriptions are reference types, as Apple's are, so that a model is built in code the way
/// Apple's documentation shows (`let title = NSAttributeDescription(); title.name = "title";
/// entity.properties = [title]`). A description is written while its model is built; once the
/// model is frozen (see ``ManagedObjectModel``) every setter stops the program with
/// NSInternalInconsistencyException, "Can't modify an immutable model", as Apple's raises. To
/// make a variant of a model's description, ``copy()`` it: the copy is not frozen.
///
/// Match on ``kind`` to tell attributes from relationships:
///
/// ```swift
/// for property in entity.properties {
///     switch property.kind {
///     case .attribute(let a): print(a.attributeType)
///     case .relationship(let r): print(r.destinationEntityName)
///     case .fetched: break
///     }
/// }
/// ```
public class PropertyDescription: Hashable, CustomStringConvertible, @unchecked Sendable {
    // @unchecked Sendable: a description is written only while its model is built, on one
    // thread, as Apple requires; from the moment its model is frozen every setter stops the
    // program (`willMutate()`), so what threads share is never written again.

    /// The property's name, a key of the entity.
    public var name: String { willSet { willMutate() } }
    /// Whether the value may be nil (or, for a to-many, empty) when saved; Core Data's default is true.
    public var isOptional: Bool { willSet { willMutate() } }
    /// A transient property lives in memory only: never stored, and left out of the version hash.
    public var isTransient: Bool { willSet { willMutate() } }
    /// The name this property had in an earlier model version, for migration.
    public var renamingIdentifier: String? { willSet { willMutate() } }
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String? { willSet { willMutate() } }
    /// Free-form information for the application.
    public var userInfo: [String: String] { willSet { willMutate() } }

    /// The entity whose ``EntityDescription/properties`` list this property (weak: the entity
    /// holds its properties).
    weak var owner: EntityDescription?
    /// Set when the property's model is frozen: from then on a setter stops the program.
    var isFrozen = false

    /// The entity that declares the property (NSPropertyDescription.entity); nil until the
    /// property is in an entity's ``EntityDescription/properties``.
    public var entity: EntityDescription! { owner }

    /// Makes a description with the fields every property has.
    init(
        name: String, isOptional: Bool, isTransient: Bool, renamingIdentifier: String?,
        versionHashModifier: String?, userInfo: [String: String]
    ) {
        self.name = name
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }

    /// Stops the program, as Apple raises, when the property's model is frozen.
    @inline(__always)
    final func willMutate() {
        if isFrozen { Self.refuseMutation(of: name) }
    }

    /// Stops with Apple's NSInternalInconsistencyException for a write to a frozen model.
    static func refuseMutation(of name: String) -> Never {
        raisingAsApple("NSInternalInconsistencyException") {
            throw CoreDataError(
                exception: .internalInconsistency,
                "Can't modify an immutable model: \(name) belongs to a model in use; "
                    + "copy() it to make a variant")
        }
    }

    /// What kind of property this is, for a `switch`.
    public enum Kind {
        /// An attribute.
        case attribute(AttributeDescription)
        /// A relationship.
        case relationship(RelationshipDescription)
        /// A fetched property.
        case fetched(FetchedPropertyDescription)
    }

    /// What kind of property this is: the description itself, by kind.
    public var kind: Kind {
        if let a = self as? AttributeDescription { return .attribute(a) }
        if let r = self as? RelationshipDescription { return .relationship(r) }
        return .fetched(self as! FetchedPropertyDescription)
    }

    /// An attribute, as a property: the spelling of the enum this class replaced.
    public static func attribute(_ a: AttributeDescription) -> PropertyDescription { a }
    /// A relationship, as a property: the spelling of the enum this class replaced.
    public static func relationship(_ r: RelationshipDescription) -> PropertyDescription { r }

    /// A copy that belongs to no entity and no model, and so can be changed (NSCopying).
    public func copy() -> PropertyDescription {
        fatalError("PropertyDescription.copy() is overridden by every subclass")
    }

    /// The property's version hash (NSPropertyDescription.versionHash).
    public var versionHash: Data { Data() }

    /// Whether two descriptions describe the same property, field by field (not identity).
    func isEqual(to other: PropertyDescription) -> Bool {
        name == other.name && isOptional == other.isOptional && isTransient == other.isTransient
            && renamingIdentifier == other.renamingIdentifier && versionHashModifier == other.versionHashModifier
            && userInfo == other.userInfo
    }

    /// Field-by-field equality, as the value types these classes replaced compared.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool {
        lhs === rhs || (type(of: lhs) == type(of: rhs) && lhs.isEqual(to: rhs))
    }

    /// Hashes the name, which equal descriptions share.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The property's kind and name.
    public var description: String { "\(type(of: self))(\(name))" }
}
