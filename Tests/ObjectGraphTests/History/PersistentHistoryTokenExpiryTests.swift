import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSPersistentHistoryTokenExpiredError
// (https://developer.apple.com/documentation/coredata/nspersistenthistorytokenexpirederror): 134301,
// "Error code to denote that the persistent history token has expired"; history is purged with
// NSPersistentHistoryChangeRequest.deleteHistory(before:)
// (https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest/deletehistory(before:)-5kghb).
@Suite("Persistent history token expiry")
struct PersistentHistoryTokenExpiryTests {
    /// Fetches history after `token`, returning the error it throws (nil when it fetched).
    static func expiry(_ context: ManagedObjectContext, after token: PersistentHistoryToken?) -> CoreDataError? {
        return #expect(throws: CoreDataError.self) {
            _ = try HistoryModel.history(context, .fetchHistory(after: token))
        }
    }

    @Test(
        "History after a token older than a purge fails with 134301; after the purge's own token it is whole",
        arguments: StoreKind.allCases)
    func aTokenBeforeAPurgeHasExpired(_ kind: StoreKind) throws {
        guard let saved = try PersistentHistoryTests.threeSaves(kind) else { return }
        let context = saved.context
        let all = try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?))
        #expect(all.map(\.transactionNumber) == [1, 2, 3])
        _ = try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: all[1].token))

        // The reader that purged what it read goes on from its token.
        #expect(try HistoryModel.history(context, .fetchHistory(after: all[1].token)).map(\.transactionNumber) == [3])
        // One that had read only transaction 1 would miss 2: expired, by token or by transaction.
        let error = Self.expiry(context, after: all[0].token)
        #expect(error?.code == .persistentHistoryTokenExpired)
        #expect(error?.code?.rawValue == 134301 && error?.code?.appleName == "NSPersistentHistoryTokenExpiredError")
        #expect(error?.message.contains("transaction 1") == true, "\(error?.message ?? "")")
        #expect(throws: CoreDataError.self) { _ = try HistoryModel.history(context, .fetchHistory(after: all[0])) }
        // No token, a date, or a token of other stores only: what is left, without an error.
        #expect(try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?)).count == 1)
        #expect(try HistoryModel.history(context, .fetchHistory(after: Date.distantPast)).count == 1)
        let foreign = PersistentHistoryToken(storeTokens: ["other": 1])
        #expect(try HistoryModel.history(context, .fetchHistory(after: foreign)).count == 1)
    }

    @Test(
        "After every transaction is purged, only the newest token is still good; new saves follow it",
        arguments: StoreKind.allCases)
    func purgingEverythingExpiresAllButTheLastToken(_ kind: StoreKind) throws {
        guard let saved = try PersistentHistoryTests.threeSaves(kind) else { return }
        let context = saved.context
        let all = try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?))
        _ = try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: Date.distantFuture))

        #expect(Self.expiry(context, after: all[1].token)?.code == .persistentHistoryTokenExpired)
        #expect(try HistoryModel.history(context, .fetchHistory(after: all[2].token)).isEmpty)
        let note = try context.insertNewObject(forEntityName: "Note")
        try note.checkedSetValue("Again", forKey: "title")
        try context.save()
        #expect(try HistoryModel.history(context, .fetchHistory(after: all[2].token)).map(\.transactionNumber) == [4])
        #expect(Self.expiry(context, after: all[0].token)?.code == .persistentHistoryTokenExpired)
    }
}
