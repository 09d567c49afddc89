import Foundation
import GRDB

/// When history fetched after a token fails with 134301 (NSPersistentHistoryTokenExpiredError,
/// "the persistent history token has expired"): one rule for the SQLite and PostgreSQL stores,
/// which keep history in the same tables and read it through the same reader.
///
/// A purge (`PersistentHistoryChangeRequest.deleteHistory(before:)`) deletes the oldest
/// transactions, up to a token or a date. History after a token no older than every deleted
/// transaction is whole, and is fetched: the usual pattern, which purges what it has read.
/// History after an older token has lost transactions its reader never saw, and fetching it
/// throws rather than return a history with a hole in it.
///
/// Transactions are numbered without gaps (`Z_PRIMARYKEY`'s `Z_MAX` rises inside the save's
/// own transaction, so a failed save takes no number): the deleted ones are exactly those
/// below the first one kept, or every one numbered when none is kept.
extension RelationalHistoryReader {
    /// What the rule reads, in one row: the first transaction kept and the last one numbered.
    static let horizonSQL =
        "SELECT (SELECT MIN(Z_PK) FROM ATRANSACTION), "
        + "(SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(RelationalHistorySchema.transactionEntity))"

    /// The number of the newest deleted transaction, or 0 when none was deleted.
    static func purgedThrough(firstKept: Int64?, lastNumbered: Int64?) -> Int64 {
        firstKept.map { $0 - 1 } ?? lastNumbered ?? 0
    }

    /// Throws 134301 when `boundary` fetches after a token of this store older than a deleted
    /// transaction. Other boundaries, a nil token and a token of other stores only (which asks
    /// for all of this store's history) read nothing and pass.
    func checkTokenNotExpired(_ boundary: PersistentHistoryChangeRequest.Boundary) throws {
        guard case .afterToken(let token) = boundary,
            let number = token?.transactionNumber(forStore: storeIdentifier)
        else { return }
        let horizon = try statements.fetch(Self.horizonSQL, []).first ?? []
        let purged = Self.purgedThrough(
            firstKept: horizon.first.flatMap(Int64.fromDatabaseValue),
            lastNumbered: horizon.dropFirst().first.flatMap(Int64.fromDatabaseValue))
        guard number < purged else { return }
        throw CoreDataError(
            .persistentHistoryTokenExpired,
            "The persistent history token (transaction \(number)) of the store at \(storeName) has expired: "
                + "the history up to transaction \(purged) was deleted, so what followed the token is no "
                + "longer all there. Read the objects again, then fetch history after a new token "
                + "(currentPersistentHistoryToken(fromStores:))")
    }
}
