import Foundation

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
    /// The entity's fields, in one shared, copy-on-write box.
    ///
    /// Every managed object holds its entity description, and fetching or inserting makes
    /// objects by the hundred thousand: with the fields inline, each object got its own copy
    /// of about a dozen reference-counted fields. Boxed, a copy is one retain; a setter
    /// copies the box first when it is shared, so the struct keeps value semantics.
    private var box: Box

    final class Box: @unchecked Sendable {
        // @unchecked Sendable: a box is only mutated while uniquely referenced (see
        // `mutableBox`), that is before it is shared with other descriptions or threads.
        var name: String
        var properties: [PropertyDescription]
        var parentEntityName: String?
        var isAbstract: Bool
        var managedObjectClass: ManagedObject.Type
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var userInfo: [String: String]
        var indexes: [FetchIndexDescription]
        var uniquenessConstraints: [[String]]
        var fetchedProperties: [FetchedPropertyDescription]
        var attributes: [AttributeDescription] = [] {
            didSet {
                attributeTypes = attributes.map(\.attributeType)
                attributeCount = attributes.count
                validatedAttributes = attributes.indices.filter { i in
                    let a = attributes[i]
                    return !a.isTransient && (!a.isOptional || a.minValue != nil || a.maxValue != nil || a.regularExpression != nil)
                }
            }
        }
        var relationships: [RelationshipDescription] = []
        /// Each attribute's type, by index: what setting a value checks, without copying the
        /// attribute's description.
        private(set) var attributeTypes: [AttributeType] = []
        /// `attributes.count`: the index where relationships start.
        private(set) var attributeCount = 0
        /// The attributes a save validates: stored ones that are mandatory or have bounds or a
        /// pattern. An optional attribute without them accepts any value of its type.
        private(set) var validatedAttributes: [Int] = []
        var subentityNames: [String] = []
        var rootEntityName: String = ""
        var entityNumber: Int = 0
        var versionHash = Data()
        var propertyIndex: [String: Int] = [:] {
            didSet { typedPropertyIndexes.reset() }
        }
        /// The property index of each typed property (``Managed``) read so far, by its key path.
        let typedPropertyIndexes = TypedPropertyIndexes()
        /// Property names by index, for ``EntityDescription/index(ofProperty:)``'s fast path.
        var keys: PropertyKeyTable = PropertyKeyTable([])

        init(name: String, properties: [PropertyDescription], parentEntityName: String?, isAbstract: Bool,
             managedObjectClass: ManagedObject.Type, renamingIdentifier: String?, versionHashModifier: String?,
             userInfo: [String: String], indexes: [FetchIndexDescription], uniquenessConstraints: [[String]],
             fetchedProperties: [FetchedPropertyDescription]) {
            self.name = name
            self.properties = properties
            self.parentEntityName = parentEntityName
            self.isAbstract = isAbstract
            self.managedObjectClass = managedObjectClass
            self.renamingIdentifier = renamingIdentifier
            self.versionHashModifier = versionHashModifier
            self.userInfo = userInfo
            self.indexes = indexes
            self.uniquenessConstraints = uniquenessConstraints
            self.fetchedProperties = fetchedProperties
        }

        func copy() -> Box {
            let b = Box(name: name, properties: properties, parentEntityName: parentEntityName, isAbstract: isAbstract,
                        managedObjectClass: managedObjectClass, renamingIdentifier: renamingIdentifier,
                        versionHashModifier: versionHashModifier, userInfo: userInfo, indexes: indexes,
                        uniquenessConstraints: uniquenessConstraints, fetchedProperties: fetchedProperties)
            b.attributes = attributes  // and, through didSet, attributeTypes
            b.relationships = relationships
            b.subentityNames = subentityNames
            b.rootEntityName = rootEntityName
            b.entityNumber = entityNumber
            b.versionHash = versionHash
            b.propertyIndex = propertyIndex
            b.keys = keys
            return b
        }
    }

    /// The box, copied first if another description shares it: every setter goes through here.
    private var mutableBox: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = box.copy() }
            return box
        }
    }

    /// The shared fields, for the context's hot paths: reading through the box copies nothing.
    var shared: Box { box }

    /// The entity's name.
    public var name: String {
        get { box.name }
        set { mutableBox.name = newValue }
    }
    /// The properties this entity declares (not the inherited ones), in declaration order.
    public var properties: [PropertyDescription] {
        get { box.properties }
        set { mutableBox.properties = newValue }
    }
    /// The name of the parent entity, if any.
    public var parentEntityName: String? {
        get { box.parentEntityName }
        set { mutableBox.parentEntityName = newValue }
    }
    /// An abstract entity has no instances of its own, only of its sub-entities.
    public var isAbstract: Bool {
        get { box.isAbstract }
        set { mutableBox.isAbstract = newValue }
    }
    /// The class instances are made of (NSManagedObject or a subclass).
    public var managedObjectClass: ManagedObject.Type {
        get { box.managedObjectClass }
        set { mutableBox.managedObjectClass = newValue }
    }
    /// The name this entity had in an earlier model version.
    public var renamingIdentifier: String? {
        get { box.renamingIdentifier }
        set { mutableBox.renamingIdentifier = newValue }
    }
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String? {
        get { box.versionHashModifier }
        set { mutableBox.versionHashModifier = newValue }
    }
    /// Free-form information for the application.
    public var userInfo: [String: String] {
        get { box.userInfo }
        set { mutableBox.userInfo = newValue }
    }
    /// Fetch indexes (Xcode's Indexes): compound indexes the store keeps; not part of the version hash.
    public var indexes: [FetchIndexDescription] {
        get { box.indexes }
        set { mutableBox.indexes = newValue }
    }
    /// Uniqueness constraints: each inner array names attributes whose values together are unique.
    ///
    /// They enter the version hash, as Apple documents, as the last input of the entity's hash
    /// (versionhash.md section 6).
    public var uniquenessConstraints: [[String]] {
        get { box.uniquenessConstraints }
        set { mutableBox.uniquenessConstraints = newValue }
    }

    /// Fetched properties: one-way relationships defined by a fetch request, never stored and
    /// not part of the version hash.
    public var fetchedProperties: [FetchedPropertyDescription] {
        get { box.fetchedProperties }
        set { mutableBox.fetchedProperties = newValue }
    }

    // Filled in by ManagedObjectModel.
    /// Every attribute, inherited ones first.
    public internal(set) var attributes: [AttributeDescription] {
        get { box.attributes }
        set { mutableBox.attributes = newValue }
    }
    /// Every relationship, inherited ones first.
    public internal(set) var relationships: [RelationshipDescription] {
        get { box.relationships }
        set { mutableBox.relationships = newValue }
    }
    /// Direct sub-entities' names, sorted.
    public internal(set) var subentityNames: [String] {
        get { box.subentityNames }
        set { mutableBox.subentityNames = newValue }
    }
    /// The topmost ancestor's name (the entity's own name if it has no parent).
    public internal(set) var rootEntityName: String {
        get { box.rootEntityName }
        set { mutableBox.rootEntityName = newValue }
    }
    /// The entity's number in a SQLite store (`Z_ENT`): roots sorted by name, each followed by
    /// its sub-entities.
    public internal(set) var entityNumber: Int {
        get { box.entityNumber }
        set { mutableBox.entityNumber = newValue }
    }
    /// The entity's version hash (NSEntityDescription.versionHash): Core Data's 32-byte SHA-256
    /// digest of everything that changes the entity's storage, byte for byte as Core Data
    /// computes it (versionhash.md section 6), so a store's `NSStoreModelVersionHashes` can be
    /// compared with it.
    public internal(set) var versionHash: Data {
        get { box.versionHash }
        set { mutableBox.versionHash = newValue }
    }
    /// Index of each property name in ``propertyNames``.
    var propertyIndex: [String: Int] {
        get { box.propertyIndex }
        set {
            let box = mutableBox
            box.propertyIndex = newValue
            var names = [String](repeating: "", count: newValue.count)
            for (name, i) in newValue where i < names.count { names[i] = name }
            box.keys = PropertyKeyTable(names)
        }
    }

    /// Declares an entity with its properties.
    public init(_ name: String, parent: String? = nil, abstract: Bool = false, class managedObjectClass: ManagedObject.Type = ManagedObject.self,
                renamingIdentifier: String? = nil, versionHashModifier: String? = nil, userInfo: [String: String] = [:],
                indexes: [FetchIndexDescription] = [], uniquenessConstraints: [[String]] = [],
                fetchedProperties: [FetchedPropertyDescription] = [],
                @PropertyBuilder properties: () -> [PropertyDescription] = { [] }) {
        box = Box(name: name, properties: properties(), parentEntityName: parent, isAbstract: abstract,
                  managedObjectClass: managedObjectClass, renamingIdentifier: renamingIdentifier,
                  versionHashModifier: versionHashModifier, userInfo: userInfo, indexes: indexes,
                  uniquenessConstraints: uniquenessConstraints, fetchedProperties: fetchedProperties)
    }

    /// Every property name, attributes then relationships: the order values are stored in.
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }

    /// The attribute with this name, inherited ones included.
    public func attribute(named name: String) -> AttributeDescription? {
        guard let i = box.index(ofProperty: name), i < box.attributes.count else { return nil }
        return box.attributes[i]
    }

    /// The relationship with this name, inherited ones included.
    public func relationship(named name: String) -> RelationshipDescription? {
        guard let i = box.index(ofProperty: name), i >= box.attributes.count else { return nil }
        return box.relationships[i - box.attributes.count]
    }

    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        if lhs.box === rhs.box { return true }
        return lhs.name == rhs.name && lhs.properties == rhs.properties && lhs.parentEntityName == rhs.parentEntityName
            && lhs.isAbstract == rhs.isAbstract && ObjectIdentifier(lhs.managedObjectClass) == ObjectIdentifier(rhs.managedObjectClass)
            && lhs.renamingIdentifier == rhs.renamingIdentifier && lhs.versionHashModifier == rhs.versionHashModifier
            && lhs.userInfo == rhs.userInfo && lhs.indexes == rhs.indexes
            && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.fetchedProperties == rhs.fetchedProperties
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

/// An entity's property names by index, found without hashing in the common case.
///
/// `value(forKey:)` runs once per attribute read, and hashing the key String was over a third
/// of its cost. Keys are nearly always string literals of up to 15 UTF-8 bytes, which Swift
/// stores inline, so a key and the model's name for it have the same 16 bytes. The table
/// compares those bytes (two words per name) and falls back to the dictionary when none is
/// identical: a long key, or a short one Swift stored on the heap. Identical bytes always mean
/// an identical string, so the fast path never answers wrongly.
struct PropertyKeyTable: Sendable {
    private let words: [RawWords]

    struct RawWords: Equatable, Sendable {
        let a: UInt64, b: UInt64
    }

    init(_ names: [String]) {
        words = MemoryLayout<String>.size == MemoryLayout<RawWords>.size ? names.map(Self.rawWords) : []
    }

    @inline(__always)
    private static func rawWords(_ s: String) -> RawWords {
        withUnsafeBytes(of: s) { RawWords(a: $0.load(as: UInt64.self), b: $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// The index of a name with the same representation as `key`, or nil: then ask the dictionary.
    @inline(__always)
    func index(ofIdentical key: String) -> Int? {
        guard !words.isEmpty else { return nil }
        let k = Self.rawWords(key)
        return words.withUnsafeBufferPointer { w in
            for i in 0..<w.count where w[i] == k { return i }
            return nil
        }
    }
}

extension EntityDescription.Box {
    /// The index of a property (attributes first, then relationships), or nil.
    @inline(__always)
    func index(ofProperty key: String) -> Int? {
        keys.index(ofIdentical: key) ?? propertyIndex[key]
    }
}
