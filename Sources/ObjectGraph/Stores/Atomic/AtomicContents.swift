import Foundation

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

    /// The save that puts these contents into an empty SQL store of `storeIdentifier`: every
    /// row, in key order, and every link.
    func insertion(model: ManagedObjectModel, storeIdentifier: String) -> StoreChanges {
        var changes = StoreChanges()
        changes.inserted = rows.values.flatMap(\.values).sorted { $0.primaryKey < $1.primaryKey }
        for (key, pairs) in links {
            let parts = key.split(separator: ".").map(String.init)
            guard parts.count == 2, let owner = model.entitiesByName[parts[0]],
                let r = owner.relationship(named: parts[1])
            else { continue }
            for pair in pairs.sorted(by: { $0.lexicographicallyPrecedes($1) }) where pair.count == 2 {
                changes.linksAdded.append(
                    (
                        key,
                        ManagedObjectID(entityName: owner.name, storeIdentifier: storeIdentifier, primaryKey: pair[0]),
                        ManagedObjectID(
                            entityName: r.destinationEntityName, storeIdentifier: storeIdentifier, primaryKey: pair[1])
                    ))
            }
        }
        return changes
    }
}

// The XML and binary store files hold objects (``AtomicFileObject``), not rows; these turn
// one into the other. The init is in an extension so that `AtomicContents()` stays.
extension AtomicContents {
    /// Every row as the files hold it, in key order.
    func fileObjects(model: ManagedObjectModel) -> [AtomicFileObject] {
        var objects: [AtomicFileObject] = []
        let allRows = rows.values.flatMap(\.values).sorted { $0.primaryKey < $1.primaryKey }
        for row in allRows {
            guard let entity = model.entitiesByName[row.entityName] else { continue }
            var object = AtomicFileObject(entity: row.entityName, key: row.primaryKey, version: row.version)
            for (i, a) in entity.attributes.enumerated() where !a.isTransient {
                if let v = row.values[i].any { object.attributes[a.name] = v }
            }
            for (n, r) in entity.relationships.enumerated() {
                if !r.isToMany {
                    if let id = row.values[entity.attributes.count + n].objectID {
                        object.toOne[r.name] = id.primaryKey
                    }
                    continue
                }
                guard let inverse = model.inverseRelationship(of: r), inverse.isToMany else { continue }
                let (key, isOwner) = model.manyToManyKey(entity: row.entityName, relationship: r)
                guard isOwner else { continue }
                let keys = (links[key] ?? []).filter { $0[0] == row.primaryKey }.map { $0[1] }.sorted()
                if !keys.isEmpty { object.toMany[r.name] = keys }
            }
            objects.append(object)
        }
        return objects
    }

    /// The largest key, version or last key a file may hold. Each counts up from what the file
    /// says (the next insert's key, the next save's version), so one near Int64.max trapped on
    /// overflow at the first insert or save after reading (found while making the store fuzzers
    /// write what they read); 2^62 leaves as many again.
    static let largestKey: Int64 = 1 << 62

    /// The contents a file's objects and last keys make; an error for a key beyond
    /// ``largestKey``, an id used twice, an unknown entity or a to-one to a missing object.
    init(fileObjects objects: [AtomicFileObject], lastKeys: [String: Int64], model: ManagedObjectModel) throws {
        for (root, last) in lastKeys where last > Self.largestKey {
            throw CoreDataError(
                .persistentStoreOpen,
                "the last key of \(root) is \(last), beyond the largest a store may hold (\(Self.largestKey))")
        }
        for object in objects where object.key > Self.largestKey || object.version > Self.largestKey {
            throw CoreDataError(
                .persistentStoreOpen,
                "object z\(object.key) (\(object.entity), version \(object.version)) has a key or version beyond the largest a store may hold (\(Self.largestKey))"
            )
        }
        self.lastKeys = lastKeys
        // Keys are unique within an inheritance tree (a store moved from SQLite numbers each
        // table on its own), so a relationship's key is looked up in its destination's tree.
        var entityOfKey: [String: [Int64: String]] = [:]
        for object in objects {
            guard let root = model.entitiesByName[object.entity]?.rootEntityName else { continue }
            // Two objects with one id would be merged into one, silently losing the other.
            if let first = entityOfKey[root]?[object.key] {
                throw CoreDataError(
                    .persistentStoreOpen,
                    "the id z\(object.key) is used twice (a \(first) and a \(object.entity)); every object needs its own id"
                )
            }
            entityOfKey[root, default: [:]][object.key] = object.entity
        }
        func destination(_ r: RelationshipDescription, _ key: Int64) -> String? {
            model.entitiesByName[r.destinationEntityName].flatMap { entityOfKey[$0.rootEntityName]?[key] }
        }
        for object in objects {
            guard let entity = model.entitiesByName[object.entity] else {
                throw CoreDataError(
                    .persistentStoreOpen,
                    "object z\(object.key) is of the entity \(object.entity), which the model does not have")
            }
            var values = [AttributeValue](repeating: .null, count: entity.attributes.count + entity.relationships.count)
            for (i, a) in entity.attributes.enumerated() { values[i] = AttributeValue(object.attributes[a.name]) }
            for (n, r) in entity.relationships.enumerated() where !r.isToMany {
                guard let key = object.toOne[r.name] else { continue }
                guard let destination = destination(r, key) else {
                    throw CoreDataError(
                        .persistentStoreOpen,
                        "object z\(object.key) (\(object.entity)) has \(r.name) pointing to z\(key), which is not in the store"
                    )
                }
                values[entity.attributes.count + n] = .objectID(
                    ManagedObjectID(entityName: destination, storeIdentifier: "", primaryKey: key))
            }
            for (name, keys) in object.toMany {
                guard let r = entity.relationship(named: name) else { continue }
                let (linkKey, _) = model.manyToManyKey(entity: object.entity, relationship: r)
                for key in keys where destination(r, key) != nil {
                    links[linkKey, default: []].insert([object.key, key])
                }
            }
            rows[entity.rootEntityName, default: [:]][object.key] = StoreRow(
                entityName: object.entity, primaryKey: object.key, version: object.version, values: values)
            self.lastKeys[entity.rootEntityName] = max(self.lastKeys[entity.rootEntityName, default: 0], object.key)
        }
    }

    /// Store IDs inside rows carry the store's UUID once it is known.
    func stamped(identifier: String) -> AtomicContents {
        var stamped = self
        for (root, tree) in rows {
            for (key, row) in tree {
                var row = row
                row.values = row.values.map { value in
                    guard let id = value.objectID else { return value }
                    return .objectID(
                        ManagedObjectID(
                            entityName: id.entityName, storeIdentifier: identifier, primaryKey: id.primaryKey))
                }
                stamped.rows[root]![key] = row
            }
        }
        return stamped
    }
}

/// One object as the XML and binary store files hold it: values by property name,
/// relationships as keys.
struct AtomicFileObject {
    var entity: String
    var key: Int64
    var version: Int64
    var attributes: [String: Any] = [:]
    /// To-one relationships: destination key.
    var toOne: [String: Int64] = [:]
    /// Many-to-many relationships, on the side that names the pair: destination keys.
    var toMany: [String: [Int64]] = [:]
}
