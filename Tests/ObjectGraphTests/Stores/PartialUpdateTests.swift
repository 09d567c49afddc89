import Foundation
import GRDB
import GRDBSQLite
import TestSupport
import Testing

@testable import ObjectGraph

// Core Data's SQLite store sets only the changed columns of a row and its version (its SQL log,
// -com.apple.CoreData.SQLDebug 1, shows `UPDATE ZTODO SET ZCATEGORY = ?, Z_OPT = ? WHERE Z_PK = ?
// AND Z_OPT = ?`), and keeps optimistic locking on Z_OPT (Core Data Programming Guide, "Change
// Management"; NSMergePolicy). Issue 17: "pass 2 writes only what changed".
@Suite("A save's UPDATE writes only what changed")
struct PartialUpdateTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Folder") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", toMany: "Book", inverse: "folder")
            }
            EntityDescription("SmartFolder", parent: "Folder") {
                AttributeDescription("query", .string)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("salesRank", .integer32)
                AttributeDescription("price", .double)
                RelationshipDescription("folder", toOne: "Folder", inverse: "books")
            }
        }
    }

    /// A coordinator on a new SQLite store whose SQL log goes to `lines`.
    static func coordinator(_ directory: TemporaryDirectory, lines: LockedLines? = nil, history: Bool = false) throws
        -> PersistentStoreCoordinator
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        if let lines {
            coordinator.sqlLog.includesTimings = false
            coordinator.sqlLog.handler = { lines.append($0) }
        }
        try coordinator.addPersistentStore(
            type: .sqlite, at: directory.file("Books.sqlite"),
            options: history ? [StoreOption.persistentHistoryTracking: true] : [:])
        return coordinator
    }

    /// The UPDATE statements of the log since `start`, each with its bound values.
    static func updates(_ lines: LockedLines, since start: Int = 0) -> [(sql: String, binds: [String])] {
        var result: [(sql: String, binds: [String])] = []
        for line in lines.all.dropFirst(start) {
            if line.hasPrefix("CoreData: sql: ") {
                let sql = String(line.dropFirst("CoreData: sql: ".count))
                if sql.hasPrefix("UPDATE Z") && !sql.hasPrefix("UPDATE Z_") {
                    result.append((sql, []))
                } else if !result.isEmpty {
                    result.append(("", []))
                }
            } else if line.hasPrefix("CoreData: details: SQLite bind["), !result.isEmpty,
                !result[result.count - 1].sql.isEmpty
            {
                result[result.count - 1].binds.append(String(line.split(separator: "=", maxSplits: 1)[1].dropFirst()))
            }
        }
        return result.filter { !$0.sql.isEmpty }
    }

    /// Whether the store's connection has prepared a statement starting with `prefix`: the
    /// history's read of a stored row is not logged, but stays in the statement cache.
    static func prepared(_ coordinator: PersistentStoreCoordinator, _ prefix: String) throws -> Bool {
        let store = try #require(coordinator.persistentStores.first?.backend as? SQLiteStore)
        return store.database.inDatabase { db in
            var s = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let statement = s {
                if let sql = sqlite3_sql(statement).map({ String(cString: $0) }), sql.hasPrefix(prefix) { return true }
                s = sqlite3_next_stmt(db.sqliteConnection, statement)
            }
            return false
        }
    }

    /// A book saved with every attribute set.
    static func savedBook(_ context: ManagedObjectContext) throws -> ManagedObject {
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
        try book.checkedSetValue(192, forKey: "salesRank")
        try book.checkedSetValue(9.5, forKey: "price")
        try context.save()
        return book
    }

    /// The stored row of a book, read with SQL.
    static func storedRow(_ coordinator: PersistentStoreCoordinator, _ id: ManagedObjectID) throws -> Row? {
        let store = try #require(coordinator.persistentStores.first?.backend as? SQLiteStore)
        return try store.database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT Z_OPT, ZTITLE, ZSALESRANK, ZPRICE FROM ZBOOK WHERE Z_PK = ?",
                arguments: [id.primaryKey])
        }
    }

    @Test(
        "An update of one attribute writes one column and the version (Core Data's SQLDebug log: UPDATE ZTODO SET ZCATEGORY = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?)"
    )
    func oneAttributeOneColumn() throws {
        let directory = try TemporaryDirectory()
        let lines = LockedLines()
        let coordinator = try Self.coordinator(directory, lines: lines)
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try Self.savedBook(context)

        let start = lines.all.count
        try book.checkedSetValue(7, forKey: "salesRank")
        try context.save()
        let updates = Self.updates(lines, since: start)
        #expect(updates.map(\.sql) == ["UPDATE ZBOOK SET ZSALESRANK = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"])
        // The new value, the new version, the key, the version read.
        #expect(updates.first?.binds == ["7", "2", "\(book.objectID.primaryKey)", "1"])

        // Two attributes: their two columns, in the table's order, whatever order they were set in.
        let second = lines.all.count
        try book.checkedSetValue(12.25, forKey: "price")
        try book.checkedSetValue("Fetch Again", forKey: "title")
        try context.save()
        #expect(
            Self.updates(lines, since: second).map(\.sql) == [
                "UPDATE ZBOOK SET ZTITLE = ?, ZPRICE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
            ])

        // And the row holds every value, the unwritten ones untouched.
        let row = try #require(try Self.storedRow(coordinator, book.objectID))
        #expect(row[0] as Int64 == 3)
        #expect(row[1] as String == "Fetch Again")
        #expect(row[2] as Int64 == 7)
        #expect(row[3] as Double == 12.25)
    }

    @Test("A value set back to what was saved is no change: its column is not written (NSManagedObject.changedValues)")
    func valueSetBackWritesOnlyTheVersion() throws {
        let directory = try TemporaryDirectory()
        let lines = LockedLines()
        let coordinator = try Self.coordinator(directory, lines: lines)
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try Self.savedBook(context)
        let start = lines.all.count
        try book.checkedSetValue("Draft", forKey: "title")
        try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
        try book.checkedSetValue(1, forKey: "salesRank")
        try context.save()
        #expect(
            Self.updates(lines, since: start).map(\.sql) == [
                "UPDATE ZBOOK SET ZSALESRANK = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
            ])
        let row = try #require(try Self.storedRow(coordinator, book.objectID))
        #expect(row[1] as String == "Fetch, Clarus, Fetch")
    }

    @Test(
        "A to-one change writes the relationship's key column and its entity column together; the destination, changed only in its to-many, gets its version raised (NSRelationshipDescription)"
    )
    func toOneWritesKeyAndEntityColumns() throws {
        let directory = try TemporaryDirectory()
        let lines = LockedLines()
        let coordinator = try Self.coordinator(directory, lines: lines)
        let context = ManagedObjectContext(coordinator: coordinator)
        let smart = try context.insertNewObject(forEntityName: "SmartFolder")
        try smart.checkedSetValue("Unread", forKey: "name")
        let book = try Self.savedBook(context)
        let folderEntity = try #require(coordinator.managedObjectModel.entitiesByName["Folder"])
        let smartEntity = try #require(coordinator.managedObjectModel.entitiesByName["SmartFolder"])

        let start = lines.all.count
        try book.checkedSetValue(smart, forKey: "folder")
        try context.save()
        let updates = Self.updates(lines, since: start)
        let entityColumn = "Z\(folderEntity.entityNumber)_FOLDER"
        #expect(
            updates.map(\.sql).contains(
                "UPDATE ZBOOK SET ZFOLDER = ?, \(entityColumn) = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"),
            "\(updates.map(\.sql))")
        let bookUpdate = try #require(updates.first { $0.sql.hasPrefix("UPDATE ZBOOK") })
        #expect(bookUpdate.binds.prefix(2) == ["\(smart.objectID.primaryKey)", "\(smartEntity.entityNumber)"])
        // The folder's row has no column for its to-many: only its version is written.
        #expect(
            updates.map(\.sql).contains("UPDATE ZFOLDER SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"),
            "\(updates.map(\.sql))")

        let reader = ManagedObjectContext(coordinator: coordinator)
        let read = try reader.existingObject(with: book.objectID)
        let folder = try #require(try read.checkedValue(forKey: "folder") as? ManagedObject)
        #expect(folder.objectID == smart.objectID)
        #expect(folder.entity.name == "SmartFolder")
        #expect(try read.checkedValue(forKey: "title") as? String == "Fetch, Clarus, Fetch")
    }

    @Test(
        "Two contexts changing different attributes of one row both keep their values through mergeByPropertyObjectTrump; the default policy still refuses with 133020 (NSMergeByPropertyObjectTrumpMergePolicy, NSManagedObjectMergeError)"
    )
    func differentAttributesMerge() throws {
        let directory = try TemporaryDirectory()
        let lines = LockedLines()
        let coordinator = try Self.coordinator(directory, lines: lines)
        let id = try Self.savedBook(ManagedObjectContext(coordinator: coordinator)).objectID

        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        let mine = try first.existingObject(with: id)
        let theirs = try second.existingObject(with: id)
        try mine.checkedSetValue("Fetch, Clarus, Fetch (2nd edition)", forKey: "title")
        try theirs.checkedSetValue(3, forKey: "salesRank")
        try first.save()

        // Optimistic locking is unchanged: the version read is stale, the default policy refuses.
        #expect { try second.save() } throws: { ($0 as? CoreDataError)?.code == .merge }

        second.mergePolicy = .mergeByPropertyObjectTrump
        let start = lines.all.count
        try second.save()
        // The retried UPDATE writes only the second context's change, at the store's version.
        let retried = Self.updates(lines, since: start)
        #expect(retried.last?.sql == "UPDATE ZBOOK SET ZSALESRANK = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
        #expect(retried.last?.binds == ["3", "3", "\(id.primaryKey)", "2"])

        let row = try #require(try Self.storedRow(coordinator, id))
        #expect(row[1] as String == "Fetch, Clarus, Fetch (2nd edition)")
        #expect(row[2] as Int64 == 3)
        #expect(row[3] as Double == 9.5)
        #expect(row[0] as Int64 == 3)
    }

    @Test(
        "With NSOverwriteMergePolicy the object's whole state wins: what it read and did not change is written back over the other context's change (NSMergePolicy.overwrite)"
    )
    func overwriteWritesTheObjectsState() throws {
        let directory = try TemporaryDirectory()
        let coordinator = try Self.coordinator(directory)
        let id = try Self.savedBook(ManagedObjectContext(coordinator: coordinator)).objectID
        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        let mine = try first.existingObject(with: id)
        let theirs = try second.existingObject(with: id)
        try mine.checkedSetValue("Changed first", forKey: "title")
        try theirs.checkedSetValue(3, forKey: "salesRank")
        try first.save()
        second.mergePolicy = .overwrite
        try second.save()
        let row = try #require(try Self.storedRow(coordinator, id))
        #expect(row[1] as String == "Fetch, Clarus, Fetch")
        #expect(row[2] as Int64 == 3)
    }

    @Test(
        "Persistent history's updated properties (ZCOLUMNS) come from the save, the same as a comparison with the stored row gives (NSPersistentHistoryChange.updatedProperties)"
    )
    func historyColumnsFromTheSave() throws {
        let directory = try TemporaryDirectory()
        let lines = LockedLines()
        let coordinator = try Self.coordinator(directory, lines: lines, history: true)
        let context = ManagedObjectContext(coordinator: coordinator)
        let folder = try context.insertNewObject(forEntityName: "Folder")
        let book = try Self.savedBook(context)
        let token = try coordinator.currentPersistentHistoryToken()

        let start = lines.all.count
        try book.checkedSetValue(1, forKey: "salesRank")
        try book.checkedSetValue("Draft", forKey: "title")
        try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title") // back as it was: no change
        try book.checkedSetValue(folder, forKey: "folder")
        try context.save()
        // The stored row is not read before the update: the save knows what changed.
        #expect(try !Self.prepared(coordinator, "SELECT ZTITLE"))
        #expect(
            Self.updates(lines, since: start).map(\.sql).contains(
                "UPDATE ZBOOK SET ZSALESRANK = ?, ZFOLDER = ?, Z\(folder.entity.entityNumber)_FOLDER = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
            ))

        let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
        let result = try context.execute(request) as? PersistentHistoryResult
        let changes = (result?.transactions ?? []).flatMap { $0.changes ?? [] }
        let bookChange = try #require(changes.first { $0.changedObjectID == book.objectID })
        #expect(bookChange.changeType == .update)
        #expect(bookChange.updatedProperties.map { Set($0.map(\.name)) } == ["salesRank", "folder"])
        let folderChange = try #require(changes.first { $0.changedObjectID == folder.objectID })
        #expect(folderChange.updatedProperties.map { $0.map(\.name) } == [])
    }

    @Test(
        "The store writes a row whole when a save does not say what changed (StoreChanges without updatedProperties), and the history compares with the stored row"
    )
    func rowWithoutChangeInformationIsWrittenWhole() throws {
        let directory = try TemporaryDirectory()
        let lines = LockedLines()
        let coordinator = try Self.coordinator(directory, lines: lines, history: true)
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try Self.savedBook(context)
        let store = try #require(coordinator.persistentStores.first?.backend as? SQLiteStore)
        let model = coordinator.managedObjectModel
        var row = try #require(try store.row(for: book.objectID, model: model))
        let expected = row.version
        row.version += 1
        row.values[0] = .string("Written whole")
        var changes = StoreChanges()
        changes.updated = [(row, expected)]
        let token = try coordinator.currentPersistentHistoryToken()
        let start = lines.all.count
        try store.save(changes, model: model, transaction: HistoryTransactionInfo(author: "test"))
        let folderNumber = try #require(model.entitiesByName["Folder"]).entityNumber
        #expect(
            Self.updates(lines, since: start).map(\.sql) == [
                "UPDATE ZBOOK SET ZTITLE = ?, ZSALESRANK = ?, ZPRICE = ?, ZFOLDER = ?, Z\(folderNumber)_FOLDER = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
            ])
        // Without the save's knowledge, history reads the stored row to compare.
        #expect(try Self.prepared(coordinator, "SELECT ZTITLE"))
        let stored = try #require(try Self.storedRow(coordinator, book.objectID))
        #expect(stored[1] as String == "Written whole")
        #expect(stored[2] as Int64 == 192)
        let result =
            try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)) as? PersistentHistoryResult
        #expect(result?.transactions?.first?.changes?.first?.updatedProperties.map { $0.map(\.name) } == ["title"])
    }

    @Test(
        "For every attribute type, the updated properties taken from the save are the ones a comparison with the stored row finds (NSPersistentHistoryChange.updatedProperties)"
    )
    func historyNamesMatchTheStoredRowComparison() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Owner") {
                AttributeDescription("name", .string)
                RelationshipDescription("items", toMany: "Item", inverse: "owner")
            }
            EntityDescription("Item") {
                AttributeDescription("text", .string)
                AttributeDescription("count", .integer64)
                AttributeDescription("small", .integer16)
                AttributeDescription("ratio", .double)
                AttributeDescription("single", .float)
                AttributeDescription("flag", .boolean)
                AttributeDescription("day", .date)
                AttributeDescription("blob", .binaryData)
                AttributeDescription("id", .uuid)
                AttributeDescription("amount", .decimal)
                RelationshipDescription("owner", toOne: "Owner", inverse: "items")
            }
        }
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            type: .sqlite, at: directory.file("Items.sqlite"), options: [StoreOption.persistentHistoryTracking: true])
        let store = try #require(coordinator.persistentStores.first?.backend as? SQLiteStore)
        let context = ManagedObjectContext(coordinator: coordinator)
        let owners = try (0..<2).map { _ in try context.insertNewObject(forEntityName: "Owner") }
        let item = try context.insertNewObject(forEntityName: "Item")
        let initial: [String: Any] = [
            "text": "café", "count": 1, "small": 2, "ratio": 0.5, "single": Float(0.1), "flag": false,
            "day": Date(timeIntervalSinceReferenceDate: 1000), "blob": Data([1, 2]), "id": UUID(),
            "amount": Decimal(string: "1.25")!, "owner": owners[0],
        ]
        for (key, value) in initial { try item.checkedSetValue(value, forKey: key) }
        try context.save()

        // Each change, alone and then all together; some set a value the store keeps as it was.
        let changes: [[String: Any]] = [
            ["text": "cafe\u{301}"], ["count": 2], ["small": 2], ["ratio": 0.25], ["single": 0.1], ["single": 0.2],
            ["flag": true], ["day": Date(timeIntervalSinceReferenceDate: 1000.5)], ["blob": Data([1, 3])],
            ["id": UUID()],
            ["amount": Decimal(string: "1.5")!], ["owner": owners[1]], ["owner": NSNull()],
            ["text": NSNull(), "count": 9, "owner": owners[0]],
        ]
        let plan = RelationalWritePlan(for: try #require(model.entitiesByName["Item"]), schema: store.schema)
        for change in changes {
            for (key, value) in change { try item.checkedSetValue(value is NSNull ? nil : value, forKey: key) }
            let properties = try #require(ManagedObjectContext.updatedProperties(of: item))
            let row = StoreRow(
                entityName: "Item", primaryKey: item.objectID.primaryKey, version: item.version + 1,
                values: item.storage)
            let (fromSave, fromStore) = try store.database.read { db in
                let writer = SQLiteWriter(db: db, model: model, log: SQLLog())
                let before = try #require(try writer.storedValues(primaryKey: row.primaryKey, plan: plan))
                return (
                    writer.changedProperties(properties, to: row, plan: plan),
                    writer.changedProperties(from: before, to: row, plan: plan)
                )
            }
            #expect(fromSave == fromStore, "\(change)")
            try context.save()
        }
    }
}
