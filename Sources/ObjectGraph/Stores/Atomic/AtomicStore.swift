import Foundation

/// An atomic store (in-memory, XML or binary): the whole store in memory, predicates and sorts
/// evaluated in Swift with the predicate language's evaluator, as Core Data evaluates them for
/// atomic stores ("Persistent Store Types and Behaviors").
///
/// A file-backed store is read whole when it is added; every save writes a complete new file
/// beside the old one and renames it into place, so a crash leaves the old store or the new
/// one, never half of either.
final class AtomicStore: PersistentStoreBackend, @unchecked Sendable {
    let identifier: String
    let type: StoreType
    let url: URL?
    private let model: ManagedObjectModel
    private let lock = NSLock()
    /// Everything the store holds; a save builds the next version on a copy.
    private var contents: AtomicContents

    /// Opens (or creates) an atomic store. Throws `.persistentStoreOpen` for a file that is not
    /// a store of this type, `.persistentStoreIncompatibleVersionHash` for a changed model; the
    /// file is not touched in either case.
    init(type: StoreType, url: URL?, model: ManagedObjectModel, identifier: String?) throws {
        self.type = type
        self.url = url
        self.model = model
        if let url, FileManager.default.fileExists(atPath: url.path) {
            let loaded = try AtomicStoreFile.read(url, type: type, model: model)
            self.identifier = loaded.identifier
            self.contents = loaded.contents
            try AtomicStoreFile.checkCompatibility(loaded.metadata, model: model, url: url)
        } else {
            self.identifier = identifier ?? UUID().uuidString
            self.contents = AtomicContents()
            if let url { try AtomicStoreFile.write(contents, identifier: self.identifier, metadata: metadata, to: url, type: type, model: model) }
        }
    }

    var metadata: [String: Any] {
        [
            "NSStoreType": type.rawValue,
            "NSStoreUUID": identifier,
            "NSStoreModelVersionHashes": model.entityVersionHashesByName,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": Array(model.versionIdentifiers).sorted(),
        ]
    }

    /// Atomic stores evaluate fetches against the context's objects in memory.
    var evaluatesInMemory: Bool { true }

    private var rows: [String: [Int64: StoreRow]] { contents.rows }
    private var links: [String: Set<[Int64]>] { contents.links }

    private func root(_ entityName: String) -> String { model.entitiesByName[entityName]?.rootEntityName ?? entityName }

    func row(for id: ManagedObjectID, model: ManagedObjectModel) throws -> StoreRow? {
        lock.lock(); defer { lock.unlock() }
        guard let row = rows[root(id.entityName)]?[id.primaryKey], row.entityName == id.entityName else { return nil }
        return row
    }

    func rows(for ids: [ManagedObjectID], model: ManagedObjectModel) throws -> [StoreRow] {
        try ids.compactMap { try row(for: $0, model: model) }
    }

    func relatedIDs(of ids: [ManagedObjectID], relationship: RelationshipDescription, model: ManagedObjectModel) throws -> [ManagedObjectID: Set<ManagedObjectID>] {
        lock.lock(); defer { lock.unlock() }
        var result: [ManagedObjectID: Set<ManagedObjectID>] = [:]
        for id in ids { result[id] = relatedIDsLocked(of: id, relationship: relationship) }
        return result
    }

    /// Keys count up per inheritance tree, as the SQLite store's do.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] {
        lock.lock(); defer { lock.unlock() }
        let start = contents.lastKeys[entity.rootEntityName, default: 0]
        contents.lastKeys[entity.rootEntityName] = start + Int64(count)
        return (0..<count).map { start + 1 + Int64($0) }
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, model: ManagedObjectModel) throws -> Set<ManagedObjectID> {
        lock.lock(); defer { lock.unlock() }
        return relatedIDsLocked(of: id, relationship: relationship)
    }

    private func relatedIDsLocked(of id: ManagedObjectID, relationship r: RelationshipDescription) -> Set<ManagedObjectID> {
        guard let destination = model.entitiesByName[r.destinationEntityName],
              let inverse = destination.relationship(named: r.inverseName) else { return [] }
        if inverse.isToMany {
            let (key, ownerSide) = model.manyToManyKey(entity: id.entityName, relationship: r)
            var result: Set<ManagedObjectID> = []
            for pair in links[key] ?? [] {
                let (mine, theirs) = ownerSide ? (pair[0], pair[1]) : (pair[1], pair[0])
                guard mine == id.primaryKey, let row = rows[destination.rootEntityName]?[theirs] else { continue }
                result.insert(ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: theirs))
            }
            return result
        }
        var result: Set<ManagedObjectID> = []
        for row in (rows[destination.rootEntityName] ?? [:]).values where model.isEntity(row.entityName, kindOf: destination.name) {
            guard let entity = model.entitiesByName[row.entityName], let i = entity.propertyIndex[r.inverseName],
                  let target = row.values[i] as? ManagedObjectID, target == id else { continue }
            result.insert(ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey))
        }
        return result
    }

    func fetchRows(_ request: FetchRequest, model: ManagedObjectModel) throws -> [StoreRow] {
        lock.lock(); defer { lock.unlock() }
        var result = try matchingObjects(request).map(\.row)
        if request.fetchOffset > 0 { result = Array(result.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { result = Array(result.prefix(request.fetchLimit)) }
        return result
    }

    func fetchDictionaries(_ request: FetchRequest, model: ManagedObjectModel) throws -> [[String: Any]] {
        lock.lock(); defer { lock.unlock() }
        let entity = try model.entity(named: request.entityName)
        try DictionaryResults.validate(request, entity: entity)
        return try DictionaryResults.build(request, entity: entity, objects: try matchingObjects(request)) { value in
            (value as? RowObject)?.id ?? value
        }
    }

    /// The rows of a request's entities that match its predicate, in its order (no window).
    private func matchingObjects(_ request: FetchRequest) throws -> [RowObject] {
        let entity = try model.entity(named: request.entityName)
        let accepted = Set((request.includesSubentities ? model.entityAndSubentities(of: entity.name) : [entity]).map(\.name))
        var candidates = (rows[entity.rootEntityName] ?? [:]).values.filter { accepted.contains($0.entityName) }
        candidates.sort { $0.primaryKey < $1.primaryKey }
        var objects = candidates.map { RowObject(store: self, row: $0) }
        if let predicate = request.predicate {
            objects = try objects.filter { try predicate.evaluate(with: $0) }
        }
        if !request.sortDescriptors.isEmpty {
            objects = try SortDescriptor.sort(objects, by: request.sortDescriptors)
        }
        return objects
    }

    func fetchIDs(_ request: FetchRequest, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        try fetchRows(request, model: model).map { ManagedObjectID(entityName: $0.entityName, storeIdentifier: identifier, primaryKey: $0.primaryKey) }
    }

    func count(_ request: FetchRequest, model: ManagedObjectModel) throws -> Int {
        try fetchRows(request, model: model).count
    }

    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws {
        lock.lock(); defer { lock.unlock() }
        // Optimistic locking: every changed or deleted row must still be at the version read.
        var conflicts: [String] = []
        for (row, expected) in changes.updated {
            let current = rows[root(row.entityName)]?[row.primaryKey]
            if current?.version != expected {
                conflicts.append("\(ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey).uriString) (version \(expected) read, \(current.map { "\($0.version)" } ?? "deleted") in the store)")
            }
        }
        for (id, expected) in changes.deleted {
            if let current = rows[root(id.entityName)]?[id.primaryKey], current.version != expected {
                conflicts.append("\(id.uriString) (version \(expected) read, \(current.version) in the store)")
            }
        }
        guard conflicts.isEmpty else {
            throw CoreDataError(.mergeConflict, "Could not merge changes: another context saved \(conflicts.joined(separator: ", ")) first")
        }
        var next = contents
        for row in changes.inserted { next.rows[root(row.entityName), default: [:]][row.primaryKey] = row }
        for (row, _) in changes.updated { next.rows[root(row.entityName), default: [:]][row.primaryKey] = row }
        for (id, _) in changes.deleted { next.rows[root(id.entityName)]?[id.primaryKey] = nil }
        for link in changes.linksRemoved { next.links[link.relationship]?.remove([link.source.primaryKey, link.destination.primaryKey]) }
        for link in changes.linksAdded { next.links[link.relationship, default: []].insert([link.source.primaryKey, link.destination.primaryKey]) }
        // Links whose ends were deleted go too.
        for (id, _) in changes.deleted {
            for key in next.links.keys {
                next.links[key] = next.links[key]!.filter { !linkTouches(key: key, pair: $0, id: id) }
            }
        }
        if let url { try AtomicStoreFile.write(next, identifier: identifier, metadata: metadata, to: url, type: type, model: model) }
        contents = next
    }

    func exportContents() throws -> AtomicContents {
        lock.lock(); defer { lock.unlock() }
        return contents
    }

    func importContents(_ imported: AtomicContents) throws {
        lock.lock(); defer { lock.unlock() }
        let stamped = AtomicStoreFile.stamp(imported, identifier: identifier)
        if let url { try AtomicStoreFile.write(stamped, identifier: identifier, metadata: metadata, to: url, type: type, model: model) }
        contents = stamped
    }

    private func linkTouches(key: String, pair: [Int64], id: ManagedObjectID) -> Bool {
        let parts = key.split(separator: ".").map(String.init)
        guard let owner = model.entitiesByName[parts[0]], let r = owner.relationship(named: parts[1]) else { return false }
        if model.isEntity(id.entityName, kindOf: owner.name) && pair[0] == id.primaryKey { return true }
        if model.isEntity(id.entityName, kindOf: r.destinationEntityName) && pair[1] == id.primaryKey { return true }
        return false
    }

    /// A row seen by the predicate evaluator: attributes by key, relationships as more rows.
    struct RowObject: KeyValueCoding, PredicateArgumentConvertible {
        let store: AtomicStore
        let row: StoreRow

        var id: ManagedObjectID { ManagedObjectID(entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey) }
        var predicateConstant: ConstantValue { id.predicateConstant }

        func value(forKey key: String) throws -> Any? {
            guard let entity = store.model.entitiesByName[row.entityName], let i = entity.propertyIndex[key] else {
                throw PredicateError(.unknownKey, "keypath \(key) not found in entity \(row.entityName)")
            }
            if i < entity.attributes.count {
                if entity.attributes[i].isTransient { return nil }
                return row.values[i]
            }
            let r = entity.relationships[i - entity.attributes.count]
            if r.isToMany {
                return store.relatedIDsLocked(of: id, relationship: r).sorted { $0.primaryKey < $1.primaryKey }.compactMap { related in
                    store.rows[store.root(related.entityName)]?[related.primaryKey].map { RowObject(store: store, row: $0) }
                }
            }
            guard let target = row.values[i] as? ManagedObjectID,
                  let targetRow = store.rows[store.root(target.entityName)]?[target.primaryKey] else { return nil }
            return RowObject(store: store, row: targetRow)
        }
    }
}

/// What an atomic store holds: rows by root entity and key, many-to-many links, the last key.
struct AtomicContents {
    /// Rows by root entity name, then primary key.
    var rows: [String: [Int64: StoreRow]] = [:]
    /// Many-to-many links by the pair's owner relationship ("Entity.relationship"): [owner key, destination key].
    var links: [String: Set<[Int64]>] = [:]
    /// The last primary key handed out in each inheritance tree, by root entity name.
    var lastKeys: [String: Int64] = [:]
    /// The largest key of all, for the XML store's `nextObjectID`.
    var lastKey: Int64 { lastKeys.values.max() ?? 0 }
}
