import Foundation

/// Per-object change state: whether an object is inserted, updated or deleted, and which of its
/// values changed since it was fetched or saved, or during the current event
/// (NSManagedObject's isInserted, changedValues() and the others).
///
/// Values come as Core Data gives them: attributes as stored, a to-one relationship as its
/// object, a to-many as a `Set<ManagedObject>` (an ordered one as `[ManagedObject]`), and no
/// value as `NSNull()`. After a save or ``ManagedObjectContext/rollback()`` nothing is
/// changed; after ``ManagedObjectContext/refresh(_:mergeChanges:)`` without merging, the
/// object's changes are gone.
extension ManagedObject {
    /// Whether the object was inserted into its context and not saved yet (isInserted).
    public var isInserted: Bool {
        guard let context = managedObjectContext else { return false }
        return context.isInserted(self)
    }

    /// Whether the object, fetched or saved before, has unsaved changes (isUpdated); an
    /// inserted or deleted object is not updated.
    public var isUpdated: Bool {
        guard let context = managedObjectContext else { return false }
        return context.updatedList.contains(self) && !context.isInserted(self) && !context.isDeleted(self)
    }

    /// Whether the object will be deleted at the next save (isDeleted).
    public var isDeleted: Bool {
        guard let context = managedObjectContext else { return false }
        return context.isDeleted(self)
    }

    /// Whether the object is inserted, updated or deleted (hasChanges).
    public var hasChanges: Bool {
        guard let context = managedObjectContext else { return false }
        return context.isInserted(self) || context.updatedList.contains(self) || context.isDeleted(self)
    }

    /// Whether a persistent property's value differs from the one last fetched or saved
    /// (hasPersistentChangedValues): a value set back to what it was is no change.
    public var hasPersistentChangedValues: Bool { !changedIndices().isEmpty }

    /// The properties changed since the object was last fetched or saved, each with its new
    /// value (changedValues()). For an inserted object, every property that holds a value.
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        for i in changedIndices() { result[entity.propertyNames[i]] = presented(storage[i], at: i) }
        return result
    }

    /// The properties changed in the current event, each with the value it had when the event
    /// began (changedValuesForCurrentEvent(): "the keys and old values of persistent properties
    /// that have changed since the last posting of NSManagedObjectContextObjectsDidChange").
    /// Empty for an object inserted in this event, which had no values before it.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        guard let context = managedObjectContext, context.events.updated.contains(self),
            !context.events.inserted.contains(self), !isFault
        else { return [:] }
        context.checkConfinement()
        let before = context.valuesAtEventStart(of: self).storage
        var result: [String: Any] = [:]
        for i in storage.indices where i < before.count {
            if entity.isToManyIndex(i) && (before[i].isNull || storage[i].isNull) { continue }
            if AttributeValue.same(storage[i], before[i]) { continue }
            result[entity.propertyNames[i]] = presented(before[i], at: i)
        }
        return result
    }

    /// The values last fetched from or saved to the store for some keys, or for every
    /// property when `keys` is nil (committedValues(forKeys:)); unsaved changes do not show.
    /// An inserted object has none, and gives an empty dictionary.
    ///
    /// - Throws: ``CoreDataError`` for a key the entity does not have (naming the entity's
    ///   keys), or when the values must be loaded and the store does not have the object.
    public func committedValues(forKeys keys: [String]?) throws -> [String: Any] {
        let indices = try (keys ?? entity.propertyNames).map { try index(forKey: $0) }
        guard let context = managedObjectContext else {
            throw CoreDataError(
                exception: .objectInaccessible,
                "Can't read the committed values of \(objectID.uriString): the object is not in a context",
                objectURI: objectID.uriString)
        }
        context.checkConfinement()
        if context.isInserted(self) { return [:] }
        try context.fireFault(self)
        var result: [String: Any] = [:]
        for i in indices {
            var value = committedStorage.map { i < $0.count ? $0[i] : nil } ?? storage[i]
            // A to-many not loaded before it changed is unchanged: its store set is the
            // committed one.
            if value.isNull, entity.isToManyIndex(i) { value = .objectIDs(try context.relatedIDs(of: self, at: i)) }
            result[entity.propertyNames[i]] = presented(value, at: i)
        }
        return result
    }

    /// The indices of the properties whose values differ from the committed ones (every
    /// property with a value, for an inserted object).
    private func changedIndices() -> [Int] {
        guard let context = managedObjectContext, !isFault else { return [] }
        context.checkConfinement()
        let isNew = context.isInserted(self)
        guard isNew || committedStorage != nil else { return [] }
        var indices: [Int] = []
        for i in storage.indices {
            let isToMany = entity.isToManyIndex(i)
            if isNew {
                if storage[i].isNull { continue }
                if isToMany, storage[i].objectIDs?.isEmpty ?? true { continue }
                indices.append(i)
                continue
            }
            let committed = committedStorage.map { i < $0.count ? $0[i] : nil } ?? nil
            if isToMany && (committed.isNull || storage[i].isNull) { continue }
            if !AttributeValue.same(storage[i], committed) { indices.append(i) }
        }
        return indices
    }

    /// A stored value as Core Data presents it: relationships as objects, no value as NSNull.
    private func presented(_ stored: AttributeValue, at i: Int) -> Any {
        guard let value = stored.any else { return NSNull() }
        guard i >= entity.attributes.count, let context = managedObjectContext else { return value }
        if let id = value as? ManagedObjectID { return context.registeredObject(for: context.temporaryIDs[id] ?? id) }
        guard let ids = value as? Set<ManagedObjectID> else { return value }
        let objects = ids.map { context.registeredObject(for: $0) }
        if entity.relationships[i - entity.attributes.count].isOrdered {
            // In the relationship's current order, members it no longer holds last.
            let order = orderedIDs(at: i) { context.temporaryIDs[$0] ?? $0 }
            let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            return objects.sorted {
                (rank[$0.objectID] ?? Int.max, $0.objectID.primaryKey) < (
                    rank[$1.objectID] ?? Int.max, $1.objectID.primaryKey
                )
            }
        }
        return Set(objects)
    }
}
