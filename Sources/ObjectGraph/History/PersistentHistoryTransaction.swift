import Foundation

/// One save's entry in a store's persistent history (NSPersistentHistoryTransaction): when,
/// who, and the objects it changed.
public struct PersistentHistoryTransaction: Sendable {
    /// When the save was written (timestamp).
    public let timestamp: Date
    /// The saving context's ``ManagedObjectContext/transactionAuthor`` (author).
    public let author: String?
    /// The saving context's ``ManagedObjectContext/name`` (contextName).
    public let contextName: String?
    /// The saving application's bundle identifier, or its process name where it has none
    /// (bundleID).
    public let bundleID: String?
    /// The saving process, by name, as Core Data records it (processID).
    public let processID: String?
    /// The UUID of the store the transaction is in (storeID).
    public let storeID: String
    /// The transaction's number in that store (transactionNumber): `Z_PK` in `ATRANSACTION`.
    public let transactionNumber: Int64
    /// The changes, in the order they were recorded (changes); nil when the request asked for
    /// transactions only.
    public let changes: [PersistentHistoryChange]?

    /// The token of this transaction (token): history fetched after it starts with the next.
    public var token: PersistentHistoryToken { PersistentHistoryToken(storeTokens: [storeID: transactionNumber]) }

    /// A did-save notification for the transaction's changes (objectIDNotification()), for
    /// ``ManagedObjectContext/checkedMergeChanges(fromContextDidSave:)``: its user info holds the
    /// inserted, updated and deleted object IDs under the did-save keys. Empty sets when the
    /// transaction was fetched without its changes.
    public func objectIDNotification() -> Notification {
        var inserted: Set<ManagedObjectID> = []
        var updated: Set<ManagedObjectID> = []
        var deleted: Set<ManagedObjectID> = []
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: updated.insert(change.changedObjectID)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        // An object inserted and changed in one transaction is an insert; deleted, a delete.
        updated.subtract(inserted)
        updated.subtract(deleted)
        return Notification(
            name: ManagedObjectContext.didSaveNotification, object: nil,
            userInfo: [
                ManagedObjectContext.insertedObjectIDsKey: inserted,
                ManagedObjectContext.updatedObjectIDsKey: updated,
                ManagedObjectContext.deletedObjectIDsKey: deleted,
            ])
    }
}
