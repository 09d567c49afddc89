import Foundation
import GRDB
import ObjectGraph
import Testing

// SQLite under contention: StoreOption.timeout (NSPersistentStoreTimeoutOption) makes a save
// wait for another connection's lock; with 0 it fails at once with 134180 (NSSQLiteError)
// and SQLite's code 5 (SQLITE_BUSY) kept.

/// A coordinator of its own on the store at `url`.
private func context(_ url: URL, options: [String: Any] = [:]) throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
    try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
    return ManagedObjectContext(coordinator: coordinator)
}

private func insertBook(_ context: ManagedObjectContext, _ title: String) throws {
    let book = try context.insertNewObject(forEntityName: "Book")
    try book.checkedSetValue(title, forKey: "title")
}

/// What several threads saw, gathered under a lock.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    private var saves = 0
    func saved() {
        lock.lock()
        saves += 1
        lock.unlock()
    }
    func failed(_ error: Error) {
        lock.lock()
        errors.append("\(error)")
        lock.unlock()
    }
    var result: (saves: Int, errors: [String]) {
        lock.lock()
        defer { lock.unlock() }
        return (saves, errors)
    }
}

@Suite("SQLite under contention")
struct SQLiteContentionTests {
    @Test func contendedSavesFromSeveralCoordinatorsAllSucceedWithTheDefaultTimeout() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Contended.sqlite")
        _ = try context(url)
        let writers = 4
        let savesEach = 15
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                let context = try context(url)
                for i in 0..<savesEach {
                    try insertBook(context, "w\(writer)-\(i)")
                    try context.save()
                    outcomes.saved()
                }
            } catch {
                outcomes.failed(error)
            }
        }
        let (saves, errors) = outcomes.result
        #expect(errors.isEmpty)
        #expect(saves == writers * savesEach)
        // Every save is there once, under keys no two writers shared.
        let reader = try context(url)
        let books = try reader.fetch(FetchRequest(entityName: "Book"))
        #expect(books.count == writers * savesEach)
        #expect(Set(books.map(\.objectID)).count == books.count)
        #expect(
            Set(try books.map { try #require($0.checkedValue(forKey: "title") as? String) }).count == writers
                * savesEach)
    }

    @Test func aSaveWaitsForALockReleasedWithinTheTimeout() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Waits.sqlite")
        let saver = try context(url)
        let holder = try DatabaseQueue(path: url.path)
        let locked = DispatchSemaphore(value: 0)
        let holding = Thread {
            try? holder.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                Thread.sleep(forTimeInterval: 0.3)
                try db.execute(sql: "COMMIT")
            }
        }
        holding.start()
        locked.wait()
        try insertBook(saver, "after the lock")
        try saver.save()
        #expect(try saver.count(for: FetchRequest(entityName: "Book")) == 1)
    }

    @Test func withTimeoutZeroALockedStoreFailsWith134180AndSQLiteBusy() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Locked.sqlite")
        let saver = try context(url, options: [StoreOption.timeout: 0.0])
        try insertBook(saver, "blocked")
        let holder = try DatabaseQueue(path: url.path)
        var thrown: CoreDataError?
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            do { try saver.save() } catch let error as CoreDataError { thrown = error }
            try db.execute(sql: "ROLLBACK")
        }
        let error = try #require(thrown)
        #expect(error.code == .sqlite)
        #expect(error.code?.rawValue == 134180)
        #expect(error.sqliteCode == 5)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains("database is locked"))
        // Once the lock is gone the same save goes through.
        try saver.save()
        #expect(try saver.count(for: FetchRequest(entityName: "Book")) == 1)
    }
}
