import Foundation

/// A to-many relationship as a collection to edit in place, as Apple's mutableSetValue(forKey:)
/// and mutableOrderedSetValue(forKey:) give one: adding or removing an object changes the
/// relationship and keeps its inverse in step.
extension ManagedObject {
    /// The objects of a to-many relationship, to add and remove objects with
    /// (mutableSetValue(forKey:)); a key that is not a to-many stops the program, as Apple's
    /// raises.
    public func mutableSetValue(forKey key: String) -> MutableRelationshipSet {
        do { return try checkedMutableSetValue(forKey: key) } catch { Self.raise(error) }
    }

    /// The objects of a to-many relationship to edit, throwing ``CoreDataError`` for a key that
    /// is not a to-many.
    public func checkedMutableSetValue(forKey key: String) throws -> MutableRelationshipSet {
        try checkToMany(key, ordered: false)
        return MutableRelationshipSet(object: self, key: key)
    }

    /// The objects of an ordered to-many relationship, to add, insert and remove objects with
    /// (mutableOrderedSetValue(forKey:)); a key that is not an ordered to-many stops the program.
    public func mutableOrderedSetValue(forKey key: String) -> MutableRelationshipOrderedSet {
        do {
            try checkToMany(key, ordered: true)
            return MutableRelationshipOrderedSet(object: self, key: key)
        } catch {
            Self.raise(error)
        }
    }

    /// Throws unless `key` names a to-many relationship (an ordered one when `ordered`).
    private func checkToMany(_ key: String, ordered: Bool) throws {
        let i = try index(forKey: key)
        guard i >= entity.attributes.count, case let r = entity.relationships[i - entity.attributes.count], r.isToMany,
            !ordered || r.isOrdered
        else {
            throw CoreDataError(
                exception: .invalidArgument,
                "\(entity.name).\(key) is not \(ordered ? "an ordered" : "a") "
                    + "to-many relationship", objectURI: objectID.uriString, key: key)
        }
    }
}

/// The objects of a to-many relationship, editable: adding or removing keeps the inverse
/// relationship in step (the NSMutableSet of mutableSetValue(forKey:)).
///
/// Apple's methods (`add(_:)`, `remove(_:)`, `addObjects(from:)`, `removeAllObjects()`) stop the
/// program where Apple's raise (an object of another entity, an object in no context); the
/// throwing forms are ``insert(_:)``, ``checkedRemove(_:)`` and ``objects()``.
public struct MutableRelationshipSet: Sequence {
    let object: ManagedObject
    let key: String

    /// The objects now in the relationship.
    public func objects() throws -> Set<ManagedObject> {
        let value = try object.checkedValue(forKey: key)
        return (value as? Set<ManagedObject>) ?? (value as? [ManagedObject]).map(Set.init) ?? []
    }

    /// Adds an object, throwing ``CoreDataError`` for one the relationship cannot hold.
    public func insert(_ member: ManagedObject) throws {
        var current = try objects()
        current.insert(member)
        try object.checkedSetValue(current, forKey: key)
    }

    /// Removes an object, throwing ``CoreDataError`` where ``remove(_:)`` stops the program.
    public func checkedRemove(_ member: ManagedObject) throws {
        var current = try objects()
        current.remove(member)
        try object.checkedSetValue(current, forKey: key)
    }

    /// The number of objects (count).
    public var count: Int { allObjects.count }
    /// The objects, in no particular order (allObjects).
    public var allObjects: [ManagedObject] { Array(raising { try objects() }) }
    /// Whether an object is in the relationship (contains(_:)).
    public func contains(_ member: ManagedObject) -> Bool { raising { try objects().contains(member) } }
    /// Adds an object (add(_:)).
    public func add(_ member: ManagedObject) { raising { try insert(member) } }
    /// Removes an object (remove(_:)).
    public func remove(_ member: ManagedObject) { raising { try checkedRemove(member) } }
    /// Adds objects (addObjects(from:)).
    public func addObjects(from members: [ManagedObject]) {
        raising { try object.checkedSetValue(try objects().union(members), forKey: key) }
    }
    /// Empties the relationship (removeAllObjects()).
    public func removeAllObjects() { raising { try object.checkedSetValue(Set<ManagedObject>(), forKey: key) } }
    /// Iterates over the objects now in the relationship.
    public func makeIterator() -> Array<ManagedObject>.Iterator { allObjects.makeIterator() }

    private func raising<T>(_ body: () throws -> T) -> T {
        do { return try body() } catch { ManagedObject.raise(error) }
    }
}

/// The objects of an ordered to-many relationship, editable in order: inserting or removing
/// keeps the inverse in step (the NSMutableOrderedSet of mutableOrderedSetValue(forKey:)).
/// Its methods stop the program where Apple's raise.
public struct MutableRelationshipOrderedSet: Sequence {
    let object: ManagedObject
    let key: String

    /// The objects in order (array).
    public var array: [ManagedObject] {
        raising { (try object.checkedValue(forKey: key) as? [ManagedObject]) ?? [] }
    }
    /// The number of objects (count).
    public var count: Int { array.count }
    /// The object at a position (object(at:)).
    public func object(at index: Int) -> ManagedObject { array[index] }
    /// The position of an object, or `NSNotFound` (index(of:)).
    public func index(of member: ManagedObject) -> Int { array.firstIndex(of: member) ?? NSNotFound }
    /// Whether an object is in the relationship (contains(_:)).
    public func contains(_ member: ManagedObject) -> Bool { array.contains(member) }
    /// Adds an object at the end, unless it is there already (add(_:)).
    public func add(_ member: ManagedObject) { edit { if !$0.contains(member) { $0.append(member) } } }
    /// Inserts an object at a position, unless it is there already (insert(_:at:)).
    public func insert(_ member: ManagedObject, at index: Int) {
        edit { if !$0.contains(member) { $0.insert(member, at: index) } }
    }
    /// Removes an object (remove(_:)).
    public func remove(_ member: ManagedObject) { edit { $0.removeAll { $0 === member } } }
    /// Removes the object at a position (removeObject(at:)).
    public func removeObject(at index: Int) { edit { _ = $0.remove(at: index) } }
    /// Puts an object in place of the one at a position (replaceObject(at:with:)).
    public func replaceObject(at index: Int, with member: ManagedObject) { edit { $0[index] = member } }
    /// Moves objects to a new position (moveObjects(at:to:)).
    public func moveObjects(at indexes: IndexSet, to index: Int) {
        edit { members in
            let moving = indexes.map { members[$0] }
            for i in indexes.reversed() { members.remove(at: i) }
            members.insert(contentsOf: moving, at: Swift.min(index, members.count))
        }
    }
    /// Empties the relationship (removeAllObjects()).
    public func removeAllObjects() { edit { $0.removeAll() } }
    /// Iterates over the objects in order.
    public func makeIterator() -> Array<ManagedObject>.Iterator { array.makeIterator() }

    private func edit(_ change: (inout [ManagedObject]) -> Void) {
        var members = array
        change(&members)
        raising { try object.checkedSetValue(members, forKey: key) }
    }

    private func raising<T>(_ body: () throws -> T) -> T {
        do { return try body() } catch { ManagedObject.raise(error) }
    }
}
