import Foundation

/// Values and relationships: reading and setting an object's properties through its context,
/// with inverses kept in step.
extension ManagedObjectContext {
    /// A property's value by index: attributes as stored, a to-one as its object, a to-many as
    /// a set of objects.
    func value(of object: ManagedObject, at i: Int) throws -> Any? {
        checkConfinement()
        try fireFault(object)
        // Attributes, the common case, without copying the entity description.
        if i < object.entity.attributes.count { return object.storage[i].any }
        let entity = object.entity
        let r = entity.relationships[i - entity.attributes.count]
        if r.isToMany {
            if r.isOrdered { return try orderedIDs(of: object, at: i).map { registeredObject(for: $0) } }
            return Set(try relatedIDs(of: object, at: i).map { registeredObject(for: $0) })
        }
        return (object.storage[i].objectID).map { registeredObject(for: $0) }
    }

    /// The IDs of a to-many relationship, loading them from the parent store the first time.
    func relatedIDs(of object: ManagedObject, at i: Int) throws -> Set<ManagedObjectID> {
        if !object.loadedToMany.contains(i) {
            let r = object.entity.relationships[i - object.entity.attributes.count]
            var ids: Set<ManagedObjectID>
            if r.isOrdered {
                // An ordered relationship is read in its order (ToManyOrder.swift).
                let ordered = try parentStore.orderedRelatedIDs(of: object.objectID, relationship: r, in: self).map {
                    temporaryIDs[$0] ?? $0
                }
                object.loadOrder(ordered, at: i)
                ids = Set(ordered)
            } else {
                ids = try parentStore.relatedIDs(of: object.objectID, relationship: r, in: self)
                if !temporaryIDs.isEmpty { ids = Set(ids.map { temporaryIDs[$0] ?? $0 }) }
            }
            object.storage[i] = .objectIDs(ids)
            object.loadedToMany.insert(i)
            // Loaded after the object's first change: the store's set is the committed one, the
            // base a save compares with to find the links added and removed.
            if object.committedStorage != nil, object.committedStorage![i].isNull {
                object.committedStorage![i] = .objectIDs(ids)
            }
            if !events.snapshots.isEmpty { recordLoadedToMany(ids, of: object, at: i) }
        }
        return object.storage[i].objectIDs ?? []
    }

    /// The IDs of an ordered to-many relationship, in order, loading them the first time.
    func orderedIDs(of object: ManagedObject, at i: Int) throws -> [ManagedObjectID] {
        _ = try relatedIDs(of: object, at: i)
        return object.orderedIDs(at: i) { temporaryIDs[$0] ?? $0 }
    }

    /// What every change of a property checks first: the calling thread, the object's values
    /// loaded, and the object not deleted.
    @inline(__always)
    func prepareToChange(_ object: ManagedObject, at i: Int, function: StaticString = #function) throws {
        checkConfinement(function)
        try fireFault(object)
        guard !isDeleted(object) else {
            throw CoreDataError(
                exception: .objectInaccessible, "Can't change \(object.objectID.uriString): it has been deleted",
                objectURI: object.objectID.uriString, key: object.entity.propertyNames[i])
        }
    }

    /// Sets an attribute to a value already of its type's case (a typed property's setter).
    @inline(__always)
    func setAttribute(_ value: AttributeValue, of object: ManagedObject, at i: Int) throws {
        try prepareToChange(object, at: i, function: "setValue(_:of:at:)")
        willChange(object)
        object.storage[i] = value
    }

    /// Sets a property by index: an attribute converted to its type, a relationship with its
    /// inverse.
    func setValue(_ value: Any?, of object: ManagedObject, at i: Int) throws {
        try prepareToChange(object, at: i, function: #function)
        let shared = object.entity.shared
        if i < shared.attributeCount {
            // This runs for every value set: the attribute's type decides the common case,
            // and its description is read only to convert or refuse a value.
            let converted: AttributeValue
            if let same = AttributeValue.storedAsIs(value, type: shared.attributeTypes[i]) {
                converted = same
            } else {
                converted = try AttributeValue.converted(value, for: shared.attributes[i], entity: shared.name)
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
            for removed in current.subtracting(newIDs) {
                try unlink(object, relationship: r, from: registeredObject(for: removed))
            }
            for added in newObjects where !current.contains(added.objectID) {
                try link(object, relationship: r, to: added)
            }
            if r.isOrdered {
                // An array gives the order; a set keeps the order of the members it keeps and
                // adds the others at the end.
                var order: [ManagedObjectID]
                if unwrapOptional(value) is [ManagedObject] || unwrapOptional(value) is NSOrderedSet {
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
            let currentID = object.storage[i].objectID
            if currentID == target?.objectID { return }
            if let currentID { try unlink(object, relationship: r, from: registeredObject(for: currentID)) }
            if let target { try link(object, relationship: r, to: target) }
        }
    }

    private func toOneObject(_ value: Any?, relationship r: RelationshipDescription, entity: EntityDescription) throws
        -> ManagedObject?
    {
        guard let value = unwrapOptional(value) else { return nil }
        guard let target = value as? ManagedObject else {
            throw CoreDataError(
                exception: .invalidArgument,
                "\(entity.name).\(r.name) holds a \(r.destinationEntityName), not \(describeArgument(value))",
                key: r.name)
        }
        try checkDestination(target, relationship: r, entity: entity)
        return target
    }

    private func toManyObjects(_ value: Any?, relationship r: RelationshipDescription, entity: EntityDescription) throws
        -> [ManagedObject]
    {
        guard let value = unwrapOptional(value) else { return [] }
        let objects: [ManagedObject]
        if let set = value as? Set<ManagedObject> {
            objects = set.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        } else if let array = value as? [ManagedObject] {
            objects = array
        } else if let ordered = value as? NSOrderedSet, let array = ordered.array as? [ManagedObject] {
            objects = array
        } else if let set = value as? NSSet, let members = set.allObjects as? [ManagedObject] {
            objects = members.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        } else {
            throw CoreDataError(
                exception: .invalidArgument,
                "\(entity.name).\(r.name) holds a set of \(r.destinationEntityName), not \(describeArgument(value))",
                key: r.name)
        }
        for target in objects { try checkDestination(target, relationship: r, entity: entity) }
        return objects
    }

    private func checkDestination(
        _ target: ManagedObject, relationship r: RelationshipDescription, entity: EntityDescription
    ) throws {
        guard model.isEntity(target.entity.name, kindOf: r.destinationEntityName) else {
            throw CoreDataError(
                exception: .invalidArgument,
                "\(entity.name).\(r.name) holds \(r.destinationEntityName) objects, not \(target.entity.name)",
                objectURI: target.objectID.uriString, key: r.name)
        }
        guard target.managedObjectContext === self else {
            throw CoreDataError(
                exception: .invalidArgument,
                "Illegal attempt to establish a relationship \(r.name) between objects in different contexts (\(target.objectID.uriString))",
                objectURI: target.objectID.uriString, key: r.name)
        }
    }

    /// Records that an object is about to change, keeping its committed values for rollback.
    ///
    /// Inserted objects keep no committed values: rollback drops them, and a save compares their
    /// to-many sets with the empty set. Copying their values would also make the first change
    /// copy the whole value array.
    @inline(__always)
    func willChange(_ object: ManagedObject) {
        if object.listMembership & ContextEvents.recordedBits == 0 { recordEventChange(object) }
        if isInserted(object) { return }
        if object.committedStorage == nil { object.committedStorage = object.storage }
        updatedList.append(object)
    }

    /// Sets one side of a relationship without touching the inverse.
    func setPrimitive(
        _ object: ManagedObject, relationship name: String, add target: ManagedObject?, remove: ManagedObject?
    ) throws {
        try fireFault(object)
        let i = object.entity.propertyIndex[name]!
        let r = object.entity.relationships[i - object.entity.attributes.count]
        willChange(object)
        if r.isToMany {
            var ids = try relatedIDs(of: object, at: i)
            if let remove { ids.remove(remove.objectID) }
            if let target { ids.insert(target.objectID) }
            object.storage[i] = .objectIDs(ids)
            if r.isOrdered { object.updateOrder(at: i, adding: target?.objectID, removing: remove?.objectID) }
        } else {
            object.storage[i] = .toOne(target?.objectID)
        }
    }

    /// Connects object.r to target, and target's inverse back (clearing what it held).
    private func link(_ object: ManagedObject, relationship r: RelationshipDescription, to target: ManagedObject) throws
    {
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
        if !inverse.isToMany,
            let previous = try value(of: target, at: target.entity.propertyIndex[inverse.name]!) as? ManagedObject,
            previous !== object
        {
            // The target belonged elsewhere (one-to-many or one-to-one): take it away.
            try setPrimitive(previous, relationship: r.name, add: nil, remove: target)
            if !r.isToMany { try setPrimitive(previous, relationship: r.name, add: nil, remove: nil) }
        }
        try setPrimitive(object, relationship: r.name, add: target, remove: nil)
        try setPrimitive(target, relationship: inverse.name, add: object, remove: nil)
    }

    private func unlink(_ object: ManagedObject, relationship r: RelationshipDescription, from target: ManagedObject)
        throws
    {
        try setPrimitive(object, relationship: r.name, add: nil, remove: target)
        guard let inverseName = r.inverseName, let inverse = target.entity.relationship(named: inverseName) else {
            return
        }
        if !updatesToManyInverses && !r.isToMany && inverse.isToMany { return }
        if inverse.isToMany {
            try setPrimitive(target, relationship: inverse.name, add: nil, remove: object)
        } else if (try value(of: target, at: target.entity.propertyIndex[inverse.name]!) as? ManagedObject) === object {
            try setPrimitive(target, relationship: inverse.name, add: nil, remove: object)
        }
    }
}
