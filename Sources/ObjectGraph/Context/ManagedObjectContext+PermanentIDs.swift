import Foundation

/// Permanent IDs before a save (obtainPermanentIDsForObjects:error:).
extension ManagedObjectContext {
    /// Gives inserted objects their permanent IDs now, without saving them
    /// (obtainPermanentIDs(for:)).
    ///
    /// ```swift
    /// let book = try child.insertNewObject(forEntityName: "Book")
    /// try child.obtainPermanentIDs(for: [book])   // x-coredata://<store UUID>/Book/p7
    /// try child.save()                            // the parent holds it under the same ID
    /// ```
    ///
    /// The objects stay inserted (`insertedObjects` still holds them) until they are saved;
    /// the keys are taken from the store at once, so no other context or process gets them.
    /// Objects with a permanent ID already are left as they are. In a child context the IDs
    /// hold in every context up to the store: save the child and its parents, and the object
    /// keeps the ID. References to the old temporary ID still find the object here.
    ///
    /// - Throws: ``CoreDataError``: the exception NSInvalidArgumentException
    ///   (``CoreDataError/ExceptionName/invalidArgument``) for an object of another context;
    ///   the store's error when it cannot hand out keys.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkConfinement()
        for object in objects where object.managedObjectContext !== self {
            throw CoreDataError(
                exception: .invalidArgument,
                "obtainPermanentIDs(for:) was given \(object.objectID.uriString), which is not in this context",
                objectURI: object.objectID.uriString)
        }
        _ = try obtainPermanentIDs(forObjects: objects)
    }

    /// Obtains and adopts permanent IDs for the objects with temporary ones; returns every
    /// object's ID afterwards, in order.
    func obtainPermanentIDs(forObjects objects: [ManagedObject]) throws -> [ManagedObjectID] {
        var seen = Set<ObjectIdentifier>()
        let temporary = objects.filter { $0.objectID.isTemporaryID && seen.insert(ObjectIdentifier($0)).inserted }
        if !temporary.isEmpty {
            let ids = try parentStore.obtainPermanentIDs(for: temporary.map(\.objectID), in: self)
            guard ids.count == temporary.count else {
                throw CoreDataError(
                    .coreData, "The parent store handed out \(ids.count) permanent IDs for \(temporary.count) objects")
            }
            adoptPermanentIDs(Dictionary(uniqueKeysWithValues: zip(temporary.map(\.objectID), ids)))
        }
        return objects.map(\.objectID)
    }

    /// Moves objects from their temporary IDs to permanent ones: the identity map, the objects,
    /// and every reference to them that this context's objects hold.
    func adoptPermanentIDs(_ map: [ManagedObjectID: ManagedObjectID]) {
        for (old, new) in map {
            guard let object = registered.removeValue(forKey: old) else { continue }
            object.objectID = new
            registered[new] = object
            temporaryIDs[old] = new
            if let batch = pendingBatches.removeValue(forKey: old) { pendingBatches[new] = batch }
        }
        func permanent(_ value: AttributeValue) -> AttributeValue {
            if let id = value.objectID, id.isTemporaryID { return .objectID(map[id] ?? id) }
            if let ids = value.objectIDs, ids.contains(where: \.isTemporaryID) {
                return .objectIDs(Set(ids.map { map[$0] ?? $0 }))
            }
            return value
        }
        for object in registered.values where !object.isFault && !object.entity.relationships.isEmpty {
            let first = object.entity.attributes.count
            for i in first..<object.storage.count { object.storage[i] = permanent(object.storage[i]) }
            if var committed = object.committedStorage {
                for i in first..<committed.count { committed[i] = permanent(committed[i]) }
                object.committedStorage = committed
            }
        }
    }
}
