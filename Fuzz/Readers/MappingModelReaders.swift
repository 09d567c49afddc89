import Foundation
import ObjectGraph

// Mapping models, both forms `MappingModel(contentsOf:sourceModel:destinationModel:)` reads:
// Xcode's source (`xcmapping.xml` in an `.xcmappingmodel`, a Core Data XML store of Xcode's
// editing objects) and the compiled `.cdm` (a keyed archive of NSMappingModel). A mapping that
// loads then migrates Zarra's ToDo store with it, since its value expressions came from the
// file too.

/// Zarra's ToDo model, versions 1 and 2, from the test fixtures; and his version 1 store.
private enum ToDoFixtures {
    static let root = FuzzedReaders.fuzzDirectory.deletingLastPathComponent()
    static let versions: ModelBundle = {
        do {
            return try XcodeModelLoader().loadBundle(
                at: root.appendingPathComponent("Tests/ObjectGraphTests/Fixtures/ToDo.xcdatamodeld"))
        } catch {
            fatalError("the fuzzers need Tests/ObjectGraphTests/Fixtures/ToDo.xcdatamodeld: \(error)")
        }
    }()
    static let version1Store = root.appendingPathComponent("Chapters/Versioning/Chapter/Fixtures/ToDo.xml")
}

/// Reads a mapping model file and, when it loads, migrates the ToDo store with it.
private func checkMappingModel(_ data: Data, at file: URL, given url: URL, in scratch: FuzzScratch) -> String? {
    scratch.write(data, to: file)
    let source = ToDoFixtures.versions.model(named: "ToDo")!
    let destination = ToDoFixtures.versions.model(named: "ToDo 2")!
    let mapping: MappingModel
    do {
        mapping = try MappingModel(contentsOf: url, sourceModel: source, destinationModel: destination)
    } catch {
        return fileReaderFinding(error, naming: file, in: scratch)
    }
    _ = mapping.matchesVersionHashes(ofSourceModel: source, destinationModel: destination)
    let store = scratch.file("ToDo.xml")
    let migrated = scratch.file("Migrated.xml")
    if scratch.prepared.insert("ToDo.xml").inserted {
        try? FileManager.default.copyItem(at: ToDoFixtures.version1Store, to: store)
    }
    try? FileManager.default.removeItem(at: migrated)
    defer { try? FileManager.default.removeItem(at: migrated) }
    do {
        try MigrationManager(sourceModel: source, destinationModel: destination)
            .migrateStore(from: store, type: .xml, with: mapping, to: migrated, type: .xml)
    } catch is CoreDataError {
        // A mapping may name what the models lack or compute what does not fit: refused, fine.
    } catch {
        return "migrating with the mapping threw \(type(of: error)) (\(error)), not a CoreDataError"
    }
    return nil
}

extension FuzzedReaders {
    /// Xcode's `xcmapping.xml`.
    static let mappingReader = FuzzedReader(
        name: "mapping",
        summary:
            "Xcode mapping model source (an .xcmappingmodel's xcmapping.xml): MappingModel(contentsOf:sourceModel:destinationModel:), then a migration with it"
    ) { data, scratch in
        let folder = scratch.file("Fuzz.xcmappingmodel")
        if scratch.prepared.insert("mapping").inserted {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        return checkMappingModel(data, at: folder.appendingPathComponent("xcmapping.xml"), given: folder, in: scratch)
    }

    /// A compiled `.cdm`.
    static let compiledMappingReader = FuzzedReader(
        name: "cdm",
        summary:
            "compiled mapping models (.cdm, a keyed archive): MappingModel(contentsOf:sourceModel:destinationModel:), then a migration with it"
    ) { data, scratch in
        let file = scratch.file("Fuzz.cdm")
        return checkMappingModel(data, at: file, given: file, in: scratch)
    }
}
