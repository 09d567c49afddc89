import Foundation

/// An atomic store held in memory (NSInMemoryStoreType): rows in dictionaries, predicates and
/// sorts evaluated in Swift with the predicate language's evaluator, as Core Data evaluates
/// them for atomic stores.
final class InMemoryStore: PersistentStoreBackend, @unchecked Sendable {
    let identifier: String
    private let model: ManagedObjectModel
    private let lock = NSLock()
    /// Rows by root entity name, then primary key.
    private var rows: [String: [Int64: StoreRow]] = [:]
    private var maxKeys: [String: Int64] = [:]
    /// Many-to-many links by the owner relationship ("Entity.relationship"): (owner key, destination key).
    private var links: [String: Set<[Int64]>] = [:]

    init(model: ManagedObjectModel, identifier: String?) {
        self.model = model
        self.identifier = identifier ?? UUID().uuidString
    }

    var metadata: [String: Any] {
        [
            "NSStoreType": StoreType.inMemory.rawValue,
            "NSStoreUUID": identifier,
            "NSStoreModelVersionHashes": model.entityVersionHashesByName,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": Array(model.versionIdentifiers).sorted(),
        ]
    }

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

    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] {
        lock.lock(); defer { lock.unlock() }
        let start = maxKeys[entity.rootEntityName, default: 0]
        maxKeys[entity.rootEntityName] = start + Int64(count)
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
        for row in changes.inserted { rows[root(row.entityName), default: [:]][row.primaryKey] = row }
        for (row, _) in changes.updated { rows[root(row.entityName), default: [:]][row.primaryKey] = row }
        for (id, _) in changes.deleted { rows[root(id.entityName)]?[id.primaryKey] = nil }
        for link in changes.linksRemoved { links[link.relationship]?.remove([link.source.primaryKey, link.destination.primaryKey]) }
        for link in changes.linksAdded { links[link.relationship, default: []].insert([link.source.primaryKey, link.destination.primaryKey]) }
        // Links whose ends were deleted go too.
        for (id, _) in changes.deleted {
            for key in links.keys {
                links[key] = links[key]!.filter { !linkTouches(key: key, pair: $0, id: id) }
            }
        }
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
        let store: InMemoryStore
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
