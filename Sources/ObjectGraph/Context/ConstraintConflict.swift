import Foundation

/// Objects a save finds breaking one uniqueness constraint of the model: NSConstraintConflict.
///
/// Either several objects of the save share the constrained values (`databaseObject` nil),
/// or objects of the save share them with a row already in the store (`databaseObject` is
/// that row's object), or both. Snapshots hold attributes and to-one relationships, as
/// ``MergeConflict``'s do.
public final class ConstraintConflict: CustomStringConvertible {
    /// The constrained property names (constraint).
    public let constraint: [String]
    /// The entity that declares the constraint; its sub-entities' objects share it.
    public let entityName: String
    /// The values the conflicting objects share, by property name (constraintValues).
    public let constraintValues: [String: Any]
    /// The object of the row already in the store with these values; nil when the conflict is
    /// only between objects of this save (databaseObject).
    public let databaseObject: ManagedObject?
    /// The stored row's values; nil with no `databaseObject` (databaseSnapshot).
    public let databaseSnapshot: [String: Any]?
    /// The objects of this save with these values, in the order the context holds them
    /// (conflictingObjects).
    public let conflictingObjects: [ManagedObject]
    /// Each conflicting object's values as it was last read from the store; empty for a new
    /// object (conflictingSnapshots).
    public let conflictingSnapshots: [[String: Any]]

    /// The stored row behind `databaseObject`.
    let databaseRow: StoreRow?

    init(
        constraint: [String], entityName: String, constraintValues: [String: Any], databaseObject: ManagedObject?,
        databaseRow: StoreRow?, conflictingObjects: [ManagedObject]
    ) {
        self.constraint = constraint
        self.entityName = entityName
        self.constraintValues = constraintValues
        self.databaseObject = databaseObject
        self.databaseRow = databaseRow
        if let databaseObject, let databaseRow {
            self.databaseSnapshot = MergeConflict.snapshot(databaseRow.values, entity: databaseObject.entity)
        } else {
            self.databaseSnapshot = nil
        }
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingObjects.map { object in
            object.committedStorage.map { MergeConflict.snapshot($0, entity: object.entity) } ?? [:]
        }
    }

    /// The constraint, its values and the objects, in words.
    public var description: String {
        let values = constraint.map { "\($0) = \(ConstraintConflict.show(constraintValues[$0]))" }.joined(
            separator: ", ")
        var text = "\(entityName) (\(constraint.joined(separator: ", "))) with \(values): "
        text += conflictingObjects.map(\.objectID.uriString).joined(separator: ", ")
        if let databaseObject { text += " and the stored \(databaseObject.objectID.uriString)" }
        return text
    }

    private static func show(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if let string = value as? String { return "\"\(string)\"" }
        return "\(value)"
    }

    /// Error 133021 for conflicts nobody resolved: the message lists each conflict and
    /// `detailedErrors` holds one error per conflict, naming the entity, the constraint, the
    /// values and the objects.
    static func error(for list: [ConstraintConflict]) -> CoreDataError {
        let details = list.map { conflict in
            CoreDataError(
                .constraintMerge, "Uniqueness constraint broken: \(conflict)",
                objectURI: conflict.conflictingObjects.first?.objectID.uriString,
                key: conflict.constraint.joined(separator: ","))
        }
        return CoreDataError(
            .constraintMerge,
            "The save breaks a uniqueness constraint: \(list.map(\.description).joined(separator: "; ")). Nothing was saved. Give the objects other values, delete all but one, or set the context's mergePolicy to one that resolves constraint conflicts",
            objectURI: list.count == 1 ? list[0].conflictingObjects.first?.objectID.uriString : nil,
            key: list.count == 1 ? list[0].constraint.joined(separator: ",") : nil,
            detailedErrors: details
        ).reporting(list)
    }

    /// Error 133021 for a conflict between objects (or an object and a stored row) of
    /// different sub-entities of the entity declaring the constraint: no merge policy can
    /// make them one object without dropping the properties only one entity has.
    static func error(acrossEntities entities: [String], conflict: ConstraintConflict) -> CoreDataError {
        let names = entities.joined(separator: " and ")
        return CoreDataError(
            .constraintMerge,
            "The save breaks a uniqueness constraint across entities: \(conflict). The constraint (\(conflict.constraint.joined(separator: ", "))) is declared on \(conflict.entityName), and \(names) objects share its values; a merge policy cannot make a \(names) one object without losing the properties only one of them has. Nothing was saved. Give the objects other values, delete one, or use the rollback merge policy to keep the stored row",
            objectURI: conflict.conflictingObjects.first?.objectID.uriString,
            key: conflict.constraint.joined(separator: ","),
            detailedErrors: [error(for: [conflict])]
        ).reporting([conflict])
    }
}
