import Foundation

/// What a persistent history change did to its object (NSPersistentHistoryChangeType); the raw
/// values are those of `ZCHANGETYPE` in the store.
public enum PersistentHistoryChangeType: Int, Sendable, Hashable {
    /// The object was inserted.
    case insert = 0
    /// Some of the object's properties changed (``PersistentHistoryChange/updatedProperties``).
    case update = 1
    /// The object was deleted (its preserved values are in ``PersistentHistoryChange/tombstone``).
    case delete = 2
}

/// One object's insertion, update or deletion in a persistent history transaction
/// (NSPersistentHistoryChange): a row of `ACHANGE`.
public struct PersistentHistoryChange: @unchecked Sendable {
    // @unchecked Sendable: every property is a constant; `tombstone` holds only attribute
    // values (strings, numbers, dates, data, UUIDs, URLs), which are immutable.

    /// The change's number in the store (changeID): `Z_PK` in `ACHANGE`.
    public let changeID: Int64
    /// Insert, update or delete (changeType).
    public let changeType: PersistentHistoryChangeType
    /// The object that changed (changedObjectID).
    public let changedObjectID: ManagedObjectID
    /// The properties an update changed (updatedProperties); nil for an insert or delete.
    public let updatedProperties: Set<PropertyDescription>?
    /// The values a deletion preserved, by attribute name, for the attributes marked
    /// preservesValueInHistoryOnDeletion (tombstone); nil for an insert or update.
    public let tombstone: [String: Any]?
    /// The number of the transaction the change belongs to: `ZTRANSACTIONID` in `ACHANGE`.
    public let transactionNumber: Int64
}
