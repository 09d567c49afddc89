import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport

/// A context on a fresh store of any type, in its own temporary directory.
struct StackFixture {
    let directory: TemporaryDirectory
    let context: ManagedObjectContext
    var coordinator: PersistentStoreCoordinator { context.persistentStoreCoordinator }

    init(_ type: StoreType, model: ManagedObjectModel? = nil, url: URL? = nil) throws {
        directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? booksModel())
        try coordinator.addPersistentStore(
            type: type, at: url ?? (type == .inMemory ? nil : directory.file("Store.\(type.rawValue.lowercased())")),
            options: [StoreOption.storeUUID: "00000000-0000-0000-0000-0000000000BB"])
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// A fixture on a store of `type`: for `.postgres` a schema of its own on the test
    /// process's server, or nil (having said why) when PostgreSQL is not installed.
    static func ifAvailable(_ type: StoreType, model: ManagedObjectModel? = nil, test: String = #function) throws
        -> StackFixture?
    {
        guard type == .postgres else { return try StackFixture(type, model: model) }
        guard let url = try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema(), for: test) else {
            return nil
        }
        PostgresStoreType.register()
        return try StackFixture(type, model: model, url: url)
    }

    /// A second context on the same coordinator.
    func secondContext() -> ManagedObjectContext { ManagedObjectContext(coordinator: coordinator) }

    /// Inserts a publisher with books and saves.
    @discardableResult
    func seedBooks(_ titles: [String], publisher name: String = "BookCo") throws -> ManagedObject {
        let publisher = try context.insertNewObject(forEntityName: "Publisher")
        try publisher.checkedSetValue(name, forKey: "name")
        for (i, title) in titles.enumerated() {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue(title, forKey: "title")
            try book.checkedSetValue(i + 1, forKey: "salesRank")
            try book.checkedSetValue(publisher, forKey: "publisher")
        }
        try context.save()
        return publisher
    }

    /// Records the SQL the coordinator runs while `body` runs.
    func sql(during body: () throws -> Void) rethrows -> [String] {
        let lines = LockedLines()
        coordinator.sqlLog.includesTimings = false
        coordinator.sqlLog.handler = { lines.append($0) }
        defer { coordinator.sqlLog.handler = nil }
        try body()
        return lines.all.filter { $0.hasPrefix("CoreData: sql:") }
    }
}

extension StackFixture {
    /// A store of `type` with three books ranked 1, 2 and 3 (the deep-predicate tests' store).
    static func threeRankedBooks(_ type: StoreType) throws -> StackFixture {
        let fixture = try StackFixture(type)
        try fixture.seedBooks(["A", "B", "C"])
        return fixture
    }
}
