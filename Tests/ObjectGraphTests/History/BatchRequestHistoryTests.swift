import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// Batch requests in persistent history: Apple's "Consuming Relevant Store Changes" notes that
/// batch operations bypass the context but are recorded in the store's history, which is how
/// contexts learn of them (NSBatchInsertRequest, NSBatchUpdateRequest, NSBatchDeleteRequest).
@Suite("Batch requests in persistent history")
struct BatchRequestHistoryTests {
    @Test(
        "A batch insert, update and delete are each one transaction with the context's author (NSPersistentHistoryTransaction)",
        arguments: StoreKind.allCases)
    func batchRequestsAreTransactions(_ kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let store = try HistoryModel.newStore(kind, in: directory) else { return }
        let coordinator = try HistoryModel.coordinator(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.name = "importer"
        context.transactionAuthor = "batch"

        let insert = BatchInsertRequest(
            entityName: "Note",
            objects: [["title": "a", "rank": 1], ["title": "b", "rank": 2], ["title": "c", "rank": 3]])
        insert.resultType = .objectIDs
        let inserted = try #require((try context.execute(insert) as? BatchInsertResult)?.result as? [ManagedObjectID])
        let update = BatchUpdateRequest(entityName: "Note")
        update.predicate = try Predicate(checkedFormat: "rank >= 2")
        update.propertiesToUpdate = ["body": "changed"]
        _ = try context.execute(update)
        let doomed = FetchRequest(entityName: "Note")
        doomed.predicate = try Predicate(checkedFormat: "title == 'a'")
        _ = try context.execute(BatchDeleteRequest(fetchRequest: doomed))

        let transactions = try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?))
        #expect(transactions.count == 3)
        #expect(transactions.allSatisfy { $0.author == "batch" && $0.contextName == "importer" })
        let changes = transactions.map { $0.changes ?? [] }
        #expect(changes[0].map(\.changeType) == [.insert, .insert, .insert])
        #expect(Set(changes[0].map(\.changedObjectID)) == Set(inserted))
        #expect(changes[1].map(\.changeType) == [.update, .update])
        #expect(Set(changes[1].map(\.changedObjectID)) == Set(inserted[1...]))
        #expect(changes[1].allSatisfy { $0.updatedProperties?.map(\.name) == ["body"] })
        #expect(changes[2].map(\.changeType) == [.delete])
        #expect(changes[2].first?.changedObjectID == inserted[0])
        // The title is preserved after deletion (preservesValueInHistoryOnDeletion).
        #expect(changes[2].first?.tombstone?["title"] as? String == "a")
    }

    @Test("Without tracking, a batch delete records nothing and stays one DELETE (NSPersistentHistoryTrackingKey off)")
    func untrackedStoreRecordsNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.sqlite")
        let coordinator = try HistoryModel.coordinator(url, tracking: false)
        let context = ManagedObjectContext(coordinator: coordinator)
        _ = try context.execute(BatchInsertRequest(entityName: "Note", objects: [["title": "a"]]))
        _ = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Note")))
        #expect(try context.count(for: FetchRequest(entityName: "Note")) == 0)
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables.contains("ZNOTE") && !tables.contains("ATRANSACTION"))
    }
}
