import Foundation

/// A request to fetch or purge persistent history (NSPersistentHistoryChangeRequest), run with
/// ``ManagedObjectContext/execute(_:)->PersistentStoreResult`` against every SQLite store of the context's coordinator
/// that has history.
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request) as! PersistentHistoryResult
/// for transaction in result.transactions ?? [] {
///     try viewContext.checkedMergeChanges(fromContextDidSave: transaction.objectIDNotification())
///     lastToken = transaction.token
/// }
/// ```
///
/// Stores record history only when added with ``StoreOption/persistentHistoryTracking``; a
/// store without history tables gives no transactions.
public final class PersistentHistoryChangeRequest: PersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: the boundary is a constant; `resultType` is set before the request
    // is executed, on one thread, as Core Data's requests are.

    /// Where a request starts or ends.
    enum Boundary {
        case afterToken(PersistentHistoryToken?)
        case afterDate(Date)
        case beforeToken(PersistentHistoryToken?)
        case beforeDate(Date)
    }

    let boundary: Boundary
    /// What the request returns (resultType); `.transactionsAndChanges` unless set.
    public var resultType: PersistentHistoryResultType = .transactionsAndChanges

    init(_ boundary: Boundary) {
        self.boundary = boundary
    }

    /// The token the request was made with (token), when it was made with one.
    public var token: PersistentHistoryToken? {
        switch boundary {
        case .afterToken(let token), .beforeToken(let token): return token
        case .afterDate, .beforeDate: return nil
        }
    }

    /// Whether the request deletes history rather than fetching it.
    public var isDelete: Bool {
        switch boundary {
        case .beforeToken, .beforeDate: return true
        case .afterToken, .afterDate: return false
        }
    }

    /// Fetches the transactions after a token (fetchHistory(after:)); nil fetches all history.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.afterToken(token))
    }

    /// Fetches the transactions saved after a date (fetchHistory(after:)).
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.afterDate(date))
    }

    /// Fetches the transactions after a transaction (fetchHistory(after:)); nil fetches all.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest
    {
        PersistentHistoryChangeRequest(.afterToken(transaction?.token))
    }

    /// Purges the transactions up to and including a token's (deleteHistory(before:)), so
    /// that history fetched after that token is all that is left; nil purges nothing.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.beforeToken(token))
    }

    /// Purges the transactions saved before a date (deleteHistory(before:)).
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.beforeDate(date))
    }

    /// Purges the transactions up to and including a transaction (deleteHistory(before:)).
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?)
        -> PersistentHistoryChangeRequest
    {
        PersistentHistoryChangeRequest(.beforeToken(transaction?.token))
    }

    /// Runs the request against each store of the context's coordinator that keeps history,
    /// in the order the stores were added.
    public func execute(in context: ManagedObjectContext) throws -> any PersistentStoreResult {
        let stores = context.coordinator.persistentStores.compactMap { $0.backend as? PersistentHistoryStore }
        if isDelete {
            var deleted: [PersistentHistoryTransaction] = []
            for store in stores { deleted += try store.deleteHistory(boundary, withChanges: resultType == .objectIDs) }
            switch resultType {
            case .count: return PersistentHistoryResult(resultType: resultType, result: deleted.count)
            case .objectIDs:
                return PersistentHistoryResult(
                    resultType: resultType, result: deleted.flatMap { $0.changes ?? [] }.map(\.changedObjectID))
            default: return PersistentHistoryResult(resultType: resultType, result: true)
            }
        }
        let withChanges = resultType != .transactionsOnly && resultType != .count && resultType != .statusOnly
        var transactions: [PersistentHistoryTransaction] = []
        for store in stores { transactions += try store.fetchHistory(boundary, withChanges: withChanges) }
        switch resultType {
        case .statusOnly: return PersistentHistoryResult(resultType: resultType, result: true)
        case .count: return PersistentHistoryResult(resultType: resultType, result: transactions.count)
        case .objectIDs:
            // Each object once, in the order history first touched it.
            var seen: Set<ManagedObjectID> = []
            let ids = transactions.flatMap { $0.changes ?? [] }.map(\.changedObjectID).filter {
                seen.insert($0).inserted
            }
            return PersistentHistoryResult(resultType: resultType, result: ids)
        case .changesOnly:
            return PersistentHistoryResult(resultType: resultType, result: transactions.flatMap { $0.changes ?? [] })
        case .transactionsOnly, .transactionsAndChanges:
            return PersistentHistoryResult(resultType: resultType, result: transactions)
        }
    }
}
