import Foundation
import GRDB
#if canImport(FoundationXML)
import FoundationXML
#endif

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
    /// Throws `.fileRead` when there is no file, `.persistentStoreOpen` when it is not a store; the
    /// file is opened read-only and never written.
    public init(at url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError(.fileReadNoSuchFile, "There is no store at \(url.path)")
        }
        let handle = try FileHandle(forReadingFrom: url)
        let head = try handle.read(upToCount: 4096) ?? Data()
        try handle.close()
        guard let type = AtomicStoreFile.kind(of: head) else {
            throw CoreDataError(.persistentStoreInvalidType, "The file at \(url.path) is not a store: it is neither SQLite, nor an XML or binary Core Data store")
        }
        self.type = type
        switch type {
        case .sqlite:
            // Read only, leaving no -shm or -wal beside the store (SQLiteReadOnlyFile).
            let file: SQLiteReadOnlyFile
            do { file = try SQLiteReadOnlyFile(url: url, configuration: SQLiteConnection.configuration(timeout: StoreOption.defaultTimeout)) } catch {
                throw CoreDataError(.persistentStoreOpen, "The file at \(url.path) could not be opened as SQLite: \(error)")
            }
            defer { file.close() }
            let queue = file.queue
            let metadata = try SQLiteStore.metadata(at: url)
            self.metadata = metadata
            self.uuid = metadata["NSStoreUUID"] as? String ?? ""
            (self.entityCounts, self.tables) = try CoreDataError.mappingSQLite("Inspecting the store at", url) { try queue.read { db in
                var tables: [Table] = []
                for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                    let columns = try db.columns(in: name).map(\.name)
                    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(name)\"") ?? 0
                    tables.append(Table(name: name, columns: columns, rowCount: count))
                }
                var counts: [(String, Int)] = []
                let entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_NAME")
                let parents = Dictionary(uniqueKeysWithValues: entities.map { ($0[0] as Int, $0[2] as Int) })
                for entity in entities {
                    var root: Int = entity[0]
                    while let parent = parents[root], parent != 0 { root = parent }
                    guard let rootName = entities.first(where: { ($0[0] as Int) == root })?[1] as String? else { continue }
                    let table = "Z" + rootName.uppercased()
                    guard tables.contains(where: { $0.name == table }) else { continue }
                    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE Z_ENT = ?", arguments: [entity[0] as Int]) ?? 0
                    counts.append((entity[1], count))
                }
                return (counts, tables)
            } }
        case .xml, .binary:
            let metadata = try AtomicStoreFile.metadata(at: url, type: type)
            self.metadata = metadata
            self.uuid = metadata["NSStoreUUID"] as? String ?? ""
            let data = try Data(contentsOf: url)
            var counts: [String: Int] = [:]
            if type == .xml {
                let document = try AtomicStoreFile.xmlDocument(data)
                for object in document.rootElement()?.elements(forName: "object") ?? [] {
                    counts[object.attribute(forName: "type")?.stringValue ?? "?", default: 0] += 1
                }
            } else {
                for object in try AtomicStoreFile.binaryRoot(data)["objects"] as? [[String: Any]] ?? [] {
                    counts[object["entity"] as? String ?? "?", default: 0] += 1
                }
            }
            // Entities without objects still appear, from the metadata's version hashes.
            for name in (metadata["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).keys where counts[name] == nil { counts[name] = 0 }
            self.entityCounts = counts.keys.sorted().map { ($0, counts[$0]!) }
            self.tables = []
        case .inMemory, .postgres:
            // `kind(of:)` reads a file's first bytes: it never answers these.
            throw CoreDataError(.persistentStoreOpen, "A \(type.rawValue) store has no file")
        }
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
            case let (s?, c?): state = s == c ? .equal : s == legacy[name] ? .legacy : .different
            }
            return Entity(name: name, storeHash: stored[name]?.base64EncodedString(), modelHash: current[name]?.base64EncodedString(), state: state)
        }
        isCompatible = model.isConfiguration(withName: nil, compatibleWithStoreMetadata: storeMetadata)
    }
}
