import Foundation

/// A kind of persistent store (NSPersistentStore.StoreType): a name with Apple's raw value,
/// extensible as Apple's is; the store kind registered for it (`PersistentStoreKind`, internal)
/// does the work.
///
/// ```swift
/// try coordinator.addPersistentStore(type: .sqlite, at: url)
/// store.type == .sqlite                      // true
/// StoreType(rawValue: "SQLite") == .sqlite   // the value in a store's NSStoreType metadata
/// ```
public struct StoreType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name, as a store's `NSStoreType` metadata holds it ("SQLite", "XML", ...).
    public let rawValue: String

    /// The type with this name; a name no kind is registered for is refused when a store of
    /// it is added (134000, NSPersistentStoreInvalidTypeError).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// An atomic store held in memory only (NSInMemoryStoreType); its value in metadata is
    /// `InMemory`.
    public static let inMemory = StoreType(rawValue: "InMemory")
    /// Core Data's SQLite store (NSSQLiteStoreType): fetches run as SQL.
    public static let sqlite = StoreType(rawValue: "SQLite")
    /// An atomic store in an XML file (NSXMLStoreType): human-readable, read whole, written whole.
    public static let xml = StoreType(rawValue: "XML")
    /// An atomic store in a binary file (NSBinaryStoreType).
    public static let binary = StoreType(rawValue: "Binary")
    /// A store in a PostgreSQL database, one schema per store, laid out and behaving as the
    /// SQLite store does (no Core Data counterpart; see <doc:ScalingOut>). Its URL is a
    /// `postgres://` URL; the store type lives in the ObjectGraphPostgres library.
    public static let postgres = StoreType(rawValue: "PostgreSQL")

    /// Whether the store keeps every object in memory and evaluates fetches there.
    public var isAtomic: Bool { kind?.isAtomic ?? false }

    /// Whether the store lives in a database server rather than in a file (PostgreSQL): its
    /// URL names a database, and nothing is written beside it.
    public var isServer: Bool { kind?.isServer ?? false }

    /// The raw value.
    public var description: String { rawValue }

    /// The kind registered for this type, or nil.
    var kind: (any PersistentStoreKind)? { PersistentStoreKinds.kind(for: self) }

    /// The kind registered for this type; throws 134000 (NSPersistentStoreInvalidTypeError)
    /// when there is none.
    func registeredKind() throws -> any PersistentStoreKind {
        guard let kind else {
            let known = PersistentStoreKinds.registeredTypes.map(\.rawValue).joined(separator: ", ")
            throw CoreDataError(
                .persistentStoreInvalidType,
                "No store kind is registered for the store type \"\(rawValue)\"; the types are \(known)")
        }
        return kind
    }
}

extension StoreType {
    /// The type's name after "a" or "an", for messages: "a SQLite", "an XML", "an InMemory".
    var withArticle: String {
        // XML is said "ex-em-el": the article follows the sound, not the letter.
        ("AEIOUX".contains(rawValue.first ?? "S") ? "an " : "a ") + rawValue
    }
}
