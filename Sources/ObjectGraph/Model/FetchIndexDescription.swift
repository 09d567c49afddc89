/// A fetch index of an entity: NSFetchIndexDescription, as a value type.
///
/// Xcode's model editor calls these Indexes and writes them as `<fetchIndex>` elements. Apple
/// documents that indexes do not enter an entity's version hash (<doc:VersioningAndMigration>).
///
/// ```swift
/// FetchIndexDescription("byDueDate", [.init("dueDate", ascending: false)])
/// ```
public struct FetchIndexDescription: Hashable, Sendable {
    /// The index's name, unique within its entity.
    public var name: String
    /// The indexed properties, most significant first.
    public var elements: [FetchIndexElementDescription]

    /// Describes an index over some properties.
    public init(_ name: String, _ elements: [FetchIndexElementDescription]) {
        self.name = name
        self.elements = elements
    }
}

/// One property of a fetch index: NSFetchIndexElementDescription.
public struct FetchIndexElementDescription: Hashable, Sendable {
    /// How the store indexes the property: NSFetchIndexElementType.
    public enum IndexType: String, Hashable, Sendable {
        /// An ordinary (B-tree) index; Xcode writes `Binary`.
        case binary = "Binary"
        /// A spatial index for ranges; Xcode writes `RTree`.
        case rTree = "RTree"
    }

    /// The indexed property's name.
    public var propertyName: String
    /// The kind of index.
    public var indexType: IndexType
    /// Whether the index sorts ascending (Xcode's `order="ascending"`).
    public var isAscending: Bool

    /// Describes one indexed property.
    public init(_ propertyName: String, type: IndexType = .binary, ascending: Bool = true) {
        self.propertyName = propertyName
        self.indexType = type
        self.isAscending = ascending
    }
}

extension ManagedObjectModel {
    /// Checks that an entity's fetch indexes and uniqueness constraints name its own properties.
    static func checkIndexesAndConstraints(of entity: EntityDescription) throws {
        var indexNames: Set<String> = []
        for index in entity.indexes {
            guard indexNames.insert(index.name).inserted else {
                throw CoreDataError(
                    exception: .invalidArgument, "Entity \(entity.name) declares the fetch index \(index.name) twice")
            }
            guard isIdentifier(index.name) else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Fetch index name \"\(index.name)\" of \(entity.name) is not a valid name: use letters, digits and underscores, starting with a letter"
                )
            }
            guard !index.elements.isEmpty else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Fetch index \(entity.name).\(index.name) indexes no property; name at least one")
            }
            // An index over a to-many relationship is kept, as Core Data keeps it, and the
            // store makes no SQL index for it (Core Data ignores it too).
            for element in index.elements
            where entity.attribute(named: element.propertyName) == nil
                && entity.relationship(named: element.propertyName) == nil
            {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Fetch index \(entity.name).\(index.name) names \(element.propertyName), which is not a property of \(entity.name)"
                )
            }
        }
        for constraint in entity.uniquenessConstraints {
            guard !constraint.isEmpty else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Entity \(entity.name) has an empty uniqueness constraint; name at least one attribute")
            }
            for name in constraint
            where entity.attribute(named: name) == nil
                && entity.relationship(named: name).map({ $0.isToMany }) != false
            {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "A uniqueness constraint of \(entity.name) names \(name), which is not an attribute or to-one relationship of \(entity.name)"
                )
            }
        }
    }
}
