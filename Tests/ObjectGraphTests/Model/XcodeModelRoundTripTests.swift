import Foundation
import GRDB
import ObjectGraph
import Testing

final class RoundTripPerson: ManagedObject {}

// A model declared in Swift, written in Xcode's format and read back, is the same model.
@Suite struct XcodeModelRoundTripTests {
    static func everything() throws -> ManagedObjectModel {
        try ManagedObjectModel(versionIdentifier: "3") {
            EntityDescription(
                "Party", abstract: true, renamingIdentifier: "Actor", versionHashModifier: "v2",
                userInfo: ["note": "a \"quoted\" <value> & more"]
            ) {
                AttributeDescription(
                    "name", .string, optional: false, defaultValue: "Anonymous", indexed: true,
                    minValue: 1, maxValue: 80, regularExpression: "[A-Z].*")
            }
            EntityDescription(
                "Person", parent: "Party", class: RoundTripPerson.self,
                indexes: [FetchIndexDescription("byBorn", [.init("born", ascending: false), .init("height")])],
                uniquenessConstraints: [["email"], ["name", "born"]]
            ) {
                AttributeDescription("email", .string)
                AttributeDescription(
                    "born", .date, defaultValue: Date(timeIntervalSinceReferenceDate: 86_400.5),
                    minValue: -1_000_000, maxValue: 1e9)
                AttributeDescription("height", .float, defaultValue: 1.75)
                AttributeDescription("shoe", .integer16, defaultValue: 42, minValue: 20, maxValue: 50)
                AttributeDescription("visits", .integer32, defaultValue: -3)
                AttributeDescription("score", .integer64, defaultValue: 9_000_000_000)
                AttributeDescription("balance", .decimal, defaultValue: Decimal(string: "12.34"))
                AttributeDescription("ratio", .double, defaultValue: 0.1)
                AttributeDescription("active", .boolean, optional: false, defaultValue: true)
                AttributeDescription("photo", .binaryData)
                AttributeDescription(
                    "key", .uuid, defaultValue: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
                AttributeDescription("home", .uri, defaultValue: URL(string: "https://example.com/a?b=c&d=e"))
                AttributeDescription(
                    "mood", .string, transient: true, renamingIdentifier: "feeling",
                    versionHashModifier: "m1", userInfo: ["k": "v", "line": "one\ntwo"])
                RelationshipDescription(
                    "pets", toMany: "Pet", inverse: "owner", deleteRule: .deny, minCount: 1, maxCount: 5,
                    renamingIdentifier: "animals", versionHashModifier: "p", userInfo: ["x": "y"])
                RelationshipDescription("friends", toMany: "Person", inverse: "friends", deleteRule: .noAction)
            }
            EntityDescription("Pet") {
                AttributeDescription("name", .string)
                RelationshipDescription(
                    "owner", toOne: "Person", inverse: "pets", deleteRule: .cascade, optional: false)
            }
        }
    }

    @Test func aSwiftModelSurvivesWritingAndReading() throws {
        let dir = try TemporaryDirectory()
        let url = dir.file("Everything.xcdatamodel")
        let model = try Self.everything()
        try model.writeXcodeModel(to: url)
        let loader = XcodeModelLoader(classes: ["RoundTripPerson": RoundTripPerson.self])
        let read = try loader.loadModel(at: url)
        #expect(loader.warnings.isEmpty, "\(loader.warnings)")
        #expect(read.entities.map(\.name) == ["Party", "Person", "Pet"])
        for (a, b) in zip(model.entities, read.entities) {
            #expect(a == b, "entity \(a.name) differs")
            #expect(a.attributes == b.attributes)
            #expect(a.relationships == b.relationships)
        }
        #expect(read.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(read.versionIdentifiers == ["3"])
        // Writing what was read gives the same bytes.
        #expect(read.xcodeModelContents() == model.xcodeModelContents())
    }

    @Test func aBundleSurvivesWritingAndReading() throws {
        let dir = try TemporaryDirectory()
        let url = dir.file("ToDo.xcdatamodeld")
        let original = try ModelBundle(contentsOf: ModelFixtures.toDo)
        try original.write(to: url)
        let plist = try String(contentsOf: url.appendingPathComponent(".xccurrentversion"), encoding: .utf8)
        #expect(
            plist.contains("<key>_XCCurrentVersionName</key>") && plist.contains("<string>ToDo 2.xcdatamodel</string>"))
        let read = try ModelBundle(contentsOf: url)
        #expect(read.versionNames == ["ToDo", "ToDo 2"])
        #expect(read.currentVersionName == "ToDo 2")
        for name in read.versionNames {
            #expect(
                read.model(named: name)?.entityVersionHashesByName
                    == original.model(named: name)?.entityVersionHashesByName)
            #expect(read.model(named: name)?.entities == original.model(named: name)?.entities)
        }
    }

    @Test func aBundleNeedsItsCurrentVersion() throws {
        let model = try XcodeModelFileTests.toDoVersion1()
        let error = #expect(throws: CoreDataError.self) {
            _ = try ModelBundle(versions: [(name: "ToDo", model: model)], currentVersionName: "ToDo 2")
        }
        #expect(
            error?.message.contains("The current version ToDo 2 is not one of the bundle's versions (ToDo)") == true)
        let numeric = try ModelBundle(
            versions: [("M 10", model), ("M 2", model), ("M", model)], currentVersionName: "M 10")
        #expect(numeric.versionNames == ["M", "M 2", "M 10"])
    }
}

// Fetch indexes read from a model file reach the SQLite store, named as Core Data names them.
@Suite struct FetchIndexStoreTests {
    @Test func theSQLiteStoreCreatesFetchIndexes() throws {
        let directory = try TemporaryDirectory()
        let model = try ManagedObjectModel {
            EntityDescription(
                "Item",
                indexes: [
                    FetchIndexDescription("byRankAndCode", [.init("rank", ascending: false), .init("code")]),
                    FetchIndexDescription("byScratch", [.init("scratch")]),
                ]
            ) {
                AttributeDescription("code", .string)
                AttributeDescription("rank", .integer32)
                AttributeDescription("scratch", .string, transient: true)
            }
        }
        let bad = #expect(throws: CoreDataError.self) {
            _ = try ManagedObjectModel {
                EntityDescription("Item", indexes: [FetchIndexDescription("by rank", [.init("rank")])]) {
                    AttributeDescription("rank", .integer32)
                }
            }
        }
        #expect(bad?.message.contains("Fetch index name \"by rank\" of Item is not a valid name") == true)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let url = directory.file("Items.sqlite")
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Item").checkedSetValue("A", forKey: "code")
        try context.save()
        let queue = try DatabaseQueue(path: url.path)
        let sql = try queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z\\_Item\\_%' ESCAPE '\\'")
        }
        #expect(
            sql == ["CREATE INDEX Z_Item_byRankAndCode ON ZITEM (ZRANK COLLATE BINARY DESC, ZCODE COLLATE BINARY ASC)"])
        try queue.close()
    }
}
