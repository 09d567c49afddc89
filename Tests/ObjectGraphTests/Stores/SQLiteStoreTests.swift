import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

// Apple, Core Data Programming Guide, "Persistent Store Types and Behaviors", and the SQLite
// layout Core Data writes (reference/coredata.md section 4).
@Suite struct SQLiteStoreTests {
    func makeContext(_ directory: TemporaryDirectory, model: ManagedObjectModel? = nil) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? booksModel())
        try coordinator.addPersistentStore(
            type: .sqlite, at: directory.file("Books.sqlite"),
            options: [StoreOption.storeUUID: "00000000-0000-0000-0000-0000000000AA"])
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func savedObjectsComeBackInANewCoordinator() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = try makeContext(directory)
            let publisher = try context.insertNewObject(forEntityName: "Publisher")
            try publisher.checkedSetValue("BookCo", forKey: "name")
            for (title, rank) in [("Fetch", 3), ("Clarus", 1)] {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.checkedSetValue(title, forKey: "title")
                try book.checkedSetValue(rank, forKey: "salesRank")
                try book.checkedSetValue(publisher, forKey: "publisher")
            }
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.checkedSetValue("LaMarche", forKey: "name")
            try author.checkedSetValue(try publisher.checkedValue(forKey: "books"), forKey: "books")
            try context.save()
        }
        let context = try makeContext(directory)
        let books = try context.fetch(FetchRequest(entityName: "Book"))
        #expect(Set(try books.map { try $0.checkedValue(forKey: "title") as! String }) == ["Fetch", "Clarus"])
        let publisher = try #require(try books[0].checkedValue(forKey: "publisher") as? ManagedObject)
        #expect(try publisher.checkedValue(forKey: "name") as? String == "BookCo")
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)?.count == 2)
        let authors = try #require(try books[0].checkedValue(forKey: "authors") as? Set<ManagedObject>)
        #expect(try authors.first?.checkedValue(forKey: "name") as? String == "LaMarche")
        #expect(try context.count(for: FetchRequest(entityName: "Book")) == 2)
    }

    @Test func tablesAreLaidOutAsCoreDataLaysThemOut() throws {
        let directory = try TemporaryDirectory()
        let context = try makeContext(directory)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("T", forKey: "title")
        try context.save()
        let queue = try DatabaseQueue(path: directory.file("Books.sqlite").path)
        try queue.read { (db: Database) throws -> Void in
            // Core Data's column order: integers and to-one keys, then strings (RelationalColumnOrder).
            #expect(
                try db.columns(in: "ZBOOK").map(\.name) == [
                    "Z_PK", "Z_ENT", "Z_OPT", "ZSALESRANK", "ZPUBLISHER", "ZISBN", "ZTITLE",
                ])
            #expect(
                try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                    "Author", "Book", "Publisher",
                ])
            #expect(try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") == 1)
            #expect(
                try Row.fetchOne(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT FROM ZBOOK") == [
                    "Z_PK": 1, "Z_ENT": 2, "Z_OPT": 1,
                ])
            #expect(try db.tableExists("Z_1BOOKS"))
            #expect(
                try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") == "00000000-0000-0000-0000-0000000000AA")
        }
        try queue.close()
    }

    @Test func updatesRaiseZOPTAndDatesAreSecondsSince2001() throws {
        let directory = try TemporaryDirectory()
        let model = try ManagedObjectModel {
            EntityDescription("Event") {
                AttributeDescription("when", .date)
                AttributeDescription("done", .boolean)
            }
        }
        let context = try makeContext(directory, model: model)
        let event = try context.insertNewObject(forEntityName: "Event")
        try event.checkedSetValue(Date(timeIntervalSince1970: 978_307_200 + 60), forKey: "when")
        try context.save()
        try event.checkedSetValue(true, forKey: "done")
        try context.save()
        let queue = try DatabaseQueue(path: directory.file("Books.sqlite").path)
        try queue.read { (db: Database) throws -> Void in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT Z_OPT, ZWHEN, ZDONE FROM ZEVENT"))
            #expect(row["Z_OPT"] as Int == 2)
            #expect(row["ZWHEN"] as Double == 60)
            #expect(row["ZDONE"] as Int == 1)
        }
        try queue.close()
    }

    @Test func metadataIsReadableWithoutAddingTheStore() throws {
        let directory = try TemporaryDirectory()
        _ = try makeContext(directory)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(
            type: .sqlite, at: directory.file("Books.sqlite"))
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        #expect(metadata["NSStoreUUID"] as? String == "00000000-0000-0000-0000-0000000000AA")
        let hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes == (try booksModel()).entityVersionHashesByName)
    }

    @Test func aFileThatIsNotAStoreIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("notes.sqlite")
        try Data("these are my notes, not a database".utf8).write(to: file)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let error = #expect(throws: CoreDataError.self) { try coordinator.addPersistentStore(type: .sqlite, at: file) }
        #expect(error?.code == .persistentStoreOpen)
        #expect(error?.message.contains(file.path) == true)
        // Nothing was written over the user's file.
        #expect(try String(contentsOf: file, encoding: .utf8) == "these are my notes, not a database")
        let metadataError = #expect(throws: CoreDataError.self) {
            _ = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: file)
        }
        #expect(metadataError?.code == .persistentStoreOpen)
    }

    // Core Data Model Versioning and Data Migration Programming Guide: opening a store with a
    // different model fails with 134100 unless it is migrated.
    @Test func anIncompatibleModelIsRefusedWith134100() throws {
        let directory = try TemporaryDirectory()
        _ = try makeContext(directory)
        let changed = try ManagedObjectModel {
            EntityDescription("Book") { AttributeDescription("title", .string) }
        }
        let error = #expect(throws: CoreDataError.self) { _ = try makeContext(directory, model: changed) }
        #expect(error?.code == .persistentStoreIncompatibleVersionHash)
        #expect(
            error?.message.contains("Author (only in the store), Book (changed), Publisher (only in the store)") == true
        )
    }

    // Change Management guide: optimistic locking; the second of two conflicting saves fails.
    @Test func conflictingSavesFromTwoContextsGive133020() throws {
        let directory = try TemporaryDirectory()
        let first = try makeContext(directory)
        let book = try first.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("T", forKey: "title")
        try first.save()
        let second = ManagedObjectContext(coordinator: first.persistentStoreCoordinator)
        let other = try second.existingObject(with: book.objectID)
        try book.checkedSetValue("First", forKey: "title")
        try other.checkedSetValue("Second", forKey: "title")
        try first.save()
        let error = #expect(throws: CoreDataError.self) { try second.save() }
        #expect(error?.code == .merge)
        #expect(error?.message.contains(book.objectID.uriString) == true)
    }

    @Test func sqlDebugLogShowsStatementsAndBindings() throws {
        let directory = try TemporaryDirectory()
        let context = try makeContext(directory)
        let lines = LockedLines()
        context.persistentStoreCoordinator.sqlLog.handler = { lines.append($0) }
        context.persistentStoreCoordinator.sqlLog.includesTimings = false
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Fetch", forKey: "title")
        try context.save()
        _ = try context.fetch(FetchRequest(entityName: "Book"))
        let log = lines.all
        #expect(
            log.contains(
                "CoreData: sql: INSERT INTO ZBOOK(Z_PK, Z_ENT, Z_OPT, ZTITLE, ZSALESRANK, ZISBN, ZPUBLISHER) VALUES(?, ?, ?, ?, ?, ?, ?)"
            ))
        #expect(log.contains("CoreData: details: SQLite bind[3] = \"Fetch\""))
        #expect(log.contains("CoreData: annotation: fetch returned 1 row."))
    }
}
