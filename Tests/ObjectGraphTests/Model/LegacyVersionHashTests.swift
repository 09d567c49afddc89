import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing
import ZarraToDo

// Stores this package wrote before it computed Core Data's version hashes still open with the
// model that wrote them, and get Core Data's hashes written into their metadata, once. The
// versioning chapter's fixture stores (Chapters/Versioning/Chapter/Fixtures) are such stores:
// version 1 of the ToDo model wrote them with the old hashes.
@Suite struct LegacyVersionHashTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Chapters/Versioning/Chapter/Fixtures")

    /// A copy of a fixture store in `directory`.
    static func copy(_ name: String, to directory: TemporaryDirectory) throws -> URL {
        let url = directory.file(name)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: url)
        return url
    }

    @Test(arguments: [("ToDo.sqlite", StoreType.sqlite), ("ToDo.xml", .xml)])
    func anOldStoreOpensAndGetsCoreDatasHashesOnce(_ name: String, _ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy(name, to: directory)
        let model = try ToDoModels.version1()
        let before = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        let oldHashes = try #require(before["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(oldHashes != model.entityVersionHashesByName, "the fixture should have the old hashes")
        // The old hashes are recognised: no migration is needed.
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: before))

        let lines = LockedLines()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.sqlLog.handler = { lines.append($0) }
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let titles = try context.fetch(FetchRequest(entityName: "ToDo")).compactMap {
            try $0.checkedValue(forKey: "title") as? String
        }
        #expect(titles.count == 4 && titles.contains("Pay rent"), "\(titles)")
        let notes = lines.all.filter { $0.contains("had the version hashes ObjectGraph wrote before") }
        #expect(notes.count == 1, "\(lines.all)")

        // The file now has Core Data's hashes and keys, and the same UUID.
        let after = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(after["NSStoreModelVersionHashes"] as? [String: Data] == model.entityVersionHashesByName)
        #expect(after["NSStoreModelVersionChecksumKey"] as? String == model.versionChecksum)
        #expect(after["NSStoreUUID"] as? String == before["NSStoreUUID"] as? String)
        if type == .sqlite {
            let queue = try DatabaseQueue(path: url.path)
            let data = try queue.read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") }
            try queue.close()
            let raw =
                try PropertyListSerialization.propertyList(from: try #require(data), format: nil) as? [String: Any]
            #expect(raw?["NSStoreModelVersionHashes"] as? [String: Data] == model.entityVersionHashesByName)
        }

        // Opened again: nothing more to rewrite, nothing said.
        let again = LockedLines()
        let second = PersistentStoreCoordinator(managedObjectModel: model)
        second.sqlLog.handler = { again.append($0) }
        try second.addPersistentStore(type: type, at: url)
        #expect(!again.all.contains { $0.contains("had the version hashes") })
    }

    @Test(arguments: [("ToDo.sqlite", StoreType.sqlite), ("ToDo.xml", .xml)])
    func migrationFindsTheSourceOfAnOldStore(_ name: String, _ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy(name, to: directory)
        let versions = try VersionedModel(
            name: "ToDo", versions: [("ToDo", try ToDoModels.version1()), ("ToDo 2", try ToDoModels.version2())],
            currentVersionName: "ToDo 2")
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(versions.versionName(forStoreMetadata: metadata) == "ToDo")
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(
            type: type, at: url,
            options: [
                StoreOption.migratePersistentStoresAutomatically: true,
                StoreOption.inferMappingModelAutomatically: true,
            ])
        let todos = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "ToDo"))
        #expect(todos.count == 4)
        let after = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(
            after["NSStoreModelVersionHashes"] as? [String: Data]
                == (try ToDoModels.version2()).entityVersionHashesByName)
    }

    @Test func theOldHashesOfAnotherModelAreNotAccepted() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy("ToDo.sqlite", to: directory)
        let error = #expect(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: try ToDoModels.version2()).addPersistentStore(
                type: .sqlite, at: url)
        }
        #expect(error?.code == .persistentStoreIncompatibleVersionHash)
    }
}
