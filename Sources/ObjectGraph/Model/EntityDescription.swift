import Foundation

/// An entity of a model: NSEntityDescription.
///
/// ```swift
/// EntityDescription("Book", class: Book.self) {
///     AttributeDescription("title", .string, optional: false)
///     RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
/// }
/// ```
///
/// or, as Apple's documentation builds one:
///
/// ```swift
/// let book = NSEntityDescription()
/// book.name = "Book"
/// book.properties = [title, publisher]
/// ```
///
/// Declared properties are in ``properties``; once the entity is part of a
/// ``ManagedObjectModel``, ``attributes`` and ``relationships`` also hold the inherited ones.
/// An entity is a reference type, as Apple's is: the model's entities are the objects it was
/// given. It is written while its model is built; once the model is frozen every setter stops
/// the program (Apple's "Can't modify an immutable model"); ``copy()`` makes a variant.
public final class EntityDescription: Hashable, @unchecked Sendable {
    // @unchecked Sendable: the entity is written only while its model is built, on one thread,
    // as Apple requires; once its model is frozen, every setter stops the program, so threads
    // share an entity that never changes, and the hot paths read its immutable `Box`.

    /// The entity's fields, in one shared, immutable box.
    ///
    /// Every managed object holds its entity description, and fetching or inserting reads it for
    /// each object by the hundred thousand. The box never changes: a setter makes a new box with
    /// the changed field (setters run only while a model is built), so the box is `Sendable` by
    /// construction, and reading a field on the hot paths is a plain load (its fields are
    /// `let`s). `@exclusivity(unchecked)`: the reference is replaced only before the model is
    /// frozen, on the thread building it, never while objects read it (Benchmarks/PROFILES.md,
    /// "exclusivity": a dynamic check costs 76 instructions per read).
    @exclusivity(unchecked) private var box: Box

    /// Set when the entity's model is frozen: from then on a setter stops the program.
    private(set) var isFrozen = false
    /// The model whose ``ManagedObjectModel/entities`` hold this entity (weak: the model holds it).
    weak var model: ManagedObjectModel?
    /// The parent as Apple's API set it (a parent's ``subentities``): read for its name until
    /// the model is frozen.
    weak var superentityReference: EntityDescription?
    /// The sub-entities as Apple's API set them (``subentities``); the parent holds them.
    var subentityReferences: [EntityDescription] = []

    /// The stored fields of a description: what a setter changes, before `Box` derives the
    /// rest.
    struct Fields {
        var name: String
        var properties: [PropertyDescription]
        var parentEntityName: String?
        var isAbstract: Bool
        var managedObjectClass: ManagedObject.Type
        var managedObjectClassName: String?
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var userInfo: [String: String]
        var indexes: [FetchIndexDescription]
        var uniquenessConstraints: [[String]]
        var fetchedProperties: [FetchedPropertyDescription]
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        var subentityNames: [String] = []
        var rootEntityName: String = ""
        var entityNumber: Int = 0
        var versionHash = Data()
        var propertyIndex: [String: Int] = [:]
    }

    /// The fields and what is derived from them, never changed once made.
    final class Box: Sendable {
        let fields: Fields
        var name: String { fields.name }
        var managedObjectClass: ManagedObject.Type { fields.managedObjectClass }
        var attributes: [AttributeDescription] { fields.attributes }
        var relationships: [RelationshipDescription] { fields.relationships }
        var propertyIndex: [String: Int] { fields.propertyIndex }
        /// Each attribute's type, by index: what setting a value checks, without copying the
        /// attribute's description.
        let attributeTypes: [AttributeType]
        /// `attributes.count`: the index where relationships start.
        let attributeCount: Int
        /// The attributes a save validates: stored ones that are mandatory or have bounds or a
        /// pattern. An optional attribute without them accepts any value of its type.
        let validatedAttributes: [Int]
        /// Whether each attribute is among ``validatedAttributes``, by index.
        let isValidatedAttribute: [Bool]
        /// Whether each attribute has bounds or a pattern, by index: what validation asks of
        /// every value before it reads the description, whose fields each cost a call and an
        /// exclusivity check.
        let isBoundedAttribute: [Bool]
        /// The attributes `validateValue(_:forKey:)` checks by default: ``validatedAttributes``
        /// and the transient ones, in index order.
        let keyValidatedAttributes: [Int]
        /// Property names by index, as ``propertyIndex`` gives them: what a per-property loop
        /// reads instead of building ``EntityDescription/propertyNames`` each time.
        let propertyNameList: [String]
        /// Property names by index, for `index(ofProperty:)`, searched before the dictionary.
        let keys: PropertyKeyTable

        init(_ fields: Fields) {
            self.fields = fields
            let attributes = fields.attributes
            attributeTypes = attributes.map(\.attributeType)
            attributeCount = attributes.count
            validatedAttributes = attributes.indices.filter { i in
                let a = attributes[i]
                return !a.isTransient
                    && (!a.isOptional || a.minValue != nil || a.maxValue != nil || a.regularExpression != nil)
            }
            var isValidated = [Bool](repeating: false, count: attributes.count)
            for i in validatedAttributes { isValidated[i] = true }
            isValidatedAttribute = isValidated
            isBoundedAttribute = attributes.map {
                $0.minValue != nil || $0.maxValue != nil || $0.regularExpression != nil
            }
            keyValidatedAttributes = attributes.indices.filter { isValidated[$0] || attributes[$0].isTransient }
            var names = [String](repeating: "", count: fields.propertyIndex.count)
            for (name, i) in fields.propertyIndex where names.indices.contains(i) { names[i] = name }
            propertyNameList = names
            keys = PropertyKeyTable(fields.propertyIndex)
        }
    }

    /// Replaces the box with one whose fields are changed: every setter goes through here.
    private func update(_ change: (inout Fields) -> Void) {
        if isFrozen { PropertyDescription.refuseMutation(of: box.fields.name) }
        var fields = box.fields
        change(&fields)
        box = Box(fields)
    }

    /// The shared fields, for the context's hot paths: reading through the box copies nothing.
    var shared: Box { box }

    /// The entity's name.
    public var name: String {
        get { box.fields.name }
        set { update { $0.name = newValue } }
    }
    /// The properties this entity declares (not the inherited ones), attributes and
    /// relationships in declaration order. Setting it makes each property this entity's
    /// (``PropertyDescription/entity``); a fetched property set here joins
    /// ``fetchedProperties``, and a property that belongs to another entity or a frozen model
    /// is copied, since a property has one entity.
    public var properties: [PropertyDescription] {
        get { box.fields.properties }
        set {
            let fetched = newValue.compactMap { $0 as? FetchedPropertyDescription }
            let declared = newValue.filter { !($0 is FetchedPropertyDescription) }
            let adopted = adopt(declared, replacing: box.fields.properties)
            update { $0.properties = adopted }
            if !fetched.isEmpty { fetchedProperties += fetched }
        }
    }
    /// The name of the parent entity, if any.
    public var parentEntityName: String? {
        get {
            if !isFrozen, let parent = superentityReference { return parent.name }
            return box.fields.parentEntityName
        }
        set {
            update { $0.parentEntityName = newValue }
            superentityReference = nil
        }
    }
    /// An abstract entity has no instances of its own, only of its sub-entities.
    public var isAbstract: Bool {
        get { box.fields.isAbstract }
        set { update { $0.isAbstract = newValue } }
    }
    /// The class instances are made of (NSManagedObject or a subclass).
    public var managedObjectClass: ManagedObject.Type {
        get { box.fields.managedObjectClass }
        set {
            update {
                $0.managedObjectClass = newValue
                $0.managedObjectClassName = nil
            }
        }
    }
    /// The name of the class instances are made of (managedObjectClassName): `NSManagedObject`,
    /// or a subclass's module-qualified name, as `NSStringFromClass(Item.self)` gives it.
    ///
    /// Setting it finds the class by that name (Swift's runtime finds `Module.Item`); a name it
    /// cannot find is kept, and instances are ``ManagedObject``s, as Apple's fall back to
    /// NSManagedObject. Setting ``managedObjectClass`` is the sure way on Linux.
    public var managedObjectClassName: String {
        get {
            if let name = box.fields.managedObjectClassName { return name }
            let cls = box.fields.managedObjectClass
            return cls == ManagedObject.self ? "NSManagedObject" : String(reflecting: cls)
        }
        set {
            let found =
                ["NSManagedObject", "ManagedObject", "ObjectGraph.ManagedObject"].contains(newValue)
                ? ManagedObject.self : _typeByName(newValue) as? ManagedObject.Type
            update {
                $0.managedObjectClass = found ?? ManagedObject.self
                $0.managedObjectClassName = found == nil ? newValue : nil
            }
        }
    }
    /// The name this entity had in an earlier model version.
    public var renamingIdentifier: String? {
        get { box.fields.renamingIdentifier }
        set { update { $0.renamingIdentifier = newValue } }
    }
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String? {
        get { box.fields.versionHashModifier }
        set { update { $0.versionHashModifier = newValue } }
    }
    /// Free-form information for the application.
    public var userInfo: [String: String] {
        get { box.fields.userInfo }
        set { update { $0.userInfo = newValue } }
    }
    /// Fetch indexes (Xcode's Indexes): compound indexes the store keeps; not part of the version hash.
    public var indexes: [FetchIndexDescription] {
        get { box.fields.indexes }
        set { update { $0.indexes = newValue } }
    }
    /// Uniqueness constraints: each inner array names attributes whose values together are unique.
    ///
    /// They enter the version hash, as Apple documents, as the last input of the entity's hash
    /// (<doc:OpeningStoresThatCoreDataWrote>).
    public var uniquenessConstraints: [[String]] {
        get { box.fields.uniquenessConstraints }
        set { update { $0.uniquenessConstraints = newValue } }
    }

    /// Fetched properties: one-way relationships defined by a fetch request, never stored and
    /// not part of the version hash.
    public var fetchedProperties: [FetchedPropertyDescription] {
        get { box.fields.fetchedProperties }
        set {
            let adopted = adopt(newValue, replacing: box.fields.fetchedProperties)
            update { $0.fetchedProperties = adopted.map { $0 as! FetchedPropertyDescription } }
        }
    }

    // Filled in by ManagedObjectModel.
    /// Every attribute, inherited ones first.
    public internal(set) var attributes: [AttributeDescription] {
        get { box.fields.attributes }
        set { update { $0.attributes = newValue } }
    }
    /// Every relationship, inherited ones first.
    public internal(set) var relationships: [RelationshipDescription] {
        get { box.fields.relationships }
        set { update { $0.relationships = newValue } }
    }
    /// Direct sub-entities' names, sorted.
    public internal(set) var subentityNames: [String] {
        get { box.fields.subentityNames }
        set { update { $0.subentityNames = newValue } }
    }
    /// The topmost ancestor's name (the entity's own name if it has no parent).
    public internal(set) var rootEntityName: String {
        get { box.fields.rootEntityName }
        set { update { $0.rootEntityName = newValue } }
    }
    /// The entity's number in a SQLite store (`Z_ENT`): roots sorted by name, each followed by
    /// its sub-entities.
    public internal(set) var entityNumber: Int {
        get { box.fields.entityNumber }
        set { update { $0.entityNumber = newValue } }
    }
    /// The entity's version hash (NSEntityDescription.versionHash): Core Data's 32-byte SHA-256
    /// digest of everything that changes the entity's storage, byte for byte as Core Data
    /// computes it (<doc:OpeningStoresThatCoreDataWrote>), so a store's `NSStoreModelVersionHashes` can be
    /// compared with it. Computed when the entity's model is frozen.
    public internal(set) var versionHash: Data {
        get { box.fields.versionHash }
        set { update { $0.versionHash = newValue } }
    }
    /// Index of each property name in ``propertyNames``.
    var propertyIndex: [String: Int] {
        get { box.fields.propertyIndex }
        set { update { $0.propertyIndex = newValue } }
    }

    /// Declares an entity with its properties.
    public init(
        _ name: String, parent: String? = nil, abstract: Bool = false,
        class managedObjectClass: ManagedObject.Type = ManagedObject.self,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        indexes: [FetchIndexDescription] = [], uniquenessConstraints: [[String]] = [],
        fetchedProperties: [FetchedPropertyDescription] = [],
        @PropertyBuilder properties: () -> [PropertyDescription] = { [] }
    ) {
        box = Box(
            Fields(
                name: name, properties: [], parentEntityName: parent, isAbstract: abstract,
                managedObjectClass: managedObjectClass, renamingIdentifier: renamingIdentifier,
                versionHashModifier: versionHashModifier, userInfo: userInfo, indexes: indexes,
                uniquenessConstraints: uniquenessConstraints, fetchedProperties: []))
        self.properties = properties()
        if !fetchedProperties.isEmpty { self.fetchedProperties = fetchedProperties }
    }

    /// An empty entity, as Apple's `init()` makes it: no name, no properties, NSManagedObject.
    public convenience init() { self.init("") }

    /// Makes `properties` this entity's: a property that belongs to another entity or is frozen
    /// is copied (a property has one entity); those no longer listed are released.
    private func adopt(
        _ properties: [PropertyDescription],
        replacing old: [PropertyDescription]
    ) -> [PropertyDescription] {
        if isFrozen { PropertyDescription.refuseMutation(of: name) }
        let kept = Set(properties.map(ObjectIdentifier.init))
        for p in old where p.owner === self && !kept.contains(ObjectIdentifier(p)) { p.owner = nil }
        return properties.map { p in
            let mine = (p.owner == nil || p.owner === self) && !p.isFrozen ? p : p.copy()
            mine.owner = self
            return mine
        }
    }

    /// A copy that belongs to no model, with copies of its properties (NSCopying): what to
    /// change when a variant of a frozen model's entity is wanted.
    public func copy() -> EntityDescription {
        let c = EntityDescription(name)
        var fields = box.fields
        var copies: [ObjectIdentifier: PropertyDescription] = [:]
        fields.properties = fields.properties.map { p in
            let copy = p.copy()
            copy.owner = c
            copies[ObjectIdentifier(p)] = copy
            return copy
        }
        fields.fetchedProperties = fields.fetchedProperties.map { p in
            let copy = p.copy()
            copy.owner = c
            return copy
        }
        fields.parentEntityName = parentEntityName
        fields.attributes = fields.attributes.map { (copies[ObjectIdentifier($0)] as? AttributeDescription) ?? $0 }
        fields.relationships = fields.relationships.map {
            (copies[ObjectIdentifier($0)] as? RelationshipDescription) ?? $0
        }
        c.box = Box(fields)
        return c
    }

    /// Freezes the entity and the properties it declares: from now on setters stop the program.
    func freeze() {
        for p in box.fields.properties {
            if let a = p as? AttributeDescription { a.freeze() } else { p.isFrozen = true }
        }
        for p in box.fields.fetchedProperties { p.isFrozen = true }
        isFrozen = true
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

    /// Field-by-field equality, as the value type this class replaced compared (identity first).
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        if lhs === rhs || lhs.box === rhs.box { return true }
        return lhs.name == rhs.name && lhs.properties == rhs.properties && lhs.parentEntityName == rhs.parentEntityName
            && lhs.isAbstract == rhs.isAbstract
            && ObjectIdentifier(lhs.managedObjectClass) == ObjectIdentifier(rhs.managedObjectClass)
            && lhs.renamingIdentifier == rhs.renamingIdentifier && lhs.versionHashModifier == rhs.versionHashModifier
            && lhs.userInfo == rhs.userInfo && lhs.indexes == rhs.indexes
            && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.fetchedProperties == rhs.fetchedProperties
    }

    /// Hashes the name and declared properties, which equal entities share.
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

/// An entity's property names by index, searched with `==` when there are few of them.
///
/// `value(forKey:)` runs once per attribute read, and hashing the key String was over a third
/// of its cost. Most entities have a handful of properties, and comparing the key with each
/// name costs less than hashing it. Each name's UTF-8 length is kept too, so most names are
/// passed over by comparing two integers (`utf8.count` of a native string is a stored field),
/// and `==` runs on names of the key's length only; a key written as the same literal as the
/// model's name has the same bits, which `==` compares first, inline. A key found is a name
/// (`==` is String's own equality); a key not found is looked up in the dictionary, which also
/// finds a key spelled in another Unicode normalization (another UTF-8 length). Above
/// `limit` names, or if the indexes are not exactly 0 to count - 1, the table is empty.
struct PropertyKeyTable: Sendable {
    /// The most names searched one by one; past it a miss costs more than hashing.
    static let limit = 16
    /// Each name's `utf8.count`, by property index.
    private let utf8Counts: [Int]
    /// The names, by property index.
    private let names: [String]

    /// The names of `propertyIndex` by index, when they are few and dense.
    init(_ propertyIndex: [String: Int]) {
        var names = [String?](repeating: nil, count: propertyIndex.count <= Self.limit ? propertyIndex.count : 0)
        for (name, i) in propertyIndex {
            guard names.indices.contains(i), names[i] == nil else {
                names = []
                break
            }
            names[i] = name
        }
        self.names = names.compactMap { $0 }
        utf8Counts = self.names.map(\.utf8.count)
    }

    /// The index of the name equal to `key`, or nil: then ask the dictionary.
    @inline(__always)
    func index(of key: String) -> Int? {
        let count = key.utf8.count
        for i in utf8Counts.indices where utf8Counts[i] == count && names[i] == key { return i }
        return nil
    }
}

extension EntityDescription.Box {
    /// The index of a property (attributes first, then relationships), or nil.
    @inline(__always)
    func index(ofProperty key: String) -> Int? {
        keys.index(of: key) ?? propertyIndex[key]
    }
}
