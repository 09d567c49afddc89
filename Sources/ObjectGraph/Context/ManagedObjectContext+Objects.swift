import Foundation

/// Objects and faults: inserting, looking objects up by ID, and the one place rows a parent
/// store returns become this context's objects.
extension ManagedObjectContext {
    /// Inserts a new object of an entity; it is saved with the next `save()`.
    ///
    /// Throws for an unknown or abstract entity.
    @discardableResult
    public func insertNewObject(forEntityName name: String) throws -> ManagedObject {
        checkConfinement()
        let template = try insertTemplate(forEntityName: name)
        _ = try coordinator.defaultStore()
        let entity = template.entity
        let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
        object.objectID = newTemporaryID(for: entity)
        insert(object, template: template)
        return object
    }

    /// Inserts an object made with no context (insert(_:)); it is saved with the next `save()`.
    ///
    /// Inserting an object already in this context does nothing. An object of another context,
    /// of an entity this context's model lacks or of an abstract entity, or a coordinator with
    /// no store, is a programming error that stops the program, as Apple's raises.
    public func insert(_ object: ManagedObject) {
        checkConfinement()
        if object.managedObjectContext === self { return }
        do {
            guard object.managedObjectContext == nil, !hasIdentity(object) else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "An object can be inserted into one context only: \(object.objectID.uriString) belongs to another")
            }
            let template = try insertTemplate(forEntityName: object.entity.name)
            _ = try coordinator.defaultStore()
            object.objectID = newTemporaryID(for: template.entity)
            insert(object, template: template)
        } catch {
            ManagedObject.raise(error)
        }
    }

    /// Whether an object has an identity already (a fetched or forgotten one), as opposed to
    /// one just made with no context, whose ID is still the placeholder.
    private func hasIdentity(_ object: ManagedObject) -> Bool {
        !(object.objectID.isTemporaryID && object.objectID.primaryKey == 0 && object.objectID.entity == .empty)
    }

    /// A temporary ID for an object about to be inserted.
    @inline(__always)
    func newTemporaryID(for entity: EntityDescription) -> ManagedObjectID {
        ManagedObjectID(temporaryFor: entity.name, number: Int64(Self.temporaryCounter.next()))
    }

    /// Enters a just-made object as inserted, with the template's starting values: what
    /// `insertNewObject(forEntityName:)` and a subclass's `init(context:)` share.
    @inline(__always)
    func insert(_ object: ManagedObject, template: InsertTemplate) {
        object.managedObjectContext = self
        object.isFault = false
        // Shared with the template until the first change copies it.
        object.storage = template.storage
        object.loadedToMany = template.loadedToMany
        registered[object.objectID] = object
        insertedList.append(object)
        events.inserted.append(object)
        object.awakeFromInsert()
    }

    /// A new object's entity and starting values: defaults, and empty (loaded) to-many sets.
    struct InsertTemplate {
        let entity: EntityDescription
        let storage: [AttributeValue]
        let loadedToMany: Set<Int>
    }

    /// The template for an entity, made once for a run of inserts of that entity.
    func insertTemplate(forEntityName name: String) throws -> InsertTemplate {
        // The name comparison is nearly always of identical strings, which costs no more than
        // comparing two words; a dictionary lookup would hash the name.
        if let template = insertTemplate, template.entity.name == name { return template }
        let entity = try model.entity(named: name)
        guard !entity.isAbstract else {
            // Which exception Apple raises here is not documented; the argument is what is wrong.
            throw CoreDataError(
                exception: .invalidArgument,
                "Can't insert an object of the abstract entity \(name); insert one of its sub-entities: \(entity.subentityNames.joined(separator: ", "))"
            )
        }
        var storage = [AttributeValue](repeating: .null, count: entity.attributes.count + entity.relationships.count)
        var loadedToMany: Set<Int> = []
        for (i, a) in entity.attributes.enumerated() where a.defaultValue != nil {
            storage[i] = AttributeValue(a.defaultConstant?.runtimeValue)
        }
        for (n, r) in entity.relationships.enumerated() where r.isToMany {
            storage[entity.attributes.count + n] = .objectIDs([])
            loadedToMany.insert(entity.attributes.count + n)
        }
        let template = InsertTemplate(entity: entity, storage: storage, loadedToMany: loadedToMany)
        insertTemplate = template
        return template
    }

    /// The object for an ID: the registered one, or a fault that loads on first use
    /// (objectWithID:).
    ///
    /// It never returns nil and does no I/O.
    public func object(with id: ManagedObjectID) -> ManagedObject {
        checkConfinement()
        return registeredObject(for: id)
    }

    /// The object for an ID without the confinement check: the module's own lookups.
    func registeredObject(for id: ManagedObjectID) -> ManagedObject {
        let id = temporaryIDs.isEmpty ? id : (temporaryIDs[id] ?? id)
        if let object = registered[id] { return object }
        return makeObject(id, entity: model.entitiesByName[id.entityName]!)
    }

    /// A new fault for an ID not registered yet.
    func makeObject(_ id: ManagedObjectID, entity: EntityDescription) -> ManagedObject {
        let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
        object.objectID = id
        object.managedObjectContext = self
        registered[id] = object
        return object
    }

    /// The object for an ID with its values loaded, or an error if the store does not have it
    /// (existingObjectWithID:error:).
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        checkConfinement()
        guard model.entitiesByName[id.entityName] != nil else {
            throw CoreDataError(
                .referentialIntegrity,
                "\(id.uriString) names the entity \(id.entityName), which the model does not have",
                objectURI: id.uriString)
        }
        let object = registeredObject(for: id)
        try fireFault(object)
        return object
    }

    // MARK: Rows into objects

    /// Turns rows a parent store returned into this context's objects, in order: the one
    /// place a row becomes an object. A registered object is reused (uniquing); a fault takes
    /// the row's values; an object already holding values keeps them, unless `refreshing`
    /// (shouldRefreshRefetchedObjects), when it takes the row with its own changes on top.
    /// `id` names each row's object.
    @inline(__always)
    func objects(from rows: [StoreRow], refreshing: Bool, id: (Int, StoreRow) -> ManagedObjectID) throws
        -> [ManagedObject]
    {
        // Into a context that holds no object yet (a first fetch), every row is new: the
        // object is made and entered with one hash of its ID instead of a lookup and an
        // insertion. A row seen twice finds its first object and keeps that one.
        let allNew = registered.isEmpty && temporaryIDs.isEmpty
        registered.reserveCapacity(registered.count + rows.count)
        var entity: EntityDescription?
        var results: [ManagedObject] = []
        results.reserveCapacity(rows.count)
        for (n, row) in rows.enumerated() {
            let id = id(n, row)
            let object: ManagedObject
            // The rows of a fetch are mostly of one entity: look it up once, not per row.
            if allNew {
                if entity?.name != row.entityName { entity = try self.entity(ofRow: row) }
                let made = entity!.managedObjectClass.init(entity: entity!, insertInto: nil)
                made.objectID = id
                if let existing = registered.updateValue(made, forKey: id) {
                    registered[id] = existing
                    object = existing
                } else {
                    made.managedObjectContext = self
                    object = made
                }
            } else if let existing = registered[temporaryIDs.isEmpty ? id : (temporaryIDs[id] ?? id)] {
                object = existing
            } else {
                if entity?.name != row.entityName { entity = try self.entity(ofRow: row) }
                object = makeObject(id, entity: entity!)
            }
            if object.isFault { fill(object, from: row) } else if refreshing { try refreshRefetched(object, from: row) }
            results.append(object)
        }
        return results
    }

    /// The entity a row names; a row of an entity the model lacks is a damaged store.
    private func entity(ofRow row: StoreRow) throws -> EntityDescription {
        guard let entity = model.entitiesByName[row.entityName] else {
            throw CoreDataError(
                .persistentStoreOperation,
                "The store returned a row of the entity \(row.entityName) (key \(row.primaryKey)), which the model does not have"
            )
        }
        return entity
    }

    /// Rows of one store as objects (see ``objects(from:refreshing:id:)``).
    func objects(from rows: [StoreRow], storeIdentifier: String, refreshing: Bool) throws -> [ManagedObject] {
        try objects(from: rows, refreshing: refreshing) { _, row in
            ManagedObjectID(entityName: row.entityName, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey)
        }
    }

    /// Registers rows a store returned as objects of this context, filling faults; objects
    /// already holding values keep them. For streaming reads such as a migration's.
    func objects(from rows: [StoreRow], store: PersistentStore) throws -> [ManagedObject] {
        try objects(from: rows, storeIdentifier: store.identifier, refreshing: false)
    }

    /// Faults for IDs a parent store returned, loaded a batch at a time when one of a batch is
    /// first used (fetchBatchSize).
    func faults(for ids: [ManagedObjectID], batchSize: Int, refreshing: Bool) -> [ManagedObject] {
        var results: [ManagedObject] = []
        results.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            let batch = Array(ids[start..<min(start + batchSize, ids.count)])
            for id in batch {
                let object = registeredObject(for: id)
                if refreshing && !object.isFault && object.committedStorage == nil { turnIntoFault(object) }
                if object.isFault { pendingBatches[id] = batch }
                results.append(object)
            }
        }
        return results
    }

    // MARK: Faults

    /// Loads a fault's values from the parent store.
    func fireFault(_ object: ManagedObject) throws {
        guard object.isFault else { return }
        if let batch = pendingBatches[object.objectID] {
            // A fetch with a batch size: load the whole batch in one query.
            for id in batch { pendingBatches[id] = nil }
            for (id, row) in try parentStore.rows(for: batch, in: self) {
                if let member = registered[id], member.isFault { fill(member, from: row) }
            }
            if !object.isFault { return }
        }
        guard let row = try parentStore.row(for: object.objectID, in: self) else {
            throw CoreDataError(
                .referentialIntegrity,
                "CoreData could not fulfill a fault for \(object.objectID.uriString): the object is not in the store (it was deleted)",
                objectURI: object.objectID.uriString)
        }
        fill(object, from: row)
    }

    /// Loads the values of many faults in one request to the parent store.
    func fireFaults(_ objects: [ManagedObject]) throws {
        let faults = objects.filter { $0.isFault }
        guard !faults.isEmpty else { return }
        let byID = Dictionary(faults.map { ($0.objectID, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, row) in try parentStore.rows(for: faults.map(\.objectID), in: self) {
            if let object = byID[id], object.isFault { fill(object, from: row) }
        }
    }

    /// Gives a fault the values of its row.
    func fill(_ object: ManagedObject, from row: StoreRow) {
        // The row's values are the object's storage (to-many slots are nil: loaded on use).
        let wasFault = object.isFault
        object.storage = row.values
        object.loadedToMany = []
        object.version = row.version
        object.isFault = false
        if wasFault { runAwakeFromFetch(object) }
    }
}
