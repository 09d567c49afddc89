import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

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
            (
                try Row.fetchAll(db, sql: "SELECT Z_PK, ZCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK"),
                try Row.fetchAll(db, sql: "SELECT Z_PK, ZPOST, ZCOLORID, ZHEX FROM ZCOLOR ORDER BY Z_PK")
            )
        }
        let keys = try before.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        }
        before.close()
        #expect(posts.count == 7995 && colors.count == 7995)

        let versions = try VersionedModel(contentsOf: try #require(AppleFixtures.bundleURL(store)))
        #expect(versions.currentVersionName == "CoreDataMigration_Example 4")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: versions.currentModel)
        let lines = LockedLines()
        coordinator.sqlLog.handler = { lines.append($0) }
        try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                StoreOption.migratePersistentStoresAutomatically: true,
                StoreOption.inferMappingModelAutomatically: true,
                StoreOption.versionedModel: versions,
            ])
        // In place: the table was altered, not copied to a new file.
        #expect(
            lines.all.contains { $0.contains("ALTER TABLE ZPOST ADD COLUMN ZHIDE INTEGER") }, "\(lines.all.prefix(20))")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy {
                $0.hasPrefix("CoreDataMigration_Example_3.sqlite")
            })
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(versions.versionName(forStoreMetadata: metadata) == "CoreDataMigration_Example 4")

        // Every row and value kept, the new attribute at its default; keys and numbering kept.
        let after = try RawStore(url)
        defer { after.close() }
        try after.queue.read { (db: Database) throws -> Void in
            #expect(try Row.fetchAll(db, sql: "SELECT Z_PK, ZCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK") == posts)
            #expect(try Row.fetchAll(db, sql: "SELECT Z_PK, ZPOST, ZCOLORID, ZHEX FROM ZCOLOR ORDER BY Z_PK") == colors)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST WHERE ZHIDE = 0") == 7995)
            #expect(
                try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                    == keys)
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Post")
        request.predicate = try Predicate(checkedFormat: "hide == NO AND color.hex != nil")
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
        let luxury = try raw.queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE Z_ENT = 3") ?? 0
        }
        #expect(raw.entityNumbers["ExpensiveSportCar"] == 3 && raw.entityNumbers["LuxuryCar"] == nil)
        raw.close()
        let model = try AppleModelTests.model(of: store)
        #expect(model.entitiesByName["LuxuryCar"]?.entityNumber == 3)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "LuxuryCar")) == luxury)
        let car = try context.insertNewObject(forEntityName: "LuxuryCar")
        try car.checkedSetValue("NEW-1", forKey: "numberPlate")
        try context.save()
        let again = try RawStore(url)
        defer { again.close() }
        #expect(
            try again.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE Z_ENT = 3") }
                == luxury + 1)
    }

    @Test func theSameRenameMigratedHereKeepsTheOldNameInZPrimaryKey() throws {
        if AppleFixtures.skipping() { return }
        let store = AppleFixtures.storesWithModelFiles[0] // SampleModel version 1
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
        let items = try context.fetch(FetchRequest(entityName: "TodoItem")).sorted {
            $0.objectID.primaryKey < $1.objectID.primaryKey
        }
        #expect(items.count == 6)
        // "call landlord" (1) blocks "send letter" (3), set from the blocked side.
        try items[2].mutableSetValue(forKey: "blockedBy").insert(items[0])
        try context.save()
        let raw = try RawStore(url)
        defer { raw.close() }
        let rows = try raw.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_2BLOCKEDBY, Z_2BLOCKING FROM Z_2BLOCKING")
        }
        #expect(rows.map { [$0[0] as Int64, $0[1] as Int64] } == [[1, 3]])
        let other = ManagedObjectContext(coordinator: coordinator)
        let landlord = try #require(
            try other.fetch(FetchRequest(entityName: "TodoItem")).first { $0.objectID.primaryKey == 1 })
        #expect(
            try (landlord.checkedValue(forKey: "blocking") as? Set<ManagedObject>)?.map(\.objectID.primaryKey) == [3])
    }
}

// contentful's store has ordered relationships and no rows: written here, then read with the
// test's own SQL through Core Data's own Z_FOK_ columns, and read back in order.
@Suite struct AppleOrderedStoreTests {
    @Test func orderedRelationshipsWrittenIntoContentfulsStoreUseItsOrderColumns() throws {
        if AppleFixtures.skipping() { return }
        let store = AppleFixtures.storesWithModelFiles[7]
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let model = try AppleModelTests.model(of: store)
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            func make(_ entity: String, _ id: String) throws -> ManagedObject {
                let object = try context.insertNewObject(forEntityName: entity)
                try object.checkedSetValue(id, forKey: "id")
                if entity == "Post" || entity == "Category" { try object.checkedSetValue(id, forKey: "title") }
                return object
            }
            let posts = try ["p1", "p2", "p3"].map { try make("Post", $0) }
            let ada = try make("Author", "ada")
            let bob = try make("Author", "bob")
            let news = try make("Category", "news")
            let art = try make("Category", "art")
            try ada.checkedSetValue([posts[2], posts[0]], forKey: "createdEntries")
            try bob.checkedSetValue([posts[0]], forKey: "createdEntries")
            // Post.authors is ordered too: p1's authors in the order they were added.
            #expect(
                try (posts[0].checkedValue(forKey: "authors") as? [ManagedObject])?.map {
                    try $0.checkedValue(forKey: "id") as? String
                } == ["ada", "bob"])
            try posts[0].checkedSetValue([bob, ada], forKey: "authors")
            try posts[1].checkedSetValue([art, news], forKey: "category")
            try context.save()
        }
        let raw = try RawStore(url)
        try raw.queue.read { (db: Database) throws -> Void in
            // Author.createdEntries: Z_4CREATEDENTRIES holds posts, ordered per author by Z_FOK_4CREATEDENTRIES.
            let adas = try String.fetchAll(
                db,
                sql: """
                    SELECT p.ZID FROM Z_2CREATEDENTRIES j JOIN ZPOST p ON p.Z_PK = j.Z_4CREATEDENTRIES JOIN ZAUTHOR a ON a.Z_PK = j.Z_2AUTHORS
                    WHERE a.ZID = 'ada' ORDER BY j.Z_FOK_4CREATEDENTRIES
                    """)
            #expect(adas == ["p3", "p1"])
            let p1Authors = try String.fetchAll(
                db,
                sql: """
                    SELECT a.ZID FROM Z_2CREATEDENTRIES j JOIN ZAUTHOR a ON a.Z_PK = j.Z_2AUTHORS JOIN ZPOST p ON p.Z_PK = j.Z_4CREATEDENTRIES
                    WHERE p.ZID = 'p1' ORDER BY j.Z_FOK_2AUTHORS
                    """)
            #expect(p1Authors == ["bob", "ada"])
            let p2Categories = try String.fetchAll(
                db,
                sql: """
                    SELECT c.ZID FROM Z_3CATEGORYINVERSE j JOIN ZCATEGORY c ON c.Z_PK = j.Z_3CATEGORY JOIN ZPOST p ON p.Z_PK = j.Z_4CATEGORYINVERSE
                    WHERE p.ZID = 'p2' ORDER BY j.Z_FOK_3CATEGORY
                    """)
            #expect(p2Categories == ["art", "news"])
        }
        raw.close()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Author")
        request.predicate = try Predicate(checkedFormat: "id == 'ada'")
        let ada = try #require(try context.fetch(request).first)
        #expect(
            try (ada.checkedValue(forKey: "createdEntries") as? [ManagedObject])?.map {
                try $0.checkedValue(forKey: "id") as? String
            } == ["p3", "p1"])
    }
}
