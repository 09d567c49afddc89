import Foundation
import GRDB
import ObjectGraph
import Testing

// A SQLite store from a stranger (copied from a phone, attached to a bug report): what the
// file brings never runs as ObjectGraph's code, damage is a CoreDataError that names the file
// and what is wrong, and neither opening nor reading changes a byte of it. SQLite's
// "Defense Against The Dark Arts" (sqlite.org/security.html) is the checklist.

private func coordinator(_ url: URL) throws -> PersistentStoreCoordinator {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
    try coordinator.addPersistentStore(type: .sqlite, at: url)
    return coordinator
}

/// A store of `count` books, written and closed.
private func seed(_ url: URL, count: Int = 3) throws {
    let context = ManagedObjectContext(coordinator: try coordinator(url))
    for i in 0..<count {
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("Book \(i)", forKey: "title")
    }
    try context.save()
}

/// The bytes of the store file and of its `-wal`, if any.
private func bytes(_ url: URL) throws -> [Data] {
    let wal = URL(fileURLWithPath: url.path + "-wal")
    return [try Data(contentsOf: url)] + ((try? Data(contentsOf: wal)).map { [$0] } ?? [])
}

/// Where two versions of a store's files first differ, for a failure message.
private func difference(_ a: [Data], _ b: [Data]) -> String {
    guard a.count == b.count else { return "\(a.count) files before, \(b.count) after" }
    for (i, (x, y)) in zip(a, b).enumerated() where x != y {
        let offset = Array(zip(x, y)).firstIndex { $0 != $1 } ?? min(x.count, y.count)
        return "file \(i): \(x.count) bytes before, \(y.count) after, first difference at byte \(offset)"
    }
    return "no difference"
}

/// Runs SQL on the file as a stranger would, with a plain connection.
private func plant(_ sql: String, in url: URL) throws {
    try DatabaseQueue(path: url.path).write { db in try db.execute(sql: sql) }
}

/// The CoreDataError that opening and reading the store throws.
private func openingError(_ url: URL) throws -> CoreDataError {
    try #require(throws: CoreDataError.self, "\(url.lastPathComponent)") {
        let context = ManagedObjectContext(coordinator: try coordinator(url))
        _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
    }
}

@Suite("A SQLite store from a stranger")
struct SQLiteStrangerFileTests {
    @Test func readingChangesNoByteOfTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Books.sqlite")
        try seed(url)
        let before = try bytes(url)
        do {
            let context = ManagedObjectContext(coordinator: try coordinator(url))
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(books.count == 3)
            _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Book"))
            _ = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        }
        let after = try bytes(url)
        #expect(after == before, "\(difference(before, after))")
    }

    @Test func aTriggerCallingARegisteredFunctionDoesNotRun() throws {
        // OG_MATCHES is the store's own regular-expression function: a trigger in the file may
        // not call it (trusted_schema is off, and it is not innocuous), so the save that would
        // fire the trigger fails, and the trigger's write is not made.
        let directory = try TemporaryDirectory()
        let url = directory.file("Planted.sqlite")
        try seed(url)
        try plant(
            """
            CREATE TABLE STOLEN (TITLE TEXT);
            CREATE TRIGGER PLANTED AFTER INSERT ON ZBOOK
            BEGIN INSERT INTO STOLEN SELECT ZTITLE FROM ZBOOK WHERE OG_MATCHES(ZTITLE, '.*', 0); END
            """, in: url)
        let context = ManagedObjectContext(coordinator: try coordinator(url))
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("New", forKey: "title")
        let error = try #require(throws: CoreDataError.self) { try context.save() }
        #expect(error.code == .sqlite && error.message.contains(url.path))
        #expect(error.message.contains("unsafe use of OG_MATCHES"))
        let stolen = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM STOLEN")
        }
        #expect(stolen == 0)
        // the insert is still pending
        #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).count == 4)
    }

    @Test func damageIsAnErrorThatNamesTheFileAndLeavesItUnchanged() throws {
        let directory = try TemporaryDirectory()
        // A file cut in half: SQLite sees pages missing.
        let truncated = directory.file("Truncated.sqlite")
        try seed(truncated, count: 500)
        let whole = try Data(contentsOf: truncated)
        try whole.prefix(whole.count / 2).write(to: truncated)
        // Text that is no database.
        let text = directory.file("Text.sqlite")
        try Data(String(repeating: "not a database ", count: 400).utf8).write(to: text)
        // Z_METADATA whose property list is garbage.
        let metadata = directory.file("Metadata.sqlite")
        try seed(metadata)
        try plant("UPDATE Z_METADATA SET Z_PLIST = X'DEADBEEF00FF'", in: metadata)
        // Z_PRIMARYKEY numbering the entities differently from the model.
        let numbers = directory.file("Numbers.sqlite")
        try seed(numbers)
        try plant("UPDATE Z_PRIMARYKEY SET Z_ENT = Z_ENT + 10", in: numbers)
        // A row of ZBOOK whose Z_ENT is no entity's.
        let rows = directory.file("Rows.sqlite")
        try seed(rows)
        try plant("UPDATE ZBOOK SET Z_ENT = 99 WHERE Z_PK = 2", in: rows)
        for (url, words) in [
            (truncated, "malformed"), (text, "not a database"), (metadata, "Z_METADATA"),
            (numbers, "Z_ENT"), (rows, "Z_ENT"),
        ] {
            let before = try bytes(url)
            let error = try openingError(url)
            #expect(error.message.contains(url.path), "\(url.lastPathComponent): \(error.message)")
            #expect(error.message.localizedCaseInsensitiveContains(words), "\(url.lastPathComponent): \(error.message)")
            let after = try bytes(url)
            #expect(after == before, "\(url.lastPathComponent) changed: \(difference(before, after))")
        }
    }

    @Test func aTruncatedWriteAheadLogLosesOnlyItsLastTransaction() throws {
        // A -wal cut mid-frame, as a copy taken while the app ran leaves it: SQLite ignores the
        // frames after the last whole commit, so the store opens with what was committed.
        let directory = try TemporaryDirectory()
        let url = directory.file("Wal.sqlite")
        try seed(url, count: 2)
        let source = directory.file("Live.sqlite")
        let live = try coordinator(source)
        let context = ManagedObjectContext(coordinator: live)
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("First", forKey: "title")
        try context.save()
        try context.insertNewObject(forEntityName: "Book").checkedSetValue("Second", forKey: "title")
        try context.save()
        // Copy the store while its connection holds the WAL open, then cut the WAL's tail.
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: source, to: url)
        let wal = try Data(contentsOf: URL(fileURLWithPath: source.path + "-wal"))
        try wal.prefix(wal.count - 100).write(to: URL(fileURLWithPath: url.path + "-wal"))
        let reader = ManagedObjectContext(coordinator: try coordinator(url))
        let titles = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Book")).compactMap {
            $0.value(forKey: "title") as? String
        }
        #expect(titles == ["First"])
    }
}
