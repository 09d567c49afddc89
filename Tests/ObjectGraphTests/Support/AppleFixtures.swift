import Foundation
import GRDB
import ObjectGraph

/// The stores Apple's Core Data wrote, in `../shared/fixtures/apple-stores` from the project's
/// root (never copied into the repository): where each store's model is, and how to open a
/// copy. Tests skip, saying why, where the folder is absent.
enum AppleFixtures {
    /// One fixture store and the model version that wrote it.
    struct Store: CustomStringConvertible, Sendable {
        /// The fixture's folder.
        let folder: String
        /// The store file in it.
        let file: String
        /// The model bundle in the folder, or nil when the model is not an Xcode file.
        let bundle: String?
        /// The bundle's version that wrote the store.
        let version: String?

        var description: String { folder }
    }

    /// The project's root: Tests/ObjectGraphTests/Support/ is three levels below it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The fixtures' folder.
    static let folder = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/apple-stores")

    /// Why the fixtures cannot be used here, or nil when they can.
    static var skipReason: String? {
        FileManager.default.fileExists(atPath: folder.path)
            ? nil
            : "skipped: the Apple-written fixture stores are not at \(folder.path) (a clone without ../shared/fixtures)"
    }

    /// Prints why a test skips; true when it should.
    static func skipping(_ test: String = #function) -> Bool {
        guard let reason = skipReason else { return false }
        print("\(test): \(reason)")
        return true
    }

    /// Every store whose model is an Xcode model file, with the version that wrote it
    /// (fixtures/apple-stores/README.md).
    static let storesWithModelFiles: [Store] = [
        Store(
            folder: "alemar11-CoreDataPlus-SampleModel_V1", file: "SampleModel_V1.sqlite",
            bundle: "SampleModel.xcdatamodeld", version: "SampleModel"),
        Store(
            folder: "alemar11-CoreDataPlus-SampleModel_V2", file: "SampleModel_V2.sqlite",
            bundle: "SampleModel.xcdatamodeld", version: "SampleModel2"),
        Store(
            folder: "wibosco-CoreDataMigration-Example-3", file: "CoreDataMigration_Example_3.sqlite",
            bundle: "CoreDataMigration_Example.xcdatamodeld", version: "CoreDataMigration_Example 3"),
        Store(
            folder: "wibosco-CoreDataMigration-Example-WAL", file: "CoreDataMigration_Example_WAL.sqlite",
            bundle: "CoreDataMigration_Example.xcdatamodeld", version: "CoreDataMigration_Example 4"),
        Store(
            folder: "kodecocodes-cdt-materials-SurfJournal", file: "SurfJournalModel.sqlite",
            bundle: "SurfJournalModel.xcdatamodeld", version: "SurfJournalModel"),
        Store(
            folder: "larromba-EasyLife-1.5.0", file: "EasyLife 1.5.0.sqlite", bundle: "EasyLife.xcdatamodeld",
            version: "EasyLife 1.5.0"),
        Store(
            folder: "richardpiazza-XCServerCoreData-1.2.0", file: "XCServerCoreData_1.2.0.sqlite",
            bundle: "XCServerCoreData.xcdatamodeld", version: "XCServerCoreData1.2.0"),
        Store(folder: "contentful-persistence-Test", file: "Test.sqlite", bundle: "Test.xcdatamodeld", version: "Test"),
    ]

    /// The store whose model was built in Swift (CoreDataPlus's `SampleModel2+V1.swift`).
    static let sampleModel2 = Store(
        folder: "alemar11-CoreDataPlus-SampleModel2_V1", file: "SampleModel2_V1.sqlite", bundle: nil, version: nil)

    /// Every `.xcdatamodeld` bundle among the fixtures.
    static func bundles() throws -> [URL] {
        var result: [URL] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let sub = folder.appendingPathComponent(name)
            for item in (try? FileManager.default.contentsOfDirectory(atPath: sub.path)) ?? []
            where item.hasSuffix(".xcdatamodeld") {
                result.append(sub.appendingPathComponent(item))
            }
        }
        return result
    }

    /// The store's bundle, read in place (model files are only read).
    static func bundleURL(_ store: Store) -> URL? {
        store.bundle.map { folder.appendingPathComponent(store.folder).appendingPathComponent($0) }
    }

    /// Copies the store, with its `-wal` and `-shm` files, into `directory`; returns the copy.
    /// Tests always work on copies: SQLite checkpoints a WAL into its store when the last
    /// connection closes, which would change the fixture.
    static func copy(_ store: Store, to directory: URL) throws -> URL {
        let source = folder.appendingPathComponent(store.folder).appendingPathComponent(store.file)
        let target = directory.appendingPathComponent(store.file)
        for suffix in ["", "-wal", "-shm"] {
            let from = URL(fileURLWithPath: source.path + suffix)
            guard FileManager.default.fileExists(atPath: from.path) else { continue }
            let to = URL(fileURLWithPath: target.path + suffix)
            try FileManager.default.copyItem(at: from, to: to)
            // The fixtures are read-only; the copies must be writable for SQLite.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: to.path)
        }
        return target
    }

    /// The metadata property list of a store, read with the test's own SQL (not the store's
    /// code): `Z_METADATA.Z_PLIST` through PropertyListSerialization.
    static func rawMetadata(at url: URL) throws -> [String: Any] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let data = try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        }
        guard let data,
            let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return plist
    }
}
