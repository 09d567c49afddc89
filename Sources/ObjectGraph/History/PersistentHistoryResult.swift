import Foundation

/// What a ``PersistentHistoryChangeRequest`` returns (NSPersistentHistoryResultType); the raw
/// values are Apple's.
public enum PersistentHistoryResultType: Int, Sendable, Hashable {
    /// Whether the request succeeded: `true`.
    case statusOnly = 0
    /// The object IDs the fetched changes touched, or the deleted transactions' changes.
    case objectIDs = 1
    /// How many transactions were fetched or deleted.
    case count = 2
    /// The transactions, without their changes.
    case transactionsOnly = 3
    /// The changes alone, in order.
    case changesOnly = 4
    /// The transactions, each with its changes.
    case transactionsAndChanges = 5
}

/// The result of a ``PersistentHistoryChangeRequest`` (NSPersistentHistoryResult).
public struct PersistentHistoryResult: PersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: `result` is a constant holding one of the value types below.

    /// The type the request asked for.
    public let resultType: PersistentHistoryResultType
    /// By ``resultType``: `Bool` (status), `[ManagedObjectID]` (object IDs), `Int` (count),
    /// `[PersistentHistoryTransaction]` (transactions), `[PersistentHistoryChange]` (changes).
    public let result: Any?

    /// The transactions, when the result holds them.
    public var transactions: [PersistentHistoryTransaction]? { result as? [PersistentHistoryTransaction] }
}
