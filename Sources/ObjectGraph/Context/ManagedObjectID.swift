import Foundation

/// The identity of a managed object, stable across contexts: NSManagedObjectID.
///
/// A new object has a temporary ID until its first save gives it a permanent one, the row's
/// primary key in its store. The URI form is Core Data's:
/// `x-coredata://<store UUID>/<Entity>/p<N>`, or `x-coredata:///<Entity>/t<N>` while temporary.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible, PredicateArgumentConvertible {
    /// The entity's name.
    public let entityName: String
    /// The UUID of the store that holds the object; empty while the ID is temporary.
    public let storeIdentifier: String
    /// The row's primary key (`Z_PK`) for a permanent ID; the temporary number otherwise.
    public let primaryKey: Int64
    /// Whether the object has not been saved yet.
    public let isTemporaryID: Bool

    /// A permanent ID.
    init(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.primaryKey = primaryKey
        self.isTemporaryID = false
    }

    /// A temporary ID for an inserted object.
    init(temporaryFor entityName: String, number: Int64) {
        self.entityName = entityName
        self.storeIdentifier = ""
        self.primaryKey = number
        self.isTemporaryID = true
    }

    /// Hashes the key alone: IDs in one context rarely share a key, and hashing the entity
    /// name and store UUID for every fetched row costs more than the rare collision.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
        hasher.combine(isTemporaryID)
    }

    /// The URI that names the object (NSManagedObjectID.uriRepresentation()).
    public func uriRepresentation() -> URL {
        URL(string: uriString)!
    }

    var uriString: String {
        let entity = entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entityName
        return isTemporaryID
            ? "x-coredata:///\(entity)/t\(primaryKey)"
            : "x-coredata://\(storeIdentifier)/\(entity)/p\(primaryKey)"
    }

    /// Reads an ID back from its URI; nil when the text is not a Core Data object URI.
    public init?(uriRepresentation uri: URL) {
        let text = uri.absoluteString
        guard text.hasPrefix("x-coredata://") else { return nil }
        let parts = text.dropFirst("x-coredata://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let last = parts[2].first, let number = Int64(parts[2].dropFirst()),
              let entity = String(parts[1]).removingPercentEncoding, !entity.isEmpty else { return nil }
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
