import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// Tombstones from an Xcode model's "Preserve After Deletion", and the store's entry point for
/// rows written without objects (batch requests), which Apple records in history too.
@Suite("Persistent history: tombstones and batch rows")
struct HistoryRecordingTests {
    static let diaryModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="1" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Entry" representedClassName="Entry" syncable="YES" codeGenerationType="class">
                <attribute name="text" optional="YES" attributeType="String"/>
                <attribute name="day" optional="YES" attributeType="Date" usesScalarValueType="NO" preserveAfterDeletion="YES"/>
                <attribute name="uuid" optional="YES" attributeType="UUID" usesScalarValueType="NO" preserveAfterDeletion="YES"/>
            </entity>
        </model>
        """

    @Test(
        "An Xcode model's preserveAfterDeletion attributes are a deletion's tombstone, with their types (NSPersistentHistoryChange.tombstone, preservesValueInHistoryOnDeletion)",
        arguments: StoreKind.allCases)
    func xcodeModelTombstones(_ kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let modelURL = directory.file("Diary.xcdatamodel")
        try FileManager.default.createDirectory(at: modelURL, withIntermediateDirectories: true)
        try Self.diaryModel.write(to: modelURL.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let model = try ManagedObjectModel(contentsOf: modelURL, classes: [:])
        let entity = try #require(model.entitiesByName["Entry"])
        #expect(entity.attributes.filter(\.preservesValueInHistoryOnDeletion).map(\.name) == ["day", "uuid"])

        guard let store = try HistoryModel.newStore(kind, in: directory, name: "Diary.sqlite") else { return }
        let coordinator = try HistoryModel.coordinator(store, model: model)
        let context = ManagedObjectContext(coordinator: coordinator)
        let entry = try context.insertNewObject(forEntityName: "Entry")
        let uuid = UUID()
        let day = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try entry.checkedSetValue("Rain", forKey: "text")
        try entry.checkedSetValue(uuid, forKey: "uuid")
        try entry.checkedSetValue(day, forKey: "day")
        try context.save()
        try context.checkedDelete(entry)
        try context.save()

        let deletion = try #require(
            try HistoryModel.history(context, .fetchHistory(after: nil as PersistentHistoryToken?)).last?.changes?.first
        )
        #expect(deletion.changeType == .delete)
        #expect(deletion.tombstone?.count == 2)
        #expect(deletion.tombstone?["uuid"] as? UUID == uuid)
        #expect(deletion.tombstone?["day"] as? Date == day)
        #expect(deletion.tombstone?["text"] == nil)
        // Two preserved attributes: two tombstone columns, as Core Data adds them.
        guard kind == .sqlite else { return }
        let queue = try DatabaseQueue(path: directory.file("Diary.sqlite").path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try SQLiteHistoryTables.tombstoneColumns(db) } == 2)
    }

    @Test(
        "Rows a batch writes in SQL are recorded as one transaction in the same database transaction (recordHistory, as Apple records NSBatchUpdateRequest)"
    )
    func batchRowsAreOneTransaction() throws {
        let saved = try #require(try PersistentHistoryTests.threeSaves())
        let store = try #require(saved.coordinator.persistentStores.first?.backend as? SQLiteStore)
        let before = try saved.coordinator.currentPersistentHistoryToken()
        // As a batch update then delete would: change the row in SQL, read the tombstone, delete.
        try store.database.write { db in
            try db.execute(sql: "UPDATE ZNOTE SET ZRANK = 7 WHERE Z_PK = ?", arguments: [saved.first.primaryKey])
            let tombstone = try store.tombstoneValues(of: saved.first, db: db)
            try store.recordHistory(
                inserted: [], updated: [(saved.first, ["rank"])], deleted: [],
                transaction: HistoryTransactionInfo(author: "batch"), db: db)
            #expect(tombstone.count == 1)
        }
        let transactions = try HistoryModel.history(saved.context, .fetchHistory(after: before))
        #expect(transactions.count == 1)
        #expect(transactions.first?.author == "batch")
        let change = try #require(transactions.first?.changes?.first)
        #expect(change.changeType == .update)
        #expect(change.changedObjectID == saved.first)
        #expect(change.updatedProperties?.map(\.name) == ["rank"])
    }

    @Test("ZCOLUMNS is a bitmap over the entity's properties by name, read back as the same properties")
    func columnBitmapRoundTrips() throws {
        let model = try HistoryModel.make()
        let note = try #require(model.entitiesByName["Note"])
        // body, folder, rank, title: rank and title are bits 2 and 3.
        #expect(RelationalHistorySchema.propertyBitmap(["title", "rank"], of: note) == Data([0b1100]))
        #expect(
            RelationalHistorySchema.properties(inBitmap: Data([0b1100]), of: note).map(\.name).sorted() == [
                "rank", "title",
            ])
        // Bits past the entity's properties (another model version's) are ignored.
        #expect(RelationalHistorySchema.properties(inBitmap: Data([0xFF, 0xFF]), of: note).count == 4)
    }
}
