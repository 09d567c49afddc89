import Foundation
import GRDB
import ObjectGraph
import Testing

// The files of Apple-written stores: rows only in a -wal are read (wibosco's 168, SurfJournal's
// 5000 with the Mac's -shm), and a read-only open (the metadata, a store added with
// NSReadOnlyPersistentStoreOption, an inspection) never leaves a new file beside the store.
@Suite struct AppleStoreFilesTests {
    static let wal = AppleFixtures.storesWithModelFiles[3]
    static let surfJournal = AppleFixtures.storesWithModelFiles[4]

    /// The files in a folder and their contents, but an `-shm`'s: that is SQLite's shared-memory
    /// index, which any reader may rebuild in place; a new one would still count.
    static func files(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            result[name] =
                name.hasSuffix("-shm") ? Data() : try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return result
    }

    @Test(arguments: [wal, surfJournal, AppleFixtures.storesWithModelFiles[0]])
    func aReadOnlyOpenLeavesTheFolderAsItWas(_ store: AppleFixtures.Store) throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let before = try Self.files(directory.url)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        _ = try StoreInspection(at: url)
        let model = try AppleModelTests.model(of: store)
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            let added = try coordinator.addPersistentStore(
                type: .sqlite, at: url, options: [StoreOption.readOnly: true])
            let context = ManagedObjectContext(coordinator: coordinator)
            let entity = try #require(model.entities.first { !$0.isAbstract })
            let objects = try context.fetch(FetchRequest(entityName: entity.name))
            // Reading works; writing is refused, and nothing is written.
            if let object = objects.first,
                let attribute = entity.attributes.first(where: {
                    $0.attributeType == .string && !$0.isDerived && !$0.isTransient
                })
            {
                try object.checkedSetValue("changed", forKey: attribute.name)
                let error = #expect(throws: CoreDataError.self) { try context.save() }
                #expect(error?.code == .persistentStoreSave)
                #expect(error?.message.contains("read-only") == true, "\(error?.message ?? "")")
            }
            try coordinator.remove(added)
        }
        let after = try Self.files(directory.url)
        #expect(
            after == before, "\(store): \(Set(after.keys).subtracting(before.keys).sorted()) appeared or a file changed"
        )
    }

    @Test func theWALFixtureRowsAreReadAndKeptWhenTheStoreIsWritten() throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(Self.wal, to: directory.url)
        // The rows are in the -wal only: the main file's tables are empty.
        let mainOnly = try RawStore.countIgnoringWAL(url, table: "ZPOST")
        #expect(mainOnly == 0)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try AppleModelTests.model(of: Self.wal))
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(
            try context.count(for: FetchRequest(entityName: "Post"))
                + context.count(for: FetchRequest(entityName: "Color")) == 168)
        let post = try context.insertNewObject(forEntityName: "Post")
        try post.checkedSetValue("new", forKey: "postID")
        try post.checkedSetValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "date")
        let color = try context.insertNewObject(forEntityName: "Color")
        try color.checkedSetValue("new", forKey: "colorID")
        try color.checkedSetValue("#FFFFFF", forKey: "hex")
        try post.checkedSetValue(color, forKey: "color")
        try context.save()
        try coordinator.remove(coordinator.persistentStores[0])
        // Closed: SQLite folded the WAL into the file, every row is there.
        let raw = try RawStore(url)
        defer { raw.close() }
        #expect(try raw.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST") } == 85)
    }
}

extension RawStore {
    /// The rows of a table in the main file alone, as a reader that ignores the -wal sees them
    /// (SQLite's `immutable` URI parameter).
    static func countIgnoringWAL(_ url: URL, table: String) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: "file:\(url.path)?immutable=1", configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }
}
