import Foundation
import GRDB
import Testing
import ObjectGraph

/// Collects a coordinator's SQL log lines (thread-safe: the log may call from any thread).
private final class MigrationLogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

// Acceptance, item 4: stores Core Data wrote migrate here as Core Data migrates them, and what
// a store written by Core Data's own migration holds is read as it is.
@Suite struct AppleStoreMigrationTests {
    // wibosco's store is version 3 of a 4-version bundle; version 4 adds an optional Boolean
    // with a default. Automatic migration finds the source by the store's real hashes, infers
    // the mapping, and migrates in place in SQL (what Core Data does for a lightweight
    // migration of a SQLite store), keeping every row, value and relationship.
    @Test func wiboscosVersion3StoreMigratesInPlaceToVersion4() throws {
        if AppleFixtures.skipping() { return }
        let store = AppleFixtures.storesWithModelFiles[2]
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let before = try RawStore(url)
        let (posts, colors) = try before.queue.read { db in
            (try Row.fetchAll(db, sql: "SELECT Z_PK, ZCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK"),
             try Row.fetchAll(db, sql: "SELECT Z_PK, ZPOST, ZCOLORID, ZHEX FROM ZCOLOR ORDER BY Z_PK"))
        }
        let keys = try before.queue.read { db in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") }
        before.close()
        #expect(posts.count == 7995 && colors.count == 7995)

        let versions = try VersionedModel(contentsOf: try #require(AppleFixtures.bundleURL(store)))
        #expect(versions.currentVersionName == "CoreDataMigration_Example 4")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: versions.currentModel)
        let lines = MigrationLogLines()
        coordinator.sqlLog.handler = { lines.append($0) }
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
            StoreOption.migratePersistentStoresAutomatically: true, StoreOption.inferMappingModelAutomatically: true,
            StoreOption.versionedModel: versions,
        ])
        // In place: the table was altered, not copied to a new file.
        #expect(lines.all.contains { $0.contains("ALTER TABLE ZPOST ADD COLUMN ZHIDE INTEGER") }, "\(lines.all.prefix(20))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy { $0.hasPrefix("CoreDataMigration_Example_3.sqlite") })
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(versions.versionName(forStoreMetadata: metadata) == "CoreDataMigration_Example 4")

        // Every row and value kept, the new attribute at its default; keys and numbering kept.
        let after = try RawStore(url)
        defer { after.close() }
        try after.queue.read { (db: Database) throws -> Void in
            #expect(try Row.fetchAll(db, sql: "SELECT Z_PK, ZCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK") == posts)
            #expect(try Row.fetchAll(db, sql: "SELECT Z_PK, ZPOST, ZCOLORID, ZHEX FROM ZCOLOR ORDER BY Z_PK") == colors)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST WHERE ZHIDE = 0") == 7995)
            #expect(try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == keys)
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Post")
        request.predicate = try Predicate(format: "hide == NO AND color.hex != nil")
        #expect(try context.count(for: request) == 7995)
    }

    // SampleModel_V2 was migrated by Core Data from version 1, renaming ExpensiveSportCar to
    // LuxuryCar: Z_PRIMARYKEY still names entity 3 ExpensiveSportCar. It is read and written
    // by entity number, and a migration here leaves the old name too.
    @Test func aRenamedEntityIsReadByItsNumber() throws {
        if AppleFixtures.skipping() { return }
        let store = AppleFixtures.storesWithModelFiles[1]
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let raw = try RawStore(url)
        let luxury = try raw.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE Z_ENT = 3") ?? 0 }
        #expect(raw.entityNumbers["ExpensiveSportCar"] == 3 && raw.entityNumbers["LuxuryCar"] == nil)
        raw.close()
        let model = try AppleModelTests.model(of: store)
        #expect(model.entitiesByName["LuxuryCar"]?.entityNumber == 3)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "LuxuryCar")) == luxury)
        let car = try context.insertNewObject(forEntityName: "LuxuryCar")
        try car.setValue("NEW-1", forKey: "numberPlate")
        try context.save()
        let again = try RawStore(url)
        defer { again.close() }
        #expect(try again.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE Z_ENT = 3") } == luxury + 1)
    }

    @Test func theSameRenameMigratedHereKeepsTheOldNameInZPrimaryKey() throws {
        if AppleFixtures.skipping() { return }
        let store = AppleFixtures.storesWithModelFiles[0]   // SampleModel version 1
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let versions = try VersionedModel(contentsOf: try #require(AppleFixtures.bundleURL(store)))
        let step = try versions.migrationStep(from: "SampleModel", to: "SampleModel2")
        #expect(step.isLightweight)
        try step.migrateStore(at: url, type: .sqlite)
        let raw = try RawStore(url)
        defer { raw.close() }
        #expect(raw.entityNumbers == ["Car": 1, "SportCar": 2, "ExpensiveSportCar": 3, "Person": 4])
    }

    // EasyLife's TodoItem has blockedBy and blocking, each other's inverse: Core Data named the
    // join table after `blocking`, with the blocker's key in Z_2BLOCKEDBY. A link made here
    // lands in that table, the right way round.
    @Test func aRelationshipBetweenAnEntityAndItselfUsesCoreDatasJoinTable() throws {
        if AppleFixtures.skipping() { return }
        let store = AppleFixtures.storesWithModelFiles[5]
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try AppleModelTests.model(of: store))
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let items = try context.fetch(FetchRequest(entityName: "TodoItem")).sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        #expect(items.count == 6)
        // "call landlord" (1) blocks "send letter" (3), set from the blocked side.
        try items[2].mutableSetValue(forKey: "blockedBy").insert(items[0])
        try context.save()
        let raw = try RawStore(url)
        defer { raw.close() }
        let rows = try raw.queue.read { db in try Row.fetchAll(db, sql: "SELECT Z_2BLOCKEDBY, Z_2BLOCKING FROM Z_2BLOCKING") }
        #expect(rows.map { [$0[0] as Int64, $0[1] as Int64] } == [[1, 3]])
        let other = ManagedObjectContext(coordinator: coordinator)
        let landlord = try #require(try other.fetch(FetchRequest(entityName: "TodoItem")).first { $0.objectID.primaryKey == 1 })
        #expect(try (landlord.value(forKey: "blocking") as? Set<ManagedObject>)?.map(\.objectID.primaryKey) == [3])
    }
}
