import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// Recording and reading persistent history (Apple's "Consuming Relevant Store Changes" and
/// the NSPersistentHistory* classes).
@Suite("Persistent history")
struct PersistentHistoryTests {
    /// A store with three transactions: two notes inserted, one's title changed, one deleted.
    struct Saved {
        let directory: TemporaryDirectory
        let coordinator: PersistentStoreCoordinator
        let context: ManagedObjectContext
        let first: ManagedObjectID
        let second: ManagedObjectID
    }

    static func threeSaves(_ kind: StoreKind = .sqlite, test: String = #function) throws -> Saved? {
        let directory = try TemporaryDirectory()
        guard let description = try HistoryModel.newStore(kind, in: directory, test: test) else { return nil }
        let coordinator = try HistoryModel.coordinator(description)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.name = "viewContext"
        context.transactionAuthor = "app"
        let folder = try context.insertNewObject(forEntityName: "Folder")
        let first = try context.insertNewObject(forEntityName: "Note")
        try first.checkedSetValue("Groceries", forKey: "title")
        try first.checkedSetValue(folder, forKey: "folder")
        let second = try context.insertNewObject(forEntityName: "Note")
        try second.checkedSetValue("Taxes", forKey: "title")
        try context.save()
        try first.checkedSetValue("Groceries and wine", forKey: "title")
        try first.checkedSetValue(2, forKey: "rank")
        try context.save()
        context.transactionAuthor = "cleanup"
        try context.checkedDelete(second)
        try context.save()
        return Saved(
            directory: directory, coordinator: coordinator, context: context, first: first.objectID,
            second: second.objectID)
    }

    @Test(
        "Each save is a transaction with its author, context name and changes (NSPersistentHistoryTransaction, transactionAuthor, NSPersistentHistoryChange)",
        arguments: StoreKind.allCases)
    func savesAreTransactions(_ kind: StoreKind) throws {
        guard let saved = try Self.threeSaves(kind) else { return }
        let transactions = try HistoryModel.history(saved.context, .fetchHistory(after: nil as PersistentHistoryToken?))
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3])
        #expect(transactions.map(\.author) == ["app", "app", "cleanup"])
        #expect(
            transactions.allSatisfy {
                $0.contextName == "viewContext" && $0.processID == ProcessInfo.processInfo.processName
            })
        #expect(transactions.allSatisfy { $0.storeID == saved.coordinator.persistentStores[0].identifier })
        #expect(zip(transactions, transactions.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })

        let inserts = try #require(transactions[0].changes)
        #expect(inserts.map(\.changeType) == [.insert, .insert, .insert])
        #expect(
            Set(inserts.map(\.changedObjectID))
                == Set([saved.first, saved.second]).union(
                    inserts.filter { $0.changedObjectID.entityName == "Folder" }.map(\.changedObjectID)))

        let update = try #require(transactions[1].changes?.first)
        #expect(transactions[1].changes?.count == 1)
        #expect(update.changeType == .update)
        #expect(update.changedObjectID == saved.first)
        #expect(Set(update.updatedProperties?.map(\.name) ?? []) == ["rank", "title"])
        #expect(update.tombstone == nil)

        let delete = try #require(transactions[2].changes?.first)
        #expect(delete.changeType == .delete)
        #expect(delete.changedObjectID == saved.second)
        #expect(delete.updatedProperties == nil)
        // Only the preserved attribute is in the tombstone (preservesValueInHistoryOnDeletion).
        #expect(delete.tombstone?.count == 1)
        #expect(delete.tombstone?["title"] as? String == "Taxes")
    }

    @Test(
        "The rows are Core Data's: strings once in ATRANSACTIONSTRING, ZCOLUMNS only on updates, ZTOMBSTONE0 on deletes, Z_MAX of 16001-16003"
    )
    func rowsAreCoreDatas() throws {
        let saved = try #require(try Self.threeSaves())
        let queue = try DatabaseQueue(path: saved.directory.file("Notes.sqlite").path)
        defer { try? queue.close() }
        try queue.read { db in
            let strings = try String.fetchAll(db, sql: "SELECT ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK")
            #expect(strings.count == Set(strings).count)
            #expect(strings.contains("app") && strings.contains("cleanup") && strings.contains("viewContext"))
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT Z_ENT, ZCHANGETYPE, ZCOLUMNS IS NULL, ZTOMBSTONE0, Z_OPT IS NULL FROM ACHANGE ORDER BY Z_PK"
            )
            #expect(rows.map { $0[0] as Int } == Array(repeating: 16001, count: 5))
            #expect(rows.map { $0[1] as Int } == [0, 0, 0, 1, 2])
            #expect(rows.map { $0[2] as Bool } == [true, true, true, false, true])
            #expect(rows[4][3] as String? == "Taxes")
            #expect(rows.allSatisfy { $0[4] as Bool })
            let maxes = try Row.fetchAll(
                db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT"
            ).map { [$0[0] as Int64, $0[1] as Int64] }
            #expect(maxes == [[16001, 5], [16002, 3], [16003, Int64(strings.count)]])
            #expect(
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(*) FROM ATRANSACTION WHERE Z_ENT = 16002 AND ZAUTHORTS IS NOT NULL AND ZPROCESSIDTS IS NOT NULL"
                ) == 3)
        }
    }

    @Test(
        "fetchHistory(after:) a token, a transaction or a date gives the later transactions; tokens are Codable (NSPersistentHistoryToken)",
        arguments: StoreKind.allCases)
    func fetchAfterTokenTransactionAndDate(_ kind: StoreKind) throws {
        guard let saved = try Self.threeSaves(kind) else { return }
        let all = try HistoryModel.history(saved.context, .fetchHistory(after: nil as PersistentHistoryToken?))
        let token = all[0].token
        let data = try JSONEncoder().encode(token)
        let decoded = try JSONDecoder().decode(PersistentHistoryToken.self, from: data)
        #expect(decoded == token)
        #expect(
            try HistoryModel.history(saved.context, .fetchHistory(after: decoded)).map(\.transactionNumber) == [2, 3])
        #expect(try HistoryModel.history(saved.context, .fetchHistory(after: all[1])).map(\.transactionNumber) == [3])
        #expect(
            try HistoryModel.history(saved.context, .fetchHistory(after: all[1].timestamp)).map(\.transactionNumber)
                == [3])
        #expect(try HistoryModel.history(saved.context, .fetchHistory(after: Date.distantPast)).count == 3)
        #expect(try saved.coordinator.currentPersistentHistoryToken(fromStores: nil) == all[2].token)
        // A token of another store says nothing of this one: all of its history.
        #expect(
            try HistoryModel.history(
                saved.context, .fetchHistory(after: PersistentHistoryToken(storeTokens: ["other": 9]))
            ).count == 3)
    }

    @Test(
        "Result types: count, object IDs, transactions only, changes only, status (NSPersistentHistoryResultType)",
        arguments: StoreKind.allCases)
    func resultTypes(_ kind: StoreKind) throws {
        guard let saved = try Self.threeSaves(kind) else { return }
        func run(_ type: PersistentHistoryResultType) throws -> Any? {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.resultType = type
            let result = try #require(try saved.context.execute(request) as? PersistentHistoryResult)
            #expect(result.resultType == type)
            return result.result
        }
        #expect(try run(.count) as? Int == 3)
        #expect(try run(.statusOnly) as? Bool == true)
        let transactions = try #require(try run(.transactionsOnly) as? [PersistentHistoryTransaction])
        #expect(transactions.count == 3 && transactions.allSatisfy { $0.changes == nil })
        #expect((try run(.changesOnly) as? [PersistentHistoryChange])?.count == 5)
        let ids = try #require(try run(.objectIDs) as? [ManagedObjectID])
        #expect(ids.count == 3 && ids.contains(saved.first) && ids.contains(saved.second))
    }

    @Test(
        "deleteHistory(before:) a token, transaction or date purges the transactions up to it and their changes (NSPersistentHistoryChangeRequest.deleteHistory(before:))"
    )
    func deleteHistory() throws {
        let saved = try #require(try Self.threeSaves())
        let all = try HistoryModel.history(saved.context, .fetchHistory(after: nil as PersistentHistoryToken?))
        let request = PersistentHistoryChangeRequest.deleteHistory(before: all[0].token)
        request.resultType = .count
        #expect((try saved.context.execute(request) as? PersistentHistoryResult)?.result as? Int == 1)
        #expect(
            try HistoryModel.history(saved.context, .fetchHistory(after: nil as PersistentHistoryToken?)).map(
                \.transactionNumber) == [2, 3])
        // Purging leaves the token where it was, and what follows it.
        #expect(
            try HistoryModel.history(saved.context, .fetchHistory(after: all[0].token)).map(\.transactionNumber) == [
                2, 3,
            ])
        _ = try saved.context.execute(PersistentHistoryChangeRequest.deleteHistory(before: all[1]))
        #expect(
            try HistoryModel.history(saved.context, .fetchHistory(after: nil as PersistentHistoryToken?)).map(
                \.transactionNumber) == [3])
        _ = try saved.context.execute(PersistentHistoryChangeRequest.deleteHistory(before: Date.distantFuture))
        #expect(try HistoryModel.history(saved.context, .fetchHistory(after: nil as PersistentHistoryToken?)).isEmpty)
        let queue = try DatabaseQueue(path: saved.directory.file("Notes.sqlite").path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE") } == 0)
        // Keys are not reused after a purge: the next transaction is 4.
        let note = try saved.context.insertNewObject(forEntityName: "Note")
        try note.checkedSetValue("Again", forKey: "title")
        try saved.context.save()
        #expect(try saved.coordinator.currentPersistentHistoryToken()?.storeTokens.values.first == 4)
    }

    @Test(
        "objectIDNotification() merges another coordinator's saves into a live context (NSPersistentHistoryTransaction.objectIDNotification())",
        arguments: StoreKind.allCases)
    func objectIDNotificationMerges(_ kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let url = try HistoryModel.newStore(kind, in: directory) else { return }
        let writer = ManagedObjectContext(coordinator: try HistoryModel.coordinator(url))
        let note = try writer.insertNewObject(forEntityName: "Note")
        try note.checkedSetValue("Draft", forKey: "title")
        let doomed = try writer.insertNewObject(forEntityName: "Note")
        try doomed.checkedSetValue("Old", forKey: "title")
        try writer.save()

        let readerCoordinator = try HistoryModel.coordinator(url)
        let reader = ManagedObjectContext(coordinator: readerCoordinator)
        var token = try readerCoordinator.currentPersistentHistoryToken()
        let seen = try reader.existingObject(with: note.objectID)
        #expect(try seen.checkedValue(forKey: "title") as? String == "Draft")
        let seenDoomed = try reader.existingObject(with: doomed.objectID)

        try note.checkedSetValue("Final", forKey: "title")
        try writer.checkedDelete(doomed)
        try writer.save()

        let transactions = try HistoryModel.history(reader, .fetchHistory(after: token))
        #expect(transactions.count == 1)
        for transaction in transactions {
            try reader.checkedMergeChanges(fromContextDidSave: transaction.objectIDNotification())
            token = transaction.token
        }
        #expect(try seen.checkedValue(forKey: "title") as? String == "Final")
        #expect(seenDoomed.managedObjectContext == nil)
        let info = try #require(transactions.first?.objectIDNotification().userInfo)
        #expect(info[ManagedObjectContext.updatedObjectIDsKey] as? Set<ManagedObjectID> == [note.objectID])
        #expect(info[ManagedObjectContext.deletedObjectIDsKey] as? Set<ManagedObjectID> == [doomed.objectID])
        #expect(try HistoryModel.history(reader, .fetchHistory(after: token)).isEmpty)
    }

    @Test(
        "Without NSPersistentHistoryTrackingKey a store has no history tables and the same metadata and version hashes")
    func noTrackingNoTables() throws {
        let directory = try TemporaryDirectory()
        let plain = try HistoryModel.coordinator(directory.file("Plain.sqlite"), tracking: false)
        let tracked = try HistoryModel.coordinator(directory.file("Tracked.sqlite"))
        let plainMetadata = plain.persistentStores[0].metadata
        let trackedMetadata = tracked.persistentStores[0].metadata
        #expect(Set(plainMetadata.keys) == Set(trackedMetadata.keys))
        #expect(
            plainMetadata["NSStoreModelVersionHashes"] as? [String: Data] == trackedMetadata[
                "NSStoreModelVersionHashes"] as? [String: Data])
        #expect(
            plainMetadata["NSStoreModelVersionHashesDigest"] as? String == trackedMetadata[
                "NSStoreModelVersionHashesDigest"] as? String)
        let context = ManagedObjectContext(coordinator: plain)
        try context.insertNewObject(forEntityName: "Note").checkedSetValue("x", forKey: "title")
        try context.save()
        #expect(try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?)).isEmpty)
        #expect(try plain.currentPersistentHistoryToken() == nil)
        let queue = try DatabaseQueue(path: directory.file("Plain.sqlite").path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try db.tableExists("ATRANSACTION") } == false)
    }

    @Test(
        "Turning tracking on for an existing store adds the tables; its data stays (NSPersistentHistoryTrackingKey)",
        arguments: StoreKind.allCases)
    func trackingAddedLater(_ kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let url = try HistoryModel.newStore(kind, in: directory) else { return }
        do {
            let context = ManagedObjectContext(coordinator: try HistoryModel.coordinator(url, tracking: false))
            try context.insertNewObject(forEntityName: "Note").checkedSetValue("Before", forKey: "title")
            try context.save()
        }
        let context = ManagedObjectContext(coordinator: try HistoryModel.coordinator(url))
        #expect(try context.count(for: FetchRequest(entityName: "Note")) == 1)
        try context.insertNewObject(forEntityName: "Note").checkedSetValue("After", forKey: "title")
        try context.save()
        let transactions = try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?))
        #expect(transactions.count == 1)
        #expect(transactions.first?.changes?.count == 1)
    }

    @Test("A history row naming no entity of the model is an error naming the row, not skipped")
    func unknownEntityIsAnError() throws {
        let saved = try #require(try Self.threeSaves())
        let queue = try DatabaseQueue(path: saved.directory.file("Notes.sqlite").path)
        try queue.write { db in try db.execute(sql: "UPDATE ACHANGE SET ZENTITY = 99 WHERE Z_PK = 4") }
        try queue.close()
        #expect {
            _ = try saved.context.execute(
                PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
        } throws: { error in
            let message = (error as? CoreDataError)?.message ?? ""
            return message.contains("Z_PK = 4") && message.contains("ZENTITY = 99")
        }
    }
}
