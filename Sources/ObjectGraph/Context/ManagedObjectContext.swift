import Foundation

/// A scratch pad of managed objects: NSManagedObjectContext.
///
/// ```swift
/// let context = ManagedObjectContext(coordinator: coordinator)
/// let book = try context.insertNewObject(forEntityName: "Book")
/// try book.setValue("Fetch, Clarus, Fetch", forKey: "title")
/// try context.save()
/// ```
///
/// A context holds one instance per object ID. Changes stay in the context until `save()`
/// writes them to the store in one transaction. A context and its objects are used from one
/// thread or task at a time, as Core Data's confinement rule says: run work in
/// `perform`/`performAndWait` (ContextConcurrency.swift) to confine it to the context's own
/// queue. Several contexts on one coordinator save one at a time; conflicts between them are
/// resolved by ``mergePolicy``.
public final class ManagedObjectContext: @unchecked Sendable {
    /// The coordinator whose stores the context reads and writes.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    var model: ManagedObjectModel { persistentStoreCoordinator.managedObjectModel }

    // The identity map and change lists are read for every object fetched and every value
    // set; @exclusivity(unchecked) drops the dynamic check of each access. Safe: a context is
    // used from one thread at a time, and they are only read, or mutated by plain assignment
    // and by their own mutating methods, never passed inout or mutated while another access
    // to the same property is open.
    @exclusivity(unchecked) var registered: [ManagedObjectID: ManagedObject] = [:]
    /// Objects in the order they were inserted, updated or deleted, for stable saves.
    @exclusivity(unchecked) private var insertedList = ObjectList.inserted()
    @exclusivity(unchecked) var updatedList = ObjectList.updated()
    @exclusivity(unchecked) var deletedList = ObjectList.deleted()
    /// What inserting an object of the last entity inserted needs, so that inserting many
    /// objects of one entity looks it up once (see ``InsertTemplate``).
    private var insertTemplate: InsertTemplate?
    @exclusivity(unchecked) private var temporaryIDs: [ManagedObjectID: ManagedObjectID] = [:]
    /// For objects fetched with a batch size: the batch each belongs to, loaded together when
    /// any of them is first used.
    private var pendingBatches: [ManagedObjectID: [ManagedObjectID]] = [:]
    private static let temporaryCounter = AtomicCounter()
    /// Whether `save()` validates first. A migration's destination context turns it off for
    /// its first two passes, as Core Data disables validation while it migrates, and
    /// validates in the third pass.
    var validatesOnSave = true
    /// Whether setting a to-one relationship also adds the object to the destination's
    /// to-many inverse set. A migration's destination context turns it off: the link is
    /// stored on the to-one side only, and loading the inverse sets would grow with the store.
    var updatesToManyInverses = true
    /// Whether the context is reset right after each save and no one observes it (a
    /// migration's destination): a save then only gives the inserted objects their permanent
    /// IDs, without re-registering them or posting the did-save notification.
    var isResetAfterEachSave = false
    /// The serial queue `perform` and `performAndWait` run blocks on.
    let contextQueue = ContextQueue()
    /// How a save resolves conflicts with changes another context saved first; `.error` (the
    /// default) makes such a save fail with error 133020. See ``MergePolicy``.
    public var mergePolicy: MergePolicy = .error

    /// A context on a coordinator.
    public init(coordinator: PersistentStoreCoordinator) {
        self.persistentStoreCoordinator = coordinator
    }

    // MARK: Change tracking

    /// Objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { Set(insertedList.elements) }
    /// Objects changed since the last save.
    public var updatedObjects: Set<ManagedObject> { Set(updatedList.elements) }
    /// Objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> { Set(deletedList.elements) }
    /// Objects the context holds.
    public var registeredObjects: Set<ManagedObject> { Set(registered.values) }
    /// Whether anything was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { !insertedList.isEmpty || !updatedList.isEmpty || !deletedList.isEmpty }

    private func isInserted(_ o: ManagedObject) -> Bool { insertedList.contains(o) }
    private func isDeleted(_ o: ManagedObject) -> Bool { deletedList.contains(o) }

    // MARK: Objects

    /// Inserts a new object of an entity; it is saved with the next `save()`.
    ///
    /// Throws for an unknown or abstract entity.
    @discardableResult
    public func insertNewObject(forEntityName name: String) throws -> ManagedObject {
        let template = try insertTemplate(forEntityName: name)
        _ = try persistentStoreCoordinator.defaultStore()
        let entity = template.entity
        let id = ManagedObjectID(temporaryFor: entity.name, number: Int64(Self.temporaryCounter.next()))
        let object = entity.managedObjectClass.init(entity: entity, objectID: id)
        object.managedObjectContext = self
        object.isFault = false
        // Shared with the template until the first change copies it.
        object.storage = template.storage
        object.loadedToMany = template.loadedToMany
        registered[id] = object
        insertedList.append(object)
        object.awakeFromInsert()
        return object
    }

    /// A new object's entity and starting values: defaults, and empty (loaded) to-many sets.
    struct InsertTemplate {
        let entity: EntityDescription
        let storage: [Any?]
        let loadedToMany: Set<Int>
    }

    /// The template for an entity, made once for a run of inserts of that entity.
    private func insertTemplate(forEntityName name: String) throws -> InsertTemplate {
        // The name comparison is nearly always of identical strings, which costs no more than
        // comparing two words; a dictionary lookup would hash the name.
        if let template = insertTemplate, template.entity.name == name { return template }
        let entity = try model.entity(named: name)
        guard !entity.isAbstract else {
            // Which exception Apple raises here is not documented; the argument is what is wrong.
            throw CoreDataError(exception: .invalidArgument, "Can't insert an object of the abstract entity \(name); insert one of its sub-entities: \(entity.subentityNames.joined(separator: ", "))")
        }
        var storage = [Any?](repeating: nil, count: entity.attributes.count + entity.relationships.count)
        var loadedToMany: Set<Int> = []
        for (i, a) in entity.attributes.enumerated() where a.defaultValue != nil {
            storage[i] = a.defaultValue?.runtimeValue
        }
        for (n, r) in entity.relationships.enumerated() where r.isToMany {
            storage[entity.attributes.count + n] = Set<ManagedObjectID>()
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
        let id = temporaryIDs.isEmpty ? id : (temporaryIDs[id] ?? id)
        if let object = registered[id] { return object }
        return makeObject(id, entity: model.entitiesByName[id.entityName]!)
    }

    /// A new fault for an ID not registered yet.
    private func makeObject(_ id: ManagedObjectID, entity: EntityDescription) -> ManagedObject {
        let object = entity.managedObjectClass.init(entity: entity, objectID: id)
        object.managedObjectContext = self
        registered[id] = object
        return object
    }

    /// The object for an ID with its values loaded, or an error if the store does not have it
    /// (existingObjectWithID:error:).
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        guard model.entitiesByName[id.entityName] != nil else {
            throw CoreDataError(.referentialIntegrity, "\(id.uriString) names the entity \(id.entityName), which the model does not have", objectURI: id.uriString)
        }
        let object = self.object(with: id)
        try fireFault(object)
        return object
    }

    /// Loads a fault's values from its store.
    func fireFault(_ object: ManagedObject) throws {
        guard object.isFault else { return }
        let store = try persistentStoreCoordinator.store(for: object.objectID)
        if let batch = pendingBatches[object.objectID] {
            // A fetch with a batch size: load the whole batch in one query.
            for id in batch { pendingBatches[id] = nil }
            for row in try store.backend.rows(for: batch, model: model) {
                let id = ManagedObjectID(entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey)
                if let member = registered[id], member.isFault { fill(member, from: row) }
            }
            if !object.isFault { return }
        }
        guard let row = try store.backend.row(for: object.objectID, model: model) else {
            throw CoreDataError(.referentialIntegrity, "CoreData could not fulfill a fault for \(object.objectID.uriString): the object is not in the store (it was deleted)", objectURI: object.objectID.uriString)
        }
        fill(object, from: row)
    }

    func fill(_ object: ManagedObject, from row: StoreRow) {
        // The row's values are the object's storage (to-many slots are nil: loaded on use).
        object.storage = row.values
        object.loadedToMany = []
        object.version = row.version
        object.isFault = false
        object.awakeFromFetch()
    }

    // MARK: Values

    func value(of object: ManagedObject, at i: Int) throws -> Any? {
        try fireFault(object)
        // Attributes, the common case, without copying the entity description.
        if i < object.entity.attributes.count { return object.storage[i] }
        let entity = object.entity
        let r = entity.relationships[i - entity.attributes.count]
        if r.isToMany {
            if r.isOrdered { return try orderedIDs(of: object, at: i).map { self.object(with: $0) } }
            return Set(try relatedIDs(of: object, at: i).map { self.object(with: $0) })
        }
        return (object.storage[i] as? ManagedObjectID).map { self.object(with: $0) }
    }

    /// The IDs of a to-many relationship, loading them from the store the first time.
    private func relatedIDs(of object: ManagedObject, at i: Int) throws -> Set<ManagedObjectID> {
        if !object.loadedToMany.contains(i) {
            let r = object.entity.relationships[i - object.entity.attributes.count]
            let store = try persistentStoreCoordinator.store(for: object.objectID)
            var ids: Set<ManagedObjectID>
            if r.isOrdered {
                // An ordered relationship is read in its order (OrderedToMany.swift).
                let ordered = try store.backend.orderedRelatedIDs(of: object.objectID, relationship: r, model: model).map { temporaryIDs[$0] ?? $0 }
                object.loadOrder(ordered, at: i)
                ids = Set(ordered)
            } else {
                ids = try store.backend.relatedIDs(of: object.objectID, relationship: r, model: model)
                ids = Set(ids.map { temporaryIDs[$0] ?? $0 })
            }
            object.storage[i] = ids
            object.loadedToMany.insert(i)
            // Loaded after the object's first change: the store's set is the committed one, the
            // base a save compares with to find the links added and removed.
            if object.committedStorage != nil, object.committedStorage![i] == nil { object.committedStorage![i] = ids }
        }
        return object.storage[i] as? Set<ManagedObjectID> ?? []
    }

    /// The IDs of an ordered to-many relationship, in order, loading them the first time.
    func orderedIDs(of object: ManagedObject, at i: Int) throws -> [ManagedObjectID] {
        _ = try relatedIDs(of: object, at: i)
        return object.orderedIDs(at: i) { temporaryIDs[$0] ?? $0 }
    }

    func setValue(_ value: Any?, of object: ManagedObject, at i: Int) throws {
        try fireFault(object)
        guard !isDeleted(object) else {
            throw CoreDataError(exception: .objectInaccessible, "Can't change \(object.objectID.uriString): it has been deleted", objectURI: object.objectID.uriString, key: object.entity.propertyNames[i])
        }
        let shared = object.entity.shared
        if i < shared.attributeCount {
            // This runs for every value set: the attribute's type decides the common case,
            // and its description is read only to convert or refuse a value.
            let converted: Any?
            if let same = AttributeValue.storedAsIs(value, type: shared.attributeTypes[i]) {
                converted = same
            } else {
                converted = try AttributeValue.convert(value, for: shared.attributes[i], entity: shared.name)
            }
            willChange(object)
            object.storage[i] = converted
            return
        }
        let entity = object.entity
        let r = entity.relationships[i - entity.attributes.count]
        if r.isToMany {
            let newObjects = try toManyObjects(value, relationship: r, entity: entity)
            let current = try relatedIDs(of: object, at: i)
            let newIDs = Set(newObjects.map(\.objectID))
            let before = r.isOrdered ? try orderedIDs(of: object, at: i) : []
            for removed in current.subtracting(newIDs) { try unlink(object, relationship: r, from: self.object(with: removed)) }
            for added in newObjects where !current.contains(added.objectID) { try link(object, relationship: r, to: added) }
            if r.isOrdered {
                // An array gives the order; a set keeps the order of the members it keeps and
                // adds the others at the end.
                var order: [ManagedObjectID]
                if unwrapOptional(value) is [ManagedObject] {
                    order = newObjects.map(\.objectID)
                } else {
                    order = before.filter(newIDs.contains)
                    order += newObjects.map(\.objectID).filter { !before.contains($0) }
                }
                if order != (try orderedIDs(of: object, at: i)) {
                    willChange(object)
                    object.setOrder(order, at: i) { temporaryIDs[$0] ?? $0 }
                }
            }
        } else {
            let target = try toOneObject(value, relationship: r, entity: entity)
            let currentID = object.storage[i] as? ManagedObjectID
            if currentID == target?.objectID { return }
            if let currentID { try unlink(object, relationship: r, from: self.object(with: currentID)) }
            if let target { try link(object, relationship: r, to: target) }
        }
    }

    private func toOneObject(_ value: Any?, relationship r: RelationshipDescription, entity: EntityDescription) throws -> ManagedObject? {
        guard let value = unwrapOptional(value) else { return nil }
        guard let target = value as? ManagedObject else {
            throw CoreDataError(exception: .invalidArgument, "\(entity.name).\(r.name) holds a \(r.destinationEntityName), not \(describeArgument(value))", key: r.name)
        }
        try checkDestination(target, relationship: r, entity: entity)
        return target
    }

    private func toManyObjects(_ value: Any?, relationship r: RelationshipDescription, entity: EntityDescription) throws -> [ManagedObject] {
        guard let value = unwrapOptional(value) else { return [] }
        let objects: [ManagedObject]
        if let set = value as? Set<ManagedObject> { objects = set.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey } }
        else if let array = value as? [ManagedObject] { objects = array }
        else {
            throw CoreDataError(exception: .invalidArgument, "\(entity.name).\(r.name) holds a set of \(r.destinationEntityName), not \(describeArgument(value))", key: r.name)
        }
        for target in objects { try checkDestination(target, relationship: r, entity: entity) }
        return objects
    }

    private func checkDestination(_ target: ManagedObject, relationship r: RelationshipDescription, entity: EntityDescription) throws {
        guard model.isEntity(target.entity.name, kindOf: r.destinationEntityName) else {
            throw CoreDataError(exception: .invalidArgument, "\(entity.name).\(r.name) holds \(r.destinationEntityName) objects, not \(target.entity.name)", objectURI: target.objectID.uriString, key: r.name)
        }
        guard target.managedObjectContext === self else {
            throw CoreDataError(exception: .invalidArgument, "Illegal attempt to establish a relationship \(r.name) between objects in different contexts (\(target.objectID.uriString))", objectURI: target.objectID.uriString, key: r.name)
        }
    }

    /// Records that an object is about to change, keeping its committed values for rollback.
    ///
    /// Inserted objects keep no committed values: rollback drops them, and a save compares their
    /// to-many sets with the empty set. Copying their values would also make the first change
    /// copy the whole value array.
    @inline(__always)
    private func willChange(_ object: ManagedObject) {
        if isInserted(object) { return }
        if object.committedStorage == nil { object.committedStorage = object.storage }
        updatedList.append(object)
    }

    /// Sets one side of a relationship without touching the inverse.
    private func setPrimitive(_ object: ManagedObject, relationship name: String, add target: ManagedObject?, remove: ManagedObject?) throws {
        try fireFault(object)
        let i = object.entity.propertyIndex[name]!
        let r = object.entity.relationships[i - object.entity.attributes.count]
        willChange(object)
        if r.isToMany {
            var ids = try relatedIDs(of: object, at: i)
            if let remove { ids.remove(remove.objectID) }
            if let target { ids.insert(target.objectID) }
            object.storage[i] = ids
            if r.isOrdered { object.updateOrder(at: i, adding: target?.objectID, removing: remove?.objectID) }
        } else {
            object.storage[i] = target?.objectID
        }
    }

    /// Connects object.r to target, and target's inverse back (clearing what it held).
    private func link(_ object: ManagedObject, relationship r: RelationshipDescription, to target: ManagedObject) throws {
        guard let inverseName = r.inverseName, let inverse = target.entity.relationship(named: inverseName) else {
            // No inverse to keep: none declared, or declared on a sub-entity the target is not.
            try setPrimitive(object, relationship: r.name, add: target, remove: nil)
            return
        }
        if !updatesToManyInverses && !r.isToMany && inverse.isToMany {
            try setPrimitive(object, relationship: r.name, add: target, remove: nil)
            return
        }
        if !r.isToMany, let old = try value(of: object, at: object.entity.propertyIndex[r.name]!) as? ManagedObject {
            try unlink(object, relationship: r, from: old)
        }
        if !inverse.isToMany, let previous = try value(of: target, at: target.entity.propertyIndex[inverse.name]!) as? ManagedObject, previous !== object {
            // The target belonged elsewhere (one-to-many or one-to-one): take it away.
            try setPrimitive(previous, relationship: r.name, add: nil, remove: target)
            if !r.isToMany { try setPrimitive(previous, relationship: r.name, add: nil, remove: nil) }
        }
        try setPrimitive(object, relationship: r.name, add: target, remove: nil)
        try setPrimitive(target, relationship: inverse.name, add: object, remove: nil)
    }

    private func unlink(_ object: ManagedObject, relationship r: RelationshipDescription, from target: ManagedObject) throws {
        try setPrimitive(object, relationship: r.name, add: nil, remove: target)
        guard let inverseName = r.inverseName, let inverse = target.entity.relationship(named: inverseName) else { return }
        if !updatesToManyInverses && !r.isToMany && inverse.isToMany { return }
        if inverse.isToMany {
            try setPrimitive(target, relationship: inverse.name, add: nil, remove: object)
        } else if (try value(of: target, at: target.entity.propertyIndex[inverse.name]!) as? ManagedObject) === object {
            try setPrimitive(target, relationship: inverse.name, add: nil, remove: object)
        }
    }

    // MARK: Deleting

    /// Marks an object deleted; the store forgets it at the next save.
    ///
    /// Delete rules run now: nullify clears the other side, cascade deletes the destination
    /// objects, deny is checked at save (error 1600).
    public func delete(_ object: ManagedObject) throws {
        guard object.managedObjectContext === self else {
            throw CoreDataError(exception: .invalidArgument, "\(object.objectID.uriString) is not in this context", objectURI: object.objectID.uriString)
        }
        guard !isDeleted(object) else { return }
        try fireFault(object)
        deletedList.append(object)
        for r in object.entity.relationships {
            let i = object.entity.propertyIndex[r.name]!
            let related: [ManagedObject]
            if r.isToMany {
                related = try relatedIDs(of: object, at: i).sorted { $0.primaryKey < $1.primaryKey }.map { self.object(with: $0) }
            } else {
                related = (try value(of: object, at: i) as? ManagedObject).map { [$0] } ?? []
            }
            switch r.deleteRule {
            case .nullify:
                for target in related where !isDeleted(target) {
                    guard let inverseName = r.inverseName, let inverse = target.entity.relationship(named: inverseName) else { continue }
                    try setPrimitive(target, relationship: inverse.name, add: nil, remove: object)
                }
            case .cascade:
                for target in related where !isDeleted(target) { try delete(target) }
            case .deny, .noAction:
                break
            }
        }
    }

    // MARK: Saving

    /// Name of the notification posted after a save; its user info holds the saved object IDs
    /// under ``insertedObjectIDsKey``, ``updatedObjectIDsKey`` and ``deletedObjectIDsKey``.
    public static let didSaveNotification = Notification.Name("ObjectGraphManagedObjectContextDidSave")
    /// User-info key: `Set<ManagedObjectID>` inserted by a save.
    public static let insertedObjectIDsKey = "inserted_objectIDs"
    /// User-info key: `Set<ManagedObjectID>` updated by a save.
    public static let updatedObjectIDsKey = "updated_objectIDs"
    /// User-info key: `Set<ManagedObjectID>` deleted by a save.
    public static let deletedObjectIDsKey = "deleted_objectIDs"

    /// Validates and writes every change to the store in one transaction.
    ///
    /// ```swift
    /// do {
    ///     try context.save()
    /// } catch let error as CoreDataError where error.code == .missingMandatoryProperty {
    ///     print(error.key ?? "", error.message)   // title Book.title of x-coredata:///Book/t1: is a required value
    /// }
    /// ```
    ///
    /// With no changes it does nothing. After a successful save, new objects have permanent
    /// object IDs, and ``didSaveNotification`` is posted.
    ///
    /// A failed save writes nothing and leaves the context's changes in place, as Core Data does:
    /// fix the objects, or call ``rollback()``, and save again. Saves of all contexts on a
    /// coordinator run one at a time; the did-save notification is posted after the store is
    /// written, outside that lock.
    ///
    /// - Throws: ``CoreDataError``:
    ///   - a validation error, when an object breaks its model: 1570 a mandatory value is
    ///     missing, 1580 and 1590 a to-many count is out of range, 1600 a Deny relationship still
    ///     holds objects, 1610 and 1620 a number, 1630 and 1640 a date, 1660 and 1670 a string
    ///     length out of bounds, 1680 a string does not match its pattern; 1560
    ///     (``CoreDataError/Code/multipleErrors``) when there are several, each in
    ///     ``CoreDataError/detailedErrors``;
    ///   - 133020 (``CoreDataError/Code/merge``) when another context saved a changed
    ///     or deleted object first and ``mergePolicy`` is `.error`: refresh the object and
    ///     apply the change again, or choose another ``MergePolicy``;
    ///   - the exception NSInternalInconsistencyException
    ///     (``CoreDataError/ExceptionName/internalInconsistency``) when the coordinator has no store.
    public func save() throws {
        guard hasChanges else { return }
        let userInfo = try persistentStoreCoordinator.performAndWait { try writeChanges() }
        if isResetAfterEachSave { return }
        NotificationCenter.default.post(name: Self.didSaveNotification, object: self, userInfo: userInfo)
    }

    /// Validates and writes the changes; returns the did-save notification's user info.
    private func writeChanges() throws -> [String: Set<ManagedObjectID>] {
        // Objects removed before ever being saved need no store work.
        let toInsert = insertedList.filter { !deletedList.contains($0) }
        var toUpdate = updatedList.filter { !deletedList.contains($0) }
        var toDelete = deletedList.filter { !$0.objectID.isTemporaryID }
        if validatesOnSave {
            try Validation.validate(inserted: toInsert, updated: toUpdate, deleted: deletedList.elements, context: self)
        }

        let store = try persistentStoreCoordinator.defaultStore()
        // Permanent IDs for the new objects, by position in toInsert. Keys come in one call per
        // entity, entities in name order, objects in insertion order.
        var permanentIDs = [ManagedObjectID?](repeating: nil, count: toInsert.count)
        if let first = toInsert.first?.entity.shared, toInsert.allSatisfy({ $0.entity.shared === first }) {
            // One entity, the common case: no grouping.
            let keys = try store.backend.allocatePrimaryKeys(for: toInsert[0].entity, count: toInsert.count, model: model)
            for k in toInsert.indices {
                permanentIDs[k] = ManagedObjectID(entityName: first.name, storeIdentifier: store.identifier, primaryKey: keys[k])
            }
        } else {
            for (entityName, positions) in Dictionary(grouping: toInsert.indices, by: { toInsert[$0].entity.name }).sorted(by: { $0.key < $1.key }) {
                let keys = try store.backend.allocatePrimaryKeys(for: toInsert[positions[0]].entity, count: positions.count, model: model)
                for (k, key) in zip(positions, keys) {
                    permanentIDs[k] = ManagedObjectID(entityName: entityName, storeIdentifier: store.identifier, primaryKey: key)
                }
            }
        }
        let newIDs = permanentIDs.map { $0! }
        // Temporary IDs other objects still refer to (to-one values, to-many sets) map through
        // this; it is built only when a saved entity has relationships to refer with.
        var idMap: [ManagedObjectID: ManagedObjectID] = [:]
        if toInsert.contains(where: { !$0.entity.shared.relationships.isEmpty }) || toUpdate.contains(where: { !$0.entity.shared.relationships.isEmpty }) {
            idMap.reserveCapacity(toInsert.count)
            for (k, object) in toInsert.enumerated() { idMap[object.objectID] = newIDs[k] }
        }
        func permanent(_ id: ManagedObjectID) -> ManagedObjectID { id.isTemporaryID ? (idMap[id] ?? id) : id }
        func row(_ object: ManagedObject, id: ManagedObjectID, version: Int64) -> StoreRow {
            // The object's values as they are, shared, not copied; only relationship slots
            // change: to-many ones are nil in a row, to-one IDs become permanent.
            let shared = object.entity.shared
            var values = object.storage
            for n in shared.relationships.indices {
                let i = shared.attributeCount + n
                if shared.relationships[n].isToMany {
                    if values[i] != nil { values[i] = nil }
                } else if let target = values[i] as? ManagedObjectID, target.isTemporaryID {
                    values[i] = permanent(target)
                }
            }
            return StoreRow(entityName: shared.name, primaryKey: id.primaryKey, version: version, values: values)
        }
        // Objects a merge policy saves again after another context deleted them.
        var reinserted: Set<ObjectIdentifier> = []
        func buildChanges() -> StoreChanges {
            var changes = StoreChanges()
            changes.inserted.reserveCapacity(toInsert.count)
            for (k, object) in toInsert.enumerated() { changes.inserted.append(row(object, id: newIDs[k], version: 1)) }
            for object in toUpdate {
                let updated = row(object, id: permanent(object.objectID), version: object.version + 1)
                if reinserted.contains(ObjectIdentifier(object)) {
                    changes.inserted.append(updated)
                } else {
                    changes.updated.append((updated, object.version))
                }
            }
            changes.deleted = toDelete.map { ($0.objectID, $0.version) }
            // Many-to-many links, recorded from the side that names the pair.
            for objects in [toInsert, toUpdate] {
                for object in objects where !object.entity.shared.relationships.isEmpty {
                    for (n, r) in object.entity.relationships.enumerated() where r.isToMany {
                        guard let inverse = model.inverseRelationship(of: r), inverse.isToMany else { continue }
                        let (key, isOwner) = model.manyToManyKey(entity: object.entity.name, relationship: r)
                        guard isOwner else { continue }
                        let i = object.entity.attributes.count + n
                        guard object.loadedToMany.contains(i) else { continue }
                        let now = object.storage[i] as? Set<ManagedObjectID> ?? []
                        let before = (object.committedStorage?[i] as? Set<ManagedObjectID>) ?? (isInserted(object) ? [] : now)
                        for added in now.subtracting(before).sorted(by: { $0.primaryKey < $1.primaryKey }) {
                            changes.linksAdded.append((key, permanent(object.objectID), permanent(added)))
                        }
                        for removed in before.subtracting(now).sorted(by: { $0.primaryKey < $1.primaryKey }) {
                            changes.linksRemoved.append((key, permanent(object.objectID), permanent(removed)))
                        }
                    }
                }
            }
            // The order of each ordered to-many that changed (OrderedToMany.swift).
            for objects in [toInsert, toUpdate] {
                for object in objects where !object.toManyOrders.isEmpty {
                    for (i, order) in object.toManyOrders.sorted(by: { $0.key < $1.key }) where order.changed {
                        let r = object.entity.relationships[i - object.entity.attributes.count]
                        let ids = object.orderedIDs(at: i) { self.temporaryIDs[$0] ?? $0 }.map(permanent)
                        changes.orderings.append(("\(model.declaringEntity(of: r.name, in: object.entity.name)).\(r.name)", permanent(object.objectID), ids))
                    }
                }
            }
            return changes
        }
        // Optimistic locking: the store refuses rows another context saved since they were
        // read; the merge policy resolves those conflicts and the save is tried again.
        for round in 1... {
            do {
                try store.backend.save(buildChanges(), model: model)
                break
            } catch let error as CoreDataError where error.code == .merge && round <= Self.conflictRounds {
                let conflicts = try detectConflicts(updated: toUpdate, deleted: toDelete, in: store)
                guard !conflicts.isEmpty else { throw error }
                try mergePolicy.resolve(optimisticLockingConflicts: conflicts)
                for conflict in conflicts where conflict.reinserts { reinserted.insert(ObjectIdentifier(conflict.sourceObject)) }
                toUpdate = updatedList.filter { !deletedList.contains($0) }
                toDelete = deletedList.filter { !$0.objectID.isTemporaryID }
            }
        }

        if isResetAfterEachSave {
            // newIDs, not permanent(_:): the temporary-to-permanent map is only built when an
            // entity has relationships.
            for (k, object) in toInsert.enumerated() { object.objectID = newIDs[k] }
            insertedList.removeAll(); updatedList.removeAll(); deletedList.removeAll()
            return [:]
        }
        // The store has it all: make IDs permanent and forget the change lists.
        let inserted = Set(newIDs)
        let updated = Set(toUpdate.map(\.objectID))
        let deleted = Set(toDelete.map(\.objectID))
        if toInsert.count >= registered.count / 2 {
            // Mostly new objects: building the identity map again costs less than moving each
            // entry. After the save no entry keeps a temporary ID (inserted objects move to
            // their permanent one; inserted and deleted ones are forgotten below).
            var map = [ManagedObjectID: ManagedObject](minimumCapacity: registered.count)
            for (id, object) in registered where !id.isTemporaryID { map[id] = object }
            for (k, object) in toInsert.enumerated() { map[newIDs[k]] = object }
            registered = map
        } else {
            for (k, object) in toInsert.enumerated() {
                registered[object.objectID] = nil
                registered[newIDs[k]] = object
            }
        }
        temporaryIDs.reserveCapacity(temporaryIDs.count + toInsert.count)
        for (k, object) in toInsert.enumerated() {
            temporaryIDs[object.objectID] = newIDs[k]
            object.objectID = newIDs[k]
            object.version = 1
        }
        for object in toUpdate { object.version += 1 }
        for objects in [toInsert, toUpdate] {
            for object in objects {
                object.committedStorage = nil
                object.orderSaved()
                let attributeCount = object.entity.shared.attributeCount
                for i in attributeCount..<object.storage.count {
                    if let id = object.storage[i] as? ManagedObjectID, id.isTemporaryID { object.storage[i] = permanent(id) }
                    if let ids = object.storage[i] as? Set<ManagedObjectID>, ids.contains(where: \.isTemporaryID) { object.storage[i] = Set(ids.map(permanent)) }
                }
            }
        }
        for object in deletedList {
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        }
        insertedList.removeAll(); updatedList.removeAll(); deletedList.removeAll()
        return [Self.insertedObjectIDsKey: inserted, Self.updatedObjectIDsKey: updated, Self.deletedObjectIDsKey: deleted]
    }

    /// Throws away every unsaved change: inserted objects go, deleted ones come back, changed ones
    /// get their last saved values.
    ///
    /// Nothing is read from the store.
    public func rollback() {
        for object in updatedList.elements + deletedList.elements {
            if let committed = object.committedStorage { object.storage = committed }
            object.committedStorage = nil
        }
        for object in insertedList {
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        }
        // To-many sets may have been loaded after the change; reload them on next use.
        for object in registered.values { object.loadedToMany = [] }
        insertedList.removeAll(); updatedList.removeAll(); deletedList.removeAll()
    }

    /// Forgets every object; references to them become invalid.
    public func reset() {
        for object in registered.values { object.managedObjectContext = nil }
        registered = [:]; temporaryIDs = [:]; pendingBatches = [:]
        insertedList.removeAll(); updatedList.removeAll(); deletedList.removeAll()
    }

    /// Refreshes an object from the store (refreshObject:mergeChanges:).
    ///
    /// Without merging, unsaved changes are discarded and the object becomes a fault; with merging,
    /// store values are read and the object's own changes applied again on top.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        try refreshObject(object, mergeChanges: mergeChanges)
    }

    /// Turns every registered object into a fault, keeping unsaved changes
    /// (refreshAllObjects).
    public func refreshAllObjects() throws {
        for object in Array(registered.values) where !isInserted(object) {
            try refresh(object, mergeChanges: true)
        }
    }

    /// Brings in the changes another context saved, from its did-save notification
    /// (mergeChangesFromContextDidSaveNotification:): deleted objects leave this context,
    /// updated ones are refreshed keeping this context's own unsaved changes, inserted ones
    /// are seen by the next fetch.
    public func mergeChanges(fromContextDidSave notification: Notification) throws {
        guard let info = notification.userInfo else { return }
        for id in info[Self.deletedObjectIDsKey] as? Set<ManagedObjectID> ?? [] {
            guard let object = registered[id] else { continue }
            registered[id] = nil
            insertedList.remove(object)
            updatedList.remove(object)
            deletedList.remove(object)
            object.managedObjectContext = nil
        }
        for id in info[Self.updatedObjectIDsKey] as? Set<ManagedObjectID> ?? [] {
            guard let object = registered[id], !object.isFault else { continue }
            try refresh(object, mergeChanges: true)
        }
        // Loaded to-many sets may now miss inserted objects: reload them on next use.
        if !(info[Self.insertedObjectIDsKey] as? Set<ManagedObjectID> ?? []).isEmpty {
            for object in registered.values where object.committedStorage == nil && !isInserted(object) { object.loadedToMany = [] }
        }
    }

    // MARK: Fetching

    /// Loads the relationships named by key paths for many objects at once: one query per
    /// relationship and level, instead of one per object.
    private func prefetch(_ keyPaths: [String], of objects: [ManagedObject]) throws {
        for keyPath in keyPaths {
            var level = objects
            for name in keyPath.split(separator: ".").map(String.init) {
                var next: [ManagedObject] = []
                for (entityName, group) in Dictionary(grouping: level.filter { !$0.objectID.isTemporaryID }, by: { $0.entity.name }) {
                    let entity = model.entitiesByName[entityName]!
                    guard let i = entity.propertyIndex[name], let r = entity.relationship(named: name) else {
                        throw CoreDataError(exception: .invalidArgument, "relationshipKeyPathsForPrefetching names \(keyPath), but \(entityName) has no relationship \(name)")
                    }
                    let store = try persistentStoreCoordinator.store(for: group[0].objectID)
                    if r.isToMany && r.isOrdered {
                        // Ordered ones in their order, one query each.
                        for object in group { try fireFault(object); _ = try relatedIDs(of: object, at: i) }
                        next += group.flatMap { ($0.storage[i] as? Set<ManagedObjectID> ?? []).map { self.object(with: $0) } }
                    } else if r.isToMany {
                        let unloaded = group.filter { !$0.loadedToMany.contains(i) }
                        let related = try store.backend.relatedIDs(of: unloaded.map(\.objectID), relationship: r, model: model)
                        for object in unloaded {
                            try fireFault(object)
                            object.storage[i] = related[object.objectID] ?? []
                            object.loadedToMany.insert(i)
                        }
                        next += group.flatMap { ($0.storage[i] as? Set<ManagedObjectID> ?? []).map { self.object(with: $0) } }
                    } else {
                        for object in group { try fireFault(object) }
                        next += group.compactMap { ($0.storage[i] as? ManagedObjectID).map { self.object(with: $0) } }
                    }
                }
                let faults = next.filter(\.isFault)
                if let first = faults.first {
                    let store = try persistentStoreCoordinator.store(for: first.objectID)
                    for row in try store.backend.rows(for: faults.map(\.objectID), model: model) {
                        let id = ManagedObjectID(entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey)
                        if let object = registered[id], object.isFault { fill(object, from: row) }
                    }
                }
                level = next
            }
        }
    }

    /// The managed objects a request describes (executeFetchRequest:error:).
    ///
    /// ```swift
    /// let request = FetchRequest(entityName: "Book")
    /// request.predicate = try Predicate(format: "salesRank < %@", 1000)
    /// request.sortDescriptors = [SortDescriptor(key: "title")]
    /// let books = try context.fetch(request)
    /// ```
    ///
    /// With `includesPendingChanges` (the default) unsaved inserts that match are included,
    /// deleted objects are not, and changed objects are judged on their new values. A SQLite
    /// store runs the predicate, sort and limits as one SQL statement.
    ///
    /// - Throws: ``CoreDataError``:
    ///   - the exception NSInternalInconsistencyException
    ///     (``CoreDataError/ExceptionName/internalInconsistency``) when the model has no entity of
    ///     that name (the message lists those it has);
    ///   - the exception NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``)
    ///     when the request's `resultType` is not `.managedObject` (use ``execute(_:)``,
    ///     ``fetchObjectIDs(_:)`` or ``count(for:)``), or a SQLite store cannot translate the
    ///     predicate or a sort descriptor: a key the entity does not have
    ///     (`keypath pages not found in entity Book`), a transient attribute, a block predicate.
    ///
    ///   Evaluating in memory, a ``PredicateError`` for operands the predicate cannot compare.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        guard request.resultType == .managedObject else {
            throw CoreDataError(exception: .invalidArgument, "fetch(_:) returns managed objects, but the request's resultType is \(request.resultType); use fetchObjectIDs(_:) or count(for:)")
        }
        return try fetchObjects(request)
    }

    /// The object IDs a request describes (NSManagedObjectIDResultType).
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ManagedObjectID] {
        if request.includesPendingChanges && hasChanges { return try fetchObjects(request).map(\.objectID) }
        _ = try model.entity(named: request.entityName)
        var ids: [ManagedObjectID] = []
        for store in persistentStoreCoordinator.persistentStores {
            ids += try store.backend.fetchIDs(request, model: model).map { temporaryIDs[$0] ?? $0 }
        }
        return ids
    }

    /// One dictionary per object or group (NSDictionaryResultType): the request's
    /// `propertiesToFetch` (every attribute by default) and expression descriptions, grouped by
    /// `propertiesToGroupBy`.
    ///
    /// Nil values are left out of the dictionaries. As Apple documents, dictionary results reflect
    /// the store and ignore the context's unsaved changes.
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: Any]] {
        _ = try model.entity(named: request.entityName)
        var results: [[String: Any]] = []
        for store in persistentStoreCoordinator.persistentStores {
            results += try store.backend.fetchDictionaries(request, model: model)
        }
        return results
    }

    /// Runs a request and returns what its `resultType` asks for.
    public func execute(_ request: FetchRequest) throws -> FetchResult {
        switch request.resultType {
        case .managedObject: return .objects(try fetchObjects(request))
        case .managedObjectID: return .objectIDs(try fetchObjectIDs(request))
        case .dictionary: return .dictionaries(try fetchDictionaries(request))
        case .count: return .count(try count(for: request))
        }
    }

    /// The number of objects a request would fetch (countForFetchRequest:error:).
    ///
    /// ```swift
    /// let request = FetchRequest(entityName: "Book")
    /// request.predicate = try Predicate(format: "author == %@", "Zarra")
    /// let n = try context.count(for: request)
    /// ```
    ///
    /// A SQLite store counts in SQL without loading objects, unless the context has unsaved
    /// changes the count must include. The limit and offset of the request apply.
    ///
    /// - Throws: ``CoreDataError`` as ``fetch(_:)`` does: NSInternalInconsistencyException
    ///   (``CoreDataError/ExceptionName/internalInconsistency``) for an entity the model lacks,
    ///   NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``) for a
    ///   predicate the store cannot translate.
    public func count(for request: FetchRequest) throws -> Int {
        let inMemory = persistentStoreCoordinator.persistentStores.contains { $0.backend.evaluatesInMemory }
        if (request.includesPendingChanges && hasChanges) || inMemory {
            let copy = request.copy()
            copy.resultType = .managedObject
            return try fetchObjects(copy).count
        }
        let entity = try model.entity(named: request.entityName)
        _ = entity
        var total = 0
        for store in persistentStoreCoordinator.persistentStores {
            total += try store.backend.count(request, model: model)
        }
        return total
    }

    private func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        let entity = try model.entity(named: request.entityName)
        let pending = request.includesPendingChanges && hasChanges
        // Atomic stores evaluate fetches in memory, against the context's own objects, with
        // all of Swift at hand: block predicates and transient properties work there
        // ("Persistent Store Types and Behaviors").
        let inMemory = persistentStoreCoordinator.persistentStores.contains { $0.backend.evaluatesInMemory }
        // With pending changes, or in memory, the window is applied at the end.
        let storeRequest = request.copy()
        if pending || inMemory { storeRequest.fetchLimit = 0; storeRequest.fetchOffset = 0 }
        if inMemory { storeRequest.predicate = nil; storeRequest.sortDescriptors = [] }
        var results: [ManagedObject] = []
        for store in persistentStoreCoordinator.persistentStores {
            if request.fetchBatchSize > 0 {
                // Identities now, values a batch at a time when first used.
                let ids = try store.backend.fetchIDs(storeRequest, model: model)
                for start in stride(from: 0, to: ids.count, by: request.fetchBatchSize) {
                    let batch = Array(ids[start..<min(start + request.fetchBatchSize, ids.count)])
                    for id in batch {
                        let object = self.object(with: id)
                        if request.shouldRefreshRefetchedObjects && !object.isFault && object.committedStorage == nil {
                            object.isFault = true
                            object.loadedToMany = []
                        }
                        if object.isFault { pendingBatches[id] = batch }
                        results.append(object)
                    }
                }
                continue
            }
            let rows = try store.backend.fetchRows(storeRequest, model: model)
            // Into a context that holds no object yet (a first fetch), every row is new: the
            // object is made and entered with one hash of its ID instead of a lookup and an
            // insertion. A row seen twice finds its first object and keeps that one.
            let allNew = registered.isEmpty
            registered.reserveCapacity(registered.count + rows.count)
            var entity: EntityDescription?
            results.reserveCapacity(results.count + rows.count)
            for row in rows {
                let id = ManagedObjectID(entityName: row.entityName, storeIdentifier: store.identifier, primaryKey: row.primaryKey)
                let object: ManagedObject
                // The rows of a fetch are mostly of one entity: look it up once, not per row.
                if allNew {
                    if entity?.name != row.entityName { entity = model.entitiesByName[row.entityName]! }
                    let made = entity!.managedObjectClass.init(entity: entity!, objectID: id)
                    if let existing = registered.updateValue(made, forKey: id) {
                        registered[id] = existing
                        object = existing
                    } else {
                        made.managedObjectContext = self
                        object = made
                    }
                } else if let existing = registered[id] {
                    object = existing
                } else {
                    if entity?.name != row.entityName { entity = model.entitiesByName[row.entityName]! }
                    object = makeObject(id, entity: entity!)
                }
                if object.isFault { fill(object, from: row) }
                else if request.shouldRefreshRefetchedObjects { try refreshRefetched(object, from: row) }
                results.append(object)
            }
        }
        try prefetch(request.relationshipKeyPathsForPrefetching, of: results)
        if inMemory, let predicate = request.predicate {
            results = try results.filter { try predicate.evaluate(with: $0) }
        }
        guard pending || inMemory else { return results }
        let accepted = Set((request.includesSubentities ? model.entityAndSubentities(of: entity.name) : [entity]).map(\.name))
        var merged = results
        if pending {
            merged = results.filter { !deletedList.contains($0) && !updatedList.contains($0) && !insertedList.contains($0) }
            for object in updatedList.elements + insertedList.elements where accepted.contains(object.entity.name) && !deletedList.contains(object) {
                if try request.predicate?.evaluate(with: object) ?? true { merged.append(object) }
            }
        }
        if !request.sortDescriptors.isEmpty {
            merged = try SortDescriptor.sort(merged, by: request.sortDescriptors)
        } else {
            // Keep the store's order for saved objects, then new ones in insertion order.
            let position = Dictionary(results.enumerated().map { (ObjectIdentifier($1), $0) }, uniquingKeysWith: { a, _ in a })
            merged = merged.enumerated().sorted { a, b in
                (position[ObjectIdentifier(a.element)] ?? Int.max, a.offset) < (position[ObjectIdentifier(b.element)] ?? Int.max, b.offset)
            }.map(\.element)
        }
        if request.fetchOffset > 0 { merged = Array(merged.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { merged = Array(merged.prefix(request.fetchLimit)) }
        return merged
    }
}
