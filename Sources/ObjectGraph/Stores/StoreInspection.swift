import Foundation
import GRDB

/// What a store file holds, read without a model and without changing the file: its type,
/// metadata, entities with their object counts, and for SQLite its tables.
///
/// ```swift
/// let inspection = try StoreInspection(at: URL(fileURLWithPath: "Books.sqlite"))
/// print(inspection.type, inspection.entityCounts)
/// ```
public struct StoreInspection {
    /// A table of a SQLite store.
    public struct Table: Equatable, Sendable {
        /// The table's name (`ZBOOK`, `Z_PRIMARYKEY`...).
        public let name: String
        /// Its columns, in order.
        public let columns: [String]
        /// How many rows it has.
        public let rowCount: Int
    }

    /// The store's type, judged from the file's contents.
    public let type: StoreType
    /// The store's UUID.
    public let uuid: String
    /// The store's metadata (NSStoreType, NSStoreModelVersionHashes, ...).
    public let metadata: [String: Any]
    /// Each entity's number of objects (sub-entities counted on their own), sorted by name.
    public let entityCounts: [(entity: String, count: Int)]
    /// For a SQLite store, its tables, sorted by name; empty for atomic stores.
    public let tables: [Table]

    /// Reads a store file.
    ///
    /// Throws `.fileRead` when there is no file, `.persistentStoreInvalidType` for a folder or
    /// a file that is not a store, `.persistentStoreOpen` for a damaged store; the
    /// file is opened read-only and never written.
    public init(at url: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw CoreDataError(.fileReadNoSuchFile, "There is no store at \(url.path)")
        }
        guard !isFolder.boolValue else {
            throw CoreDataError(
                .persistentStoreInvalidType,
                "\(url.path) is a folder, not a store file: "
                    + "give the path of the store inside it (such as a .sqlite file)")
        }
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw CoreDataError(
                .fileReadUnknown, "The file at \(url.path) cannot be read: \((error as NSError).localizedDescription)")
        }
        guard let type = AtomicStoreFile.kind(of: head) else {
            throw CoreDataError(
                .persistentStoreInvalidType,
                "The file at \(url.path) is not a store: it is neither SQLite, nor an XML or binary Core Data store")
        }
        self.type = type
        let contents = try type.registeredKind().inspect(at: url)
        metadata = contents.metadata
        uuid = contents.metadata["NSStoreUUID"] as? String ?? ""
        entityCounts = contents.entityCounts
        tables = contents.tables
    }

    /// What a kind of store reads from its file for an inspection.
    struct Contents {
        var metadata: [String: Any]
        var entityCounts: [(entity: String, count: Int)]
        var tables: [Table] = []
    }

    /// The entities' version hashes from the metadata (`NSStoreModelVersionHashes`), in base64
    /// as the chapters and Core Data's own tools show them, sorted by entity name.
    public var versionHashes: [(entity: String, hash: String)] {
        let hashes = metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
        return hashes.keys.sorted().map { ($0, hashes[$0]?.base64EncodedString() ?? "") }
    }

    /// How the store's version hashes compare with a model's, entity by entity: whether the
    /// model opens the store without migration (isConfiguration:compatibleWithStoreMetadata:).
    public func comparison(with model: ManagedObjectModel) -> ModelComparison {
        ModelComparison(storeMetadata: metadata, model: model)
    }
}

/// A store's version hashes beside a model's: whether the model opens the store as it is, and
/// for each entity whether the store's hash is Core Data's hash of the model's entity.
public struct ModelComparison: Sendable {
    /// How one entity's hashes compare.
    public enum State: String, Sendable {
        /// The store's hash is Core Data's hash of the model's entity.
        case equal
        /// The store's hash is the one ObjectGraph wrote before it computed Core Data's, for
        /// this very entity: the model opens the store, and rewrites its metadata.
        case legacy
        /// The hashes differ: the entity changed since the store was written.
        case different
        /// The store has the entity and the model does not.
        case onlyInStore
        /// The model has the entity and the store does not.
        case onlyInModel
    }

    /// One entity's hashes, base64.
    public struct Entity: Sendable {
        /// The entity's name.
        public let name: String
        /// The store's hash, or nil when the store does not have the entity.
        public let storeHash: String?
        /// The model's hash, or nil when the model does not have the entity.
        public let modelHash: String?
        /// How they compare.
        public let state: State
    }

    /// Every entity of the store or the model, sorted by name.
    public let entities: [Entity]
    /// Whether the model opens the store without migration.
    public let isCompatible: Bool

    /// Compares a store's metadata with a model.
    public init(storeMetadata: [String: Any], model: ManagedObjectModel) {
        let stored = ManagedObjectModel.storedHashes(storeMetadata)
        let current = model.entityVersionHashesByName
        let legacy = model.legacyEntityVersionHashesByName
        entities = Set(stored.keys).union(current.keys).sorted().map { name in
            let state: State
            switch (stored[name], current[name]) {
            case (nil, _): state = .onlyInModel
            case (_, nil): state = .onlyInStore
            case (let s?, let c?): state = s == c ? .equal : s == legacy[name] ? .legacy : .different
            }
            return Entity(
                name: name, storeHash: stored[name]?.base64EncodedString(),
                modelHash: current[name]?.base64EncodedString(), state: state)
        }
        isCompatible = model.isConfiguration(withName: nil, compatibleWithStoreMetadata: storeMetadata)
    }
}
