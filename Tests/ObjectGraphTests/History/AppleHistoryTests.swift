import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// Persistent history as Apple's Core Data wrote it: the CoreDataPlus SampleModel2_V1 store
/// (fixtures/apple-stores) holds one transaction of 5468 inserts made by `xctest`.
@Suite("Persistent history of a store Apple's Core Data wrote")
struct AppleHistoryTests {
    @Test(
        "fetchHistory(after: nil) reads Apple's transaction and every change (NSPersistentHistoryChangeRequest.fetchHistory(after:), NSPersistentHistoryTransaction)"
    )
    func readsApplesHistory() throws {
        if AppleFixtures.skipping() { return }
        AppleStoreContentsTests.registerTransformers()
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(AppleFixtures.sampleModel2, to: directory.url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModel2.version1())
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)

        let transactions = try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?))
        let transaction = try #require(transactions.first)
        #expect(transactions.count == 1)
        #expect(transaction.transactionNumber == 1)
        #expect(transaction.storeID == store.identifier)
        #expect(abs(transaction.timestamp.timeIntervalSinceReferenceDate - 737057647.288022) < 0.001)
        #expect(transaction.bundleID == "com.apple.dt.xctest.tool")
        #expect(transaction.processID == "xctest")
        #expect(transaction.author == nil)
        #expect(transaction.contextName == nil)

        let changes = try #require(transaction.changes)
        #expect(changes.count == 5468)
        #expect(changes.allSatisfy { $0.changeType == .insert && $0.updatedProperties == nil && $0.tombstone == nil })
        #expect(changes.map(\.changeID) == Array(1...5468))
        // Each change names its object by its own entity (GraphicNovel, Author: sub-entities).
        let byEntity = Dictionary(grouping: changes, by: \.changedObjectID.entityName).mapValues(\.count)
        #expect(byEntity == ["Book": 51, "GraphicNovel": 1, "Feedback": 444, "Page": 4970, "Author": 2])
        // And every inserted object is one the store holds: the history's IDs are the rows'.
        for entity in ["Book", "Feedback", "Page", "Writer"] {
            let request = FetchRequest(entityName: entity)
            let stored = Set(try context.fetch(request).map(\.objectID))
            let inHistory = Set(changes.map(\.changedObjectID).filter { stored.contains($0) })
            #expect(inHistory == stored, "\(entity)")
        }
        // The first change of Apple's table: Page 221.
        #expect(changes[0].changedObjectID.uriString == "x-coredata://\(store.identifier)/Page/p221")

        #expect(
            try coordinator.currentPersistentHistoryToken()
                == PersistentHistoryToken(storeTokens: [store.identifier: 1]))
        #expect(try HistoryModel.history(context, .fetchHistory(after: transaction)).isEmpty)
    }

    @Test(
        "A store ObjectGraph makes with NSPersistentHistoryTrackingKey has Apple's history tables, indexes and Z_PRIMARYKEY rows"
    )
    func trackedStoreHasApplesSchema() throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        let apple = try AppleFixtures.copy(AppleFixtures.sampleModel2, to: directory.url)
        let ours = directory.file("Ours.sqlite")
        _ = try HistoryModel.coordinator(ours, model: try SampleModel2.version1())
        func schema(_ url: URL) throws -> [String] {
            let queue = try DatabaseQueue(path: url.path)
            defer { try? queue.close() }
            return try queue.read { db in
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT sql FROM sqlite_master WHERE tbl_name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING') ORDER BY name"
                )
                    + String.fetchAll(
                        db,
                        sql:
                            "SELECT Z_ENT || ' ' || Z_NAME || ' ' || Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT"
                    )
            }
        }
        let expected = try schema(apple)
        #expect(expected.count == 14)
        #expect(try schema(ours) == expected)
    }

    @Test(
        "Saving to Apple's store with tracking on continues its history: transaction 2, change keys after Z_MAX (NSPersistentHistoryTrackingKey)"
    )
    func savingContinuesApplesHistory() throws {
        if AppleFixtures.skipping() { return }
        AppleStoreContentsTests.registerTransformers()
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(AppleFixtures.sampleModel2, to: directory.url)
        let coordinator = try HistoryModel.coordinator(url, model: try SampleModel2.version1())
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "linux"
        let request = FetchRequest(entityName: "Feedback")
        request.fetchLimit = 1
        let feedback = try #require(try context.fetch(request).first)
        let before = try feedback.checkedValue(forKey: "rating") as? Double ?? 0
        try feedback.checkedSetValue(before + 1, forKey: "rating")
        try context.save()

        let transactions = try HistoryModel.history(
            context,
            .fetchHistory(after: PersistentHistoryToken(storeTokens: [coordinator.persistentStores[0].identifier: 1])))
        let transaction = try #require(transactions.first)
        #expect(transactions.count == 1)
        #expect(transaction.transactionNumber == 2)
        #expect(transaction.author == "linux")
        let change = try #require(transaction.changes?.first)
        #expect(change.changeID == 5469)
        #expect(change.changeType == .update)
        #expect(change.changedObjectID == feedback.objectID)
        #expect(change.updatedProperties?.map(\.name) == ["rating"])
    }
}
