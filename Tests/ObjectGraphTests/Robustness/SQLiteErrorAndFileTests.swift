import Foundation
import ObjectGraph
import Testing

// SQLite failures reach callers as CoreDataError 134180 (NSSQLiteError) with SQLite's code,
// or the more specific Core Data code where one applies; an empty store file is a new store.

private func coordinator(_ url: URL) throws -> PersistentStoreCoordinator {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
    try coordinator.addPersistentStore(type: .sqlite, at: url)
    return coordinator
}

private func seed(_ url: URL, count: Int) throws {
    let context = ManagedObjectContext(coordinator: try coordinator(url))
    for i in 0..<count {
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Book \(i) " + String(repeating: "x", count: 80), forKey: "title")
    }
    try context.save()
}

@Suite("SQLite errors and store files")
struct SQLiteErrorAndFileTests {
    @Test func anEmptyFileIsANewStore() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Empty.sqlite")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
        // No store yet, as for a missing file: what todo and automatic migration look at.
        do {
            _ = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
            Issue.record("an empty file gave metadata")
        } catch let error as CoreDataError {
            #expect(error.code == .fileReadNoSuchFile)
            #expect(error.message.contains("empty"))
        }
        // Opening creates the store, with or without automatic migration.
        let context = ManagedObjectContext(coordinator: try coordinator(url))
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("First", forKey: "title")
        try context.save()
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        let migrating = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let empty = directory.file("EmptyMigrating.sqlite")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        try migrating.addPersistentStore(
            type: .sqlite, at: empty,
            options: [
                StoreOption.migratePersistentStoresAutomatically: true,
                StoreOption.inferMappingModelAutomatically: true,
            ])
        #expect(try ManagedObjectContext(coordinator: migrating).count(for: FetchRequest(entityName: "Book")) == 0)
    }

    @Test func aCorruptFileFailsAFetchWith134180() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Corrupt.sqlite")
        try seed(url, count: 1_000)
        let coordinator = try coordinator(url)
        // Pages after the first two (the schema) overwritten: the table's pages are garbage.
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: 8192)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 32_768))
        try handle.close()
        let context = ManagedObjectContext(coordinator: coordinator)
        do {
            _ = try context.fetch(FetchRequest(entityName: "Book"))
            Issue.record("a corrupt store was read without error")
        } catch let error as CoreDataError {
            #expect(error.code == .sqlite)
            // SQLITE_CORRUPT (11) or SQLITE_NOTADB (26), extended codes included.
            let primary = (error.sqliteCode ?? 0) & 0xFF
            #expect(primary == 11 || primary == 26)
            #expect(error.message.contains(url.path))
            #expect(error.message.hasPrefix("Fetching Book objects from the store at"))
        }
    }

    @Test(.enabled(if: getuid() != 0, "root writes read-only files"))
    func aReadOnlyFileFailsASaveWith134180() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ReadOnly.sqlite")
        try seed(url, count: 1)

        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }
        let context = ManagedObjectContext(coordinator: try coordinator(url))
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Refused", forKey: "title")
        do {
            try context.save()
            Issue.record("a read-only store was written")
        } catch let error as CoreDataError {
            #expect(error.code == .sqlite)
            #expect((error.sqliteCode ?? 0) & 0xFF == 8) // SQLITE_READONLY
        }
    }

    @Test func aFileThatIsNoDatabaseStaysAnOpenError() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Text.sqlite")
        try Data(String(repeating: "not a database ", count: 400).utf8).write(to: url)
        #expect(throws: CoreDataError.self) { try coordinator(url) }
        do { _ = try coordinator(url) } catch let error as CoreDataError {
            #expect(error.code == .persistentStoreOpen)
        }
    }
}
