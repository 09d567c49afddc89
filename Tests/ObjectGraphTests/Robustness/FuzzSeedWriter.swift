import Foundation
import ReaderFuzzing
import Testing

@testable import ObjectGraph

// Writes the fuzzers' seeds (Fuzz/<reader>/seed) from the package's own fixtures and from
// files ObjectGraph writes: run it after a format changes, and commit what changes.
//   OBJECTGRAPH_WRITE_FUZZ_SEEDS=1 swift test --skip-build --filter FuzzSeedWriter
// Otherwise it is skipped. Seeds stay small (a few KB each).

@Suite("Fuzz seeds", .enabled(if: ProcessInfo.processInfo.environment["OBJECTGRAPH_WRITE_FUZZ_SEEDS"] == "1"))
struct FuzzSeedWriter {
    static let root = FuzzedReaders.fuzzDirectory.deletingLastPathComponent()

    /// Replaces a reader's seeds with these files.
    static func write(_ reader: String, _ files: [String: Data]) throws {
        let folder = FuzzedReaders.fuzzDirectory.appendingPathComponent(reader).appendingPathComponent("seed")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
    }

    static func fixture(_ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }

    static func plist(_ value: Any, _ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0)
    }

    @Test func writeModelSeeds() throws {
        try Self.write(
            "model",
            [
                "Everything": try Self.fixture("Tests/ObjectGraphTests/Fixtures/Everything.xcdatamodel/contents"),
                "ToDo1": try Self.fixture(
                    "Tests/ObjectGraphTests/Fixtures/ToDo.xcdatamodeld/ToDo.xcdatamodel/contents"),
                "ToDo2": try Self.fixture(
                    "Tests/ObjectGraphTests/Fixtures/ToDo.xcdatamodeld/ToDo 2.xcdatamodel/contents"),
                "Dangling": try Self.fixture("Tests/ObjectGraphTests/Fixtures/Broken/Dangling.xcdatamodel/contents"),
                "Malformed": try Self.fixture("Tests/ObjectGraphTests/Fixtures/Broken/Malformed.xcdatamodel/contents"),
                "Earthquakes": try Self.fixture(
                    "Tests/CoreDataSampleTests/Resources/Earthquakes.xcdatamodeld/Earthquakes.xcdatamodel/contents"),
                "Library2": try Self.fixture(
                    "Tests/CoreDataSampleTests/Resources/Library.xcdatamodeld/Library 2.xcdatamodel/contents"),
                "Written": Data(FuzzedReaders.storeModel.xcodeModelContents().utf8),
            ])
    }

    @Test func writeCurrentVersionSeeds() throws {
        try Self.write(
            "currentversion",
            [
                "xcode": try Self.fixture("Tests/ObjectGraphTests/Fixtures/ToDo.xcdatamodeld/.xccurrentversion"),
                "xml": try Self.plist(["_XCCurrentVersionName": "Fuzz 2.xcdatamodel"], .xml),
                "binary": try Self.plist(["_XCCurrentVersionName": "Fuzz 2.xcdatamodel"], .binary),
                "bare-name": try Self.plist(["_XCCurrentVersionName": "Fuzz"], .xml),
                "no-name": try Self.plist(["Other": ["a", 1, true]], .xml),
            ])
    }

    @Test func writeMappingSeeds() throws {
        let fixture = Self.root.appendingPathComponent(
            "Tests/ObjectGraphTests/Fixtures/Mapping/ToDo1To2.xcmappingmodel")
        try Self.write("mapping", ["ToDo1To2": try Data(contentsOf: fixture.appendingPathComponent("xcmapping.xml"))])
        let mapping = try MappingModel(contentsOf: fixture)
        try Self.write(
            "cdm",
            [
                "ToDo1To2": try XcodeMappingArchives.compiled(
                    mapping.entityMappings, archive: XcodeMappingArchives.archive)
            ])
    }

    /// A store of the atomic store fuzzers' model with one object of each kind and every value.
    static func store(_ type: StoreType, in directory: TemporaryDirectory) throws -> Data {
        let url = directory.file("Seed.\(type.rawValue)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: FuzzedReaders.storeModel)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let tag = try context.insertNewObject(forEntityName: "Tag")
        try tag.checkedSetValue("red & <blue>", forKey: "label")
        let item = try context.insertNewObject(forEntityName: "Special")
        let values: [String: Any] = [
            "name": "Zoë \"quoted\"\u{1}", "small": 7, "count": -70000, "big": Int64.max,
            "price": Decimal(string: "19.99")!,
            "ratio": 0.1, "weight": 2.5, "done": true, "when": Date(timeIntervalSinceReferenceDate: 86400.5),
            "blob": Data([0, 1, 2, 255]), "identifier": UUID(uuidString: "F1C7A4E5-0000-4000-8000-000000000001")!,
            "link": URL(string: "https://example.com/a?b=c")!,
            "settings": ["theme": "dark", "sizes": [1, 2]] as [String: Any],
            "note": "sub-entity",
        ]
        for (key, value) in values { try item.checkedSetValue(value, forKey: key) }
        // The atomic stores keep no transformed value yet (they refuse to save one).
        try item.checkedSetValue(nil, forKey: "settings")
        try item.checkedSetValue(Set([tag]), forKey: "tags")
        try item.checkedSetValue([tag], forKey: "steps")
        try item.checkedSetValue(tag, forKey: "owner")
        let plain = try context.insertNewObject(forEntityName: "Item")
        try plain.checkedSetValue("plain", forKey: "name")
        try context.save()
        return try Data(contentsOf: url)
    }

    @Test func writeStoreSeeds() throws {
        let directory = try TemporaryDirectory()
        try Self.write(
            "xmlstore",
            [
                "everything.xml": try Self.store(.xml, in: directory),
                "ToDo.xml": try Self.fixture("Chapters/Versioning/Chapter/Fixtures/ToDo.xml"),
            ])
        try Self.write("binarystore", ["everything.binary": try Self.store(.binary, in: directory)])
    }

    @Test func writeArchiveSeeds() throws {
        let values: [String: Any] = [
            "array": ["a", 1, 2.5, true] as [Any], "dictionary": ["k": ["nested": [1, 2]]] as [String: Any],
            "set": Set(["x", "y"]), "string": "Zoë", "number": 42, "date": Date(timeIntervalSinceReferenceDate: 0),
            "data": Data([1, 2, 3]), "url": URL(string: "file:///tmp/a")!,
            "uuid": UUID(uuidString: "F1C7A4E5-0000-4000-8000-000000000001")!,
            "null": NSNull(),
            "object": KeyedArchive.ArchivedObject(
                classNames: ["Color", "NSObject"], fields: ["r": 1.0, "name": "red"]),
        ]
        var archives: [String: Data] = [:]
        for (name, value) in values {
            archives[name] = try KeyedArchive.archivedData(withRootValue: value, allowedClassNames: nil)
        }
        for (name, data) in try XcodeMappingArchives.fixtureArchives() { archives["expression-\(name)"] = data }
        try Self.write("keyedarchive", archives)
    }
}
