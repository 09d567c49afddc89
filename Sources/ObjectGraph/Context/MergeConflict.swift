import Foundation

/// One object optimistic locking found in conflict while saving: NSMergeConflict.
///
/// Snapshots hold attributes and to-one relationships (as ``ManagedObjectID``s), never
/// to-many relationships, as Apple's do; a property whose value is nil is left out.
/// This module has no row cache between the coordinator and the store, so the cached
/// snapshot is the persisted one.
public final class MergeConflict: CustomStringConvertible {
    /// The object in conflict, in the context that is saving.
    public let sourceObject: ManagedObject
    /// The object's values as the context last read them from the store.
    public let objectSnapshot: [String: Any]?
    /// The values the coordinator holds for the object: here the store's.
    public var cachedSnapshot: [String: Any]? { persistedSnapshot }
    /// The object's values in the store now; nil when another context deleted it.
    public let persistedSnapshot: [String: Any]?
    /// The row version (`Z_OPT`) the context read.
    public let oldVersionNumber: Int
    /// The row version in the store now; 0 when the object was deleted there.
    public let newVersionNumber: Int
    /// The properties this context changed since it read the object.
    public let changedKeys: [String]
    /// The properties the store changed since this context read the object.
    public let storeChangedKeys: [String]
    /// Whether this context is deleting the object (rather than changing it).
    public let isDeletion: Bool

    /// The store's row, nil when the object was deleted there.
    let storeRow: StoreRow?
    /// Set by a policy that saves the object again after another context deleted it.
    var reinserts = false

    init(
        sourceObject: ManagedObject, read: [AttributeValue], storeRow: StoreRow?, isDeletion: Bool,
        changedKeys: [String], storeChangedKeys: [String]
    ) {
        self.sourceObject = sourceObject
        self.objectSnapshot = Self.snapshot(read, entity: sourceObject.entity)
        self.persistedSnapshot = storeRow.map { Self.snapshot($0.values, entity: sourceObject.entity) }
        self.oldVersionNumber = Int(sourceObject.version)
        self.newVersionNumber = Int(storeRow?.version ?? 0)
        self.storeRow = storeRow
        self.isDeletion = isDeletion
        self.changedKeys = changedKeys
        self.storeChangedKeys = storeChangedKeys
    }

    /// The properties both sides changed.
    public var conflictingKeys: [String] { changedKeys.filter(storeChangedKeys.contains) }

    /// What the conflict is about, in words: the object's URI, the versions and the properties.
    public var description: String {
        let uri = sourceObject.objectID.uriString
        let versions =
            "version \(oldVersionNumber) read, \(newVersionNumber == 0 ? "deleted" : "\(newVersionNumber)") in the store"
        if newVersionNumber == 0 {
            return
                "\(uri) was deleted by another context while this one \(isDeletion ? "deleted it" : "changed its \(Self.list(changedKeys))") (\(versions))"
        }
        var parts: [String] = []
        if isDeletion {
            parts.append("deleted here")
        } else if !conflictingKeys.isEmpty {
            parts.append("\(Self.list(conflictingKeys)) changed here and in the store")
        }
        let onlyHere = isDeletion ? [] : changedKeys.filter { !storeChangedKeys.contains($0) }
        let onlyThere = storeChangedKeys.filter { !changedKeys.contains($0) }
        if !onlyHere.isEmpty { parts.append("\(Self.list(onlyHere)) changed here") }
        if !onlyThere.isEmpty { parts.append("\(Self.list(onlyThere)) changed in the store") }
        return "\(uri) (\(versions); \(parts.isEmpty ? "no property differs" : parts.joined(separator: "; ")))"
    }

    private static func list(_ keys: [String]) -> String { keys.isEmpty ? "nothing" : keys.joined(separator: ", ") }

    static func snapshot(_ values: [AttributeValue], entity: EntityDescription) -> [String: Any] {
        var result: [String: Any] = [:]
        for (i, name) in entity.propertyNames.enumerated() where i < values.count {
            if i >= entity.attributes.count, entity.relationships[i - entity.attributes.count].isToMany { continue }
            if let value = values[i].any { result[name] = value }
        }
        return result
    }

    /// Error 133020 for conflicts nobody resolved: the message names each object and property,
    /// `detailedErrors` holds one error per object and property in conflict, and
    /// `conflictList` the conflicts themselves, as Apple's userInfo does.
    static func error(for list: [MergeConflict]) -> CoreDataError {
        var details: [CoreDataError] = []
        for conflict in list {
            let uri = conflict.sourceObject.objectID.uriString
            let keys = conflict.newVersionNumber == 0 || conflict.isDeletion ? [] : conflict.conflictingKeys
            if keys.isEmpty {
                details.append(CoreDataError(.merge, "Could not merge changes to \(conflict)", objectURI: uri))
            }
            for key in keys {
                details.append(
                    CoreDataError(
                        .merge, "Could not merge changes: \(key) of \(uri) was changed here and by another context",
                        objectURI: uri, key: key))
            }
        }
        let objects = list.map(\.description).joined(separator: ", ")
        return CoreDataError(
            .merge,
            "Could not merge changes: another context saved \(objects) first. Refresh the objects (refresh(_:mergeChanges:)) and save again, or set the context's mergePolicy",
            objectURI: list.count == 1 ? list[0].sourceObject.objectID.uriString : nil,
            key: list.count == 1 && list[0].conflictingKeys.count == 1 ? list[0].conflictingKeys[0] : nil,
            detailedErrors: details
        ).reporting(list)
    }
}
