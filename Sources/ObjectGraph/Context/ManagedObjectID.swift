import Foundation

/// The identity of a managed object, stable across contexts: NSManagedObjectID.
///
/// A new object has a temporary ID until its first save gives it a permanent one, the row's
/// primary key in its store. The URI form is Core Data's:
/// `x-coredata://<store UUID>/<Entity>/p<N>`, or `x-coredata:///<Entity>/t<N>` while temporary.
///
/// The entity name and the store's UUID are held interned (`InternedName`): comparing two
/// IDs compares two pointers and two integers, never the text, and copying one retains nothing.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible, PredicateArgumentConvertible {
    /// The entity's name, interned.
    let entity: InternedName
    /// The store's UUID, interned; the empty name while the ID is temporary.
    let store: InternedName
    /// The row's primary key (`Z_PK`) for a permanent ID; the temporary number otherwise.
    public let primaryKey: Int64
    /// Whether the object has not been saved yet.
    public let isTemporaryID: Bool

    /// The entity's name.
    public var entityName: String { entity.string }
    /// The UUID of the store that holds the object; empty while the ID is temporary.
    public var storeIdentifier: String { store.string }

    /// A permanent ID from names already interned: the form for loops over rows.
    init(entity: InternedName, store: InternedName, primaryKey: Int64) {
        self.entity = entity
        self.store = store
        self.primaryKey = primaryKey
        self.isTemporaryID = false
    }

    /// A permanent ID.
    init(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        self.init(
            entity: InternedName(entityName, recent: .entity), store: InternedName(storeIdentifier, recent: .store),
            primaryKey: primaryKey)
    }

    /// A temporary ID for an inserted object, its entity name already interned.
    init(temporaryFor entity: InternedName, number: Int64) {
        self.entity = entity
        self.store = .empty
        self.primaryKey = number
        self.isTemporaryID = true
    }

    /// A temporary ID for an inserted object.
    init(temporaryFor entityName: String, number: Int64) {
        self.init(temporaryFor: InternedName(entityName, recent: .entity), number: number)
    }

    /// Hashes the key alone: IDs in one context rarely share a key, and hashing the entity
    /// and store for every fetched row costs more than the rare collision.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
        hasher.combine(isTemporaryID)
    }

    /// The URI that names the object (NSManagedObjectID.uriRepresentation()).
    public func uriRepresentation() -> URL {
        // The text is built from an entity name escaped for a URL path and a store UUID that
        // parsed (or was made) as one, so it always forms a URL; the fallback keeps a
        // malformed store identifier from trapping.
        URL(string: uriString) ?? URL(
            string: "x-coredata:///\(escapedEntityName)/\(isTemporaryID ? "t" : "p")\(primaryKey)")!
    }

    private var escapedEntityName: String {
        entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entityName
    }

    var uriString: String {
        isTemporaryID
            ? "x-coredata:///\(escapedEntityName)/t\(primaryKey)"
            : "x-coredata://\(storeIdentifier)/\(escapedEntityName)/p\(primaryKey)"
    }

    /// Reads an ID back from its URI; nil when the text is not a Core Data object URI.
    public init?(uriRepresentation uri: URL) {
        let text = uri.absoluteString
        guard text.hasPrefix("x-coredata://") else { return nil }
        let parts = text.dropFirst("x-coredata://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let last = parts[2].first, let number = Int64(parts[2].dropFirst()),
            let entity = String(parts[1]).removingPercentEncoding, !entity.isEmpty
        else { return nil }
        switch last {
        case "p" where !parts[0].isEmpty:
            self.init(entityName: entity, storeIdentifier: String(parts[0]), primaryKey: number)
        case "t" where parts[0].isEmpty:
            self.init(temporaryFor: entity, number: number)
        default:
            return nil
        }
    }

    /// The URI, as Core Data prints an object ID.
    public var description: String { uriString }

    /// An object ID compares by identity in predicates (`self == %@`, `self IN %@`).
    public var predicateConstant: ConstantValue { .reference(ObjectReference(self, description: uriString)) }
}
