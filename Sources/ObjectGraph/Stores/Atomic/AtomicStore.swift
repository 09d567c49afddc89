import Foundation

/// An atomic store (in-memory, XML or binary): the whole store in memory, predicates and sorts
/// evaluated in Swift with the predicate language's evaluator, as Core Data evaluates them for
/// atomic stores ("Persistent Store Types and Behaviors").
///
/// A file-backed store is read whole; every save writes a complete new file beside the old one
/// and renames it into place, so a crash leaves the old store or the new one, never half of
/// either. Several processes (or coordinators) may use one file:
///
/// - every save runs under an advisory lock (``AtomicStoreLock``, a `<store>.lock` sidecar),
///   waiting up to `StoreOption.timeout` seconds, then failing with 134030;
/// - before every read and under the lock before every save, one `stat` tells whether another
///   writer replaced the file (``AtomicFileVersion``), and if so it is read again, so other
///   writers' objects become visible;
/// - a save applies only its own changes to the file as it is now: rows another writer changed
///   or deleted since this context read them are a merge conflict (133020), which the context's
///   merge policy resolves as for SQLite; everything else merges;
/// - primary keys are allocated, as Core Data allocates permanent IDs, at save time: the
///   context asks for them just before it hands over its changes, so ``allocatePrimaryKeys``
///   takes the lock, reads the file again if it changed, counts on from the last key of the
///   entity's inheritance tree (each tree counts on its own, 1, 2, 3, as SQLite's `Z_MAX`
///   does; a deleted object's key is not handed out again), and the lock stays held until
///   that save ends. The keys are also recorded in the lock's
///   sidecar, because a save that meets a merge conflict releases the lock while the merge
///   policy runs and then saves again with the same keys: no other writer takes them meanwhile.
final class AtomicStore: PersistentStoreBackend, @unchecked Sendable {
    // @unchecked Sendable: every method that reads or writes the mutable state (`contents`,
    // `fileVersion`, `identifier`, `reservedKeys`) holds `lock` while it does.
    private(set) var identifier: String
    let type: StoreType
    let url: URL?
    /// The store's file; nil for an in-memory store.
    private let file: AtomicStoreFile?
    private let model: ManagedObjectModel
    private let lock = NSLock()
    /// Everything the store holds; a save builds the next version on a copy.
    private var contents: AtomicContents
    /// The version of the file `contents` was read from or written as; nil before the first
    /// read and for an in-memory store.
    private var fileVersion: AtomicFileVersion?
    /// The lock of the file; nil for an in-memory store.
    private let fileLock: AtomicStoreLock?
    /// The metadata keys an application set (setMetadata(_:for:)) or the file holds, beyond
    /// the store's type, UUID and the model's version keys.
    private let applicationMetadata = Lock<[String: Any]>([:])
    /// Keys this store reserved in the lock's sidecar for the save under way, by root entity:
    /// kept across a merge conflict (the context saves again with them), given back when the
    /// save fails otherwise.
    private var reservedKeys: [String: ClosedRange<Int64>] = [:]
    /// Whether the file last read had the version hashes ObjectGraph wrote before it computed
    /// Core Data's (of this model): opening the store writes the file again with Core Data's.
    private var readLegacyHashes = false

    /// Opens (or creates) an atomic store. Throws `.persistentStoreOpen` for a file that is not
    /// a store of this type, `.persistentStoreIncompatibleVersionHash` for a changed model; the
    /// file is not touched in either case. A missing or empty file becomes a new store, created
    /// under the lock so that processes starting together agree on one store. Scratch files of
    /// interrupted saves are removed.
    /// Every option is read here, from `description`.
    init(description: PersistentStoreDescription, url: URL?, model: ManagedObjectModel, log: SQLLog = .ambient) throws {
        let type = description.type
        try UnstorableModelParts.refuseUnstorableRelationships(of: model, storeType: type)
        self.type = type
        self.url = url
        let file = try url.map { try AtomicStoreFile(url: $0, type: type) }
        self.file = file
        self.model = model
        self.identifier = description.storeUUID ?? UUID().uuidString
        self.contents = AtomicContents()
        guard let url, let file else {
            fileLock = nil
            return
        }
        let fileLock = AtomicStoreLock(storeURL: url, timeout: description.timeout)
        self.fileLock = fileLock
        if try load(file, checkIdentifier: false) {
            if readLegacyHashes && !description.keepsLegacyVersionHashes {
                try rewriteWithCoreDataHashes(file, lock: fileLock, log: log)
            }
            // Cleaning up needs the lock; a writer holding it now will find the scratch later.
            if fileLock.tryAcquire() {
                AtomicScratchFiles.removeStale(besides: url)
                AtomicScratchFiles.removeMigrationLeftovers(besides: url)
                fileLock.release()
            }
            return
        }
        try fileLock.acquire()
        defer { fileLock.release() }
        AtomicScratchFiles.removeStale(besides: url)
        // Another process may have made the store while this one waited for the lock.
        if try load(file, checkIdentifier: false) { return }
        // Reservations of a store that was at this path before are no longer anyone's.
        fileLock.setReservations([:], store: self.identifier)
        fileVersion = try file.write(
            contents, identifier: self.identifier, metadata: metadata, model: model)
    }

    /// Reads the store's file into `contents`; false when there is no file or it is empty (a
    /// new store). With `checkIdentifier`, a file holding another store (another UUID) is an
    /// error: object IDs of this store would mean other objects there.
    private func load(_ file: AtomicStoreFile, checkIdentifier: Bool) throws -> Bool {
        let url = file.url
        guard let (version, data) = try AtomicFileVersion.read(url), !data.isEmpty else { return false }
        let loaded = try file.read(data, model: model)
        if checkIdentifier && loaded.identifier != identifier {
            throw CoreDataError(
                .persistentStoreOpen,
                "The store file at \(url.path) was replaced by another store (UUID \(loaded.identifier), not \(identifier)); add it to a new coordinator"
            )
        }
        guard let match = model.hashMatch(withStoreMetadata: loaded.metadata) else {
            throw model.incompatibleStoreError(loaded.metadata, url: url)
        }
        readLegacyHashes = match == .legacy
        let versionKeys = model.metadata(replacingVersionKeysOf: [:]).keys
        applicationMetadata.withLock {
            $0 = loaded.metadata.filter {
                !versionKeys.contains($0.key) && $0.key != "NSStoreType" && $0.key != "NSStoreUUID"
            }
        }
        var next = loaded.contents
        // Keys handed out by a save that failed are not handed out again.
        for (root, last) in contents.lastKeys { next.lastKeys[root] = max(next.lastKeys[root, default: 0], last) }
        identifier = loaded.identifier
        contents = next
        fileVersion = version
        return true
    }

    /// Writes the file again, unchanged but for its metadata, which gets Core Data's version
    /// hashes in place of the ones ObjectGraph wrote before; the log says so once.
    private func rewriteWithCoreDataHashes(_ file: AtomicStoreFile, lock fileLock: AtomicStoreLock, log: SQLLog) throws
    {
        try fileLock.acquire()
        defer { fileLock.release() }
        // Another process may have rewritten (or changed) it meanwhile: read it again first.
        _ = try load(file, checkIdentifier: true)
        guard readLegacyHashes else { return }
        fileVersion = try file.write(contents, identifier: identifier, metadata: metadata, model: model)
        readLegacyHashes = false
        log.note(ManagedObjectModel.legacyHashesNote(file.url))
    }

    /// Reads the file again if another writer replaced it since; one `stat` when it did not.
    /// Called with `lock` held.
    private func refreshIfChanged() throws {
        guard let file else { return }
        if let fileVersion, fileVersion.isCurrent(at: file.url) { return }
        // A file removed or emptied under an open store: keep what is in memory; the next
        // save writes it back.
        _ = try load(file, checkIdentifier: true)
    }

    /// The store's type and UUID and the model's version keys, as Core Data writes them:
    /// every save writes them again, so a file always has the current model's hashes.
    var metadata: [String: Any] {
        var own = applicationMetadata.withLock { $0 }
        own["NSStoreType"] = type.rawValue
        own["NSStoreUUID"] = identifier
        return model.metadata(replacingVersionKeysOf: own)
    }

    /// Keeps an application's metadata (setMetadata(_:for:)); the file's next save writes it,
    /// since every save writes the file whole.
    func setMetadata(_ metadata: [String: Any]) throws {
        applicationMetadata.withLock { $0 = metadata }
    }

    /// Atomic stores evaluate fetches against the context's objects in memory.
    var evaluatesInMemory: Bool { true }

    private var rows: [String: [Int64: StoreRow]] { contents.rows }
    private var links: [String: Set<[Int64]>] { contents.links }

    private func root(_ entityName: String) -> String { model.entitiesByName[entityName]?.rootEntityName ?? entityName }

    func row(for id: ManagedObjectID, model: ManagedObjectModel) throws -> StoreRow? {
        lock.lock()
        defer { lock.unlock() }
        try refreshIfChanged()
        return rowLocked(for: id)
    }

    private func rowLocked(for id: ManagedObjectID) -> StoreRow? {
        guard let row = rows[root(id.entityName)]?[id.primaryKey], row.entityName == id.entityName else { return nil }
        return row
    }

    func rows(for ids: [ManagedObjectID], model: ManagedObjectModel) throws -> [StoreRow] {
        lock.lock()
        defer { lock.unlock() }
        try refreshIfChanged()
        return ids.compactMap { rowLocked(for: $0) }
    }

    func relatedIDs(of ids: [ManagedObjectID], relationship: RelationshipDescription, model: ManagedObjectModel) throws
        -> [ManagedObjectID: Set<ManagedObjectID>]
    {
        lock.lock()
        defer { lock.unlock() }
        try refreshIfChanged()
        var result: [ManagedObjectID: Set<ManagedObjectID>] = [:]
        for id in ids { result[id] = relatedIDsLocked(of: id, relationship: relationship) }
        return result
    }

    /// Keys count up per inheritance tree, as the SQLite store's do. For a file, the lock is
    /// taken here and held until the save that follows ends (the context allocates keys only
    /// inside a save, just before handing over its changes), and the count goes on from the
    /// file as it is now: no other writer can hand out the same keys.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] {
        lock.lock()
        defer { lock.unlock() }
        if let fileLock {
            try fileLock.acquire()
            do { try refreshIfChanged() } catch {
                fileLock.release()
                throw error
            }
        }
        let rootName = entity.rootEntityName
        var reservations = fileLock?.reservations(store: identifier) ?? [:]
        let start = max(contents.lastKeys[rootName, default: 0], reservations[rootName, default: 0])
        contents.lastKeys[rootName] = start + Int64(count)
        if let fileLock, count > 0 {
            reservations[rootName] = start + Int64(count)
            fileLock.setReservations(reservations, store: identifier)
            let earlier = reservedKeys[rootName]
            reservedKeys[rootName] = (earlier?.lowerBound ?? start + 1)...(start + Int64(count))
        }
        return (0..<count).map { start + 1 + Int64($0) }
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, model: ManagedObjectModel) throws
        -> Set<ManagedObjectID>
    {
        lock.lock()
        defer { lock.unlock() }
        try refreshIfChanged()
        return relatedIDsLocked(of: id, relationship: relationship)
    }

    private func relatedIDsLocked(of id: ManagedObjectID, relationship r: RelationshipDescription) -> Set<
        ManagedObjectID
    > {
        guard let destination = model.entitiesByName[r.destinationEntityName],
            let inverse = model.inverseRelationship(of: r)
        else { return [] }
        if inverse.isToMany {
            let (key, ownerSide) = model.manyToManyKey(entity: id.entityName, relationship: r)
            var result: Set<ManagedObjectID> = []
            for pair in links[key] ?? [] {
                let (mine, theirs) = ownerSide ? (pair[0], pair[1]) : (pair[1], pair[0])
                guard mine == id.primaryKey, let row = rows[destination.rootEntityName]?[theirs] else { continue }
                result.insert(
                    ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: theirs))
            }
            return result
        }
        var result: Set<ManagedObjectID> = []
        for row in (rows[destination.rootEntityName] ?? [:]).values
        where model.isEntity(row.entityName, kindOf: destination.name) {
            guard let entity = model.entitiesByName[row.entityName], let i = entity.propertyIndex[inverse.name],
                let target = row.values[i].objectID, target == id
            else { continue }
            result.insert(
                ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey))
        }
        return result
    }

    func fetchRows(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [StoreRow] {
        lock.lock()
        defer { lock.unlock() }
        try refreshIfChanged()
        var result = try matchingObjects(request).map(\.row)
        if request.fetchOffset > 0 { result = Array(result.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { result = Array(result.prefix(request.fetchLimit)) }
        return result
    }

    func fetchDictionaries(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [[String: Any]] {
        lock.lock()
        defer { lock.unlock() }
        try refreshIfChanged()
        let entity = try model.entity(named: request.entityName)
        try DictionaryResults.validate(request, entity: entity)
        return try DictionaryResults.build(request, entity: entity, objects: try matchingObjects(request)) { value in
            (value as? RowObject)?.id ?? value
        }
    }

    /// The rows of a request's entities that match its predicate, in its order (no window).
    private func matchingObjects(_ request: AnyFetchRequest) throws -> [RowObject] {
        let entity = try model.entity(named: request.entityName)
        let accepted = Set(
            (request.includesSubentities ? model.entityAndSubentities(of: entity.name) : [entity]).map(\.name))
        var candidates = (rows[entity.rootEntityName] ?? [:]).values.filter { accepted.contains($0.entityName) }
        candidates.sort { $0.primaryKey < $1.primaryKey }
        var objects = candidates.map { RowObject(store: self, row: $0) }
        if let predicate = request.predicate {
            objects = try objects.filter { try predicate.checkedEvaluate(with: $0) }
        }
        if !request.sortDescriptors.isEmpty {
            objects = try SortDescriptor.sort(objects, by: request.sortDescriptors)
        }
        return objects
    }

    func fetchIDs(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        try fetchRows(request, model: model).map {
            ManagedObjectID(entityName: $0.entityName, storeIdentifier: identifier, primaryKey: $0.primaryKey)
        }
    }

    func count(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> Int {
        try fetchRows(request, model: model).count
    }

    /// Applies one save to the store as it is now: under the file's lock, after reading the
    /// file again if another writer replaced it.
    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws {
        lock.lock()
        defer { lock.unlock() }
        try fileLock?.acquire()
        defer { fileLock?.release() }
        do {
            try saveLocked(changes)
            reservedKeys = [:]
        } catch let error as CoreDataError where error.code == .merge {
            // The context resolves the conflict and saves again with the same keys.
            throw error
        } catch {
            giveBackReservedKeys()
            throw error
        }
    }

    /// Gives back the keys of a save that failed for good, if no one reserved after them, so
    /// the next save (of any coordinator) counts on from where it would have.
    private func giveBackReservedKeys() {
        guard let fileLock, fileLock.isHeld, !reservedKeys.isEmpty else {
            reservedKeys = [:]
            return
        }
        var reservations = fileLock.reservations(store: identifier)
        for (rootName, range) in reservedKeys where reservations[rootName] == range.upperBound {
            reservations[rootName] = range.lowerBound - 1
        }
        fileLock.setReservations(reservations, store: identifier)
        reservedKeys = [:]
    }

    /// The save, with `lock` and the file's lock held.
    private func saveLocked(_ changes: StoreChanges) throws {
        try refreshIfChanged()
        if url != nil {
            try UnstorableModelParts.refuse(changes, storeType: type, storeIdentifier: identifier, model: model)
            try AtomicValueCheck.refuseUnrepresentable(
                changes, storeType: type, storeIdentifier: identifier, model: model)
        }
        // Optimistic locking: every changed or deleted row must still be at the version read.
        var conflicts: [String] = []
        for (row, expected) in changes.updated {
            let current = rows[root(row.entityName)]?[row.primaryKey]
            if current?.version != expected {
                conflicts.append(
                    "\(ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey).uriString) (version \(expected) read, \(current.map { "\($0.version)" } ?? "deleted") in the store)"
                )
            }
        }
        for (id, expected) in changes.deleted {
            if let current = rows[root(id.entityName)]?[id.primaryKey], current.version != expected {
                conflicts.append("\(id.uriString) (version \(expected) read, \(current.version) in the store)")
            }
        }
        guard conflicts.isEmpty else {
            throw CoreDataError(
                .merge, "Could not merge changes: another context saved \(conflicts.joined(separator: ", ")) first")
        }
        var next = contents
        // Keys were allocated under the lock from the file as it is, so a new row never meets
        // an old one; if it did (a file edited by hand meanwhile), nothing is written over.
        for row in changes.inserted {
            if let existing = next.rows[root(row.entityName)]?[row.primaryKey] {
                let id = ManagedObjectID(
                    entityName: existing.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey)
                throw CoreDataError(
                    .persistentStoreSave,
                    "The key of a new \(row.entityName) is already used by \(id.uriString) in the store at \(url?.path ?? "memory"); nothing was written",
                    objectURI: id.uriString)
            }
        }
        for row in changes.inserted { next.rows[root(row.entityName), default: [:]][row.primaryKey] = row }
        for (row, _) in changes.updated { next.rows[root(row.entityName), default: [:]][row.primaryKey] = row }
        for (id, _) in changes.deleted { next.rows[root(id.entityName)]?[id.primaryKey] = nil }
        for link in changes.linksRemoved {
            next.links[link.relationship]?.remove([link.source.primaryKey, link.destination.primaryKey])
        }
        for link in changes.linksAdded {
            next.links[link.relationship, default: []].insert([link.source.primaryKey, link.destination.primaryKey])
        }
        // Links whose ends were deleted go too.
        for (id, _) in changes.deleted {
            for key in next.links.keys {
                next.links[key] = next.links[key]!.filter { !linkTouches(key: key, pair: $0, id: id) }
            }
        }
        if url != nil { try refuseDanglingReferences(next, changes: changes) }
        if let file {
            fileVersion = try file.write(next, identifier: identifier, metadata: metadata, model: model)
        }
        contents = next
    }

    /// Refuses a save that would leave a to-one relationship pointing at an object that is not
    /// in the store (another writer deleted it): the file could not be read back.
    private func refuseDanglingReferences(_ next: AtomicContents, changes: StoreChanges) throws {
        struct Key: Hashable {
            var root: String
            var key: Int64
        }
        let deleted = Set(changes.deleted.map { Key(root: root($0.id.entityName), key: $0.id.primaryKey) })
        // Rows this save writes may point anywhere; other rows only at what this save deletes.
        var written = Set(changes.inserted.map { Key(root: root($0.entityName), key: $0.primaryKey) })
        for (row, _) in changes.updated { written.insert(Key(root: root(row.entityName), key: row.primaryKey)) }
        func check(_ row: StoreRow, onlyDeleted: Bool) throws {
            guard let entity = model.entitiesByName[row.entityName] else { return }
            for (n, r) in entity.relationships.enumerated() where !r.isToMany {
                guard let target = row.values[entity.attributes.count + n].objectID else { continue }
                let targetKey = Key(root: root(target.entityName), key: target.primaryKey)
                if onlyDeleted && !deleted.contains(targetKey) { continue }
                guard next.rows[targetKey.root]?[targetKey.key] == nil else { continue }
                let source = ManagedObjectID(
                    entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey)
                throw CoreDataError(
                    .merge,
                    "Could not merge changes: \(source.uriString) has \(r.name) pointing to \(target.uriString), which is no longer in the store at \(url?.path ?? "memory") (another writer deleted it, or this save deletes it while another writer made the reference); refresh and save again",
                    objectURI: source.uriString, key: r.name)
            }
        }
        for row in changes.inserted { try check(row, onlyDeleted: false) }
        for (row, _) in changes.updated { try check(row, onlyDeleted: false) }
        guard !deleted.isEmpty else { return }
        for (rootName, rows) in next.rows {
            for row in rows.values where !written.contains(Key(root: rootName, key: row.primaryKey)) {
                try check(row, onlyDeleted: true)
            }
        }
    }

    func exportContents() throws -> AtomicContents {
        lock.lock()
        defer { lock.unlock() }
        try refreshIfChanged()
        return contents
    }

    func importContents(_ imported: AtomicContents) throws {
        lock.lock()
        defer { lock.unlock() }
        try fileLock?.acquire()
        defer { fileLock?.release() }
        let stamped = imported.stamped(identifier: identifier)
        if let file {
            fileVersion = try file.write(stamped, identifier: identifier, metadata: metadata, model: model)
        }
        contents = stamped
    }

    /// Releases the lock and the file, so the file can be moved or replaced; a later read
    /// opens it again.
    func close() throws {
        lock.lock()
        defer { lock.unlock() }
        fileLock?.close()
        fileVersion = nil
    }

    private func linkTouches(key: String, pair: [Int64], id: ManagedObjectID) -> Bool {
        let parts = key.split(separator: ".").map(String.init)
        guard let owner = model.entitiesByName[parts[0]], let r = owner.relationship(named: parts[1]) else {
            return false
        }
        if model.isEntity(id.entityName, kindOf: owner.name) && pair[0] == id.primaryKey { return true }
        if model.isEntity(id.entityName, kindOf: r.destinationEntityName) && pair[1] == id.primaryKey { return true }
        return false
    }

    /// A row seen by the predicate evaluator: attributes by key, relationships as more rows.
    struct RowObject: KeyValueCoding, PredicateArgumentConvertible {
        let store: AtomicStore
        let row: StoreRow

        var id: ManagedObjectID {
            ManagedObjectID(entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey)
        }
        var predicateConstant: ConstantValue { id.predicateConstant }

        func checkedValue(forKey key: String) throws -> Any? {
            guard let entity = store.model.entitiesByName[row.entityName], let i = entity.propertyIndex[key] else {
                throw PredicateError(.unknownKey, "keypath \(key) not found in entity \(row.entityName)")
            }
            if i < entity.attributes.count {
                if entity.attributes[i].isTransient { return nil }
                return row.values[i].any
            }
            let r = entity.relationships[i - entity.attributes.count]
            if r.isToMany {
                return store.relatedIDsLocked(of: id, relationship: r).sorted { $0.primaryKey < $1.primaryKey }
                    .compactMap { related in
                        store.rows[store.root(related.entityName)]?[related.primaryKey].map {
                            RowObject(store: store, row: $0)
                        }
                    }
            }
            guard let target = row.values[i].objectID,
                let targetRow = store.rows[store.root(target.entityName)]?[target.primaryKey]
            else { return nil }
            return RowObject(store: store, row: targetRow)
        }
    }
}
