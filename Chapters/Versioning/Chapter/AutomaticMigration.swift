import CoreData
import ObjectGraph
import WorkbookSupport

// ANCHOR: automatic-migration
/// Opens the ToDo store in `folder` with the current version of the model, migrating it
/// first if an older version wrote it.
func openMigratingToDoStore(in folder: URL, type: NSPersistentStore.StoreType = .xml) throws -> NSManagedObjectContext {
    let versions = try VersionedModel(contentsOf: ToDoModels.bundleURL)
    let coordinator = NSPersistentStoreCoordinator(versionedModel: versions)
    let storeURL = folder.appendingPathComponent(type == .xml ? "ToDo.xml" : "ToDo.sqlite")
    try coordinator.addPersistentStore(
        type: type, at: storeURL,
        options: [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
        ])
    let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return context
}
// ANCHOR_END: automatic-migration

/// Version 2 opens version 1's store with automatic, lightweight migration.
enum AutomaticMigration {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        try SampleData.insertToDos(into: try openToDoStore(in: folder, model: try ToDoModels.version1()))
        // ANCHOR: migration-steps
        let storeURL = folder.appendingPathComponent("ToDo.xml")
        let before = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: storeURL)
        let versions = try VersionedModel(contentsOf: ToDoModels.bundleURL)
        let steps = try versions.migrationSteps(forStoreMetadata: before)
        print("What opening the store will do: \(steps.map(\.description).joined(separator: ", then "))")
        // ANCHOR_END: migration-steps
        print("")
        print("Before, the store's version hashes:")
        for line in hashLines(before) { print("  " + line) }

        let context = try openMigratingToDoStore(in: folder)
        let after = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: storeURL)
        print("After:")
        for line in hashLines(after) { print("  " + line) }
        print(
            "The store's UUID is the same: \((before["NSStoreUUID"] as? String) == (after["NSStoreUUID"] as? String))")
        print("")
        print("The to-dos, read through version 2:")
        for line in try SampleData.list(context, version: 2) { print("  " + line) }
        print("")
        let again = try versions.migrationSteps(forStoreMetadata: after)
        print(
            "Opening it again migrates nothing: \(again.isEmpty ? "no steps" : again.map(\.description).joined(separator: ", "))"
        )
    }

    /// Each entity's version hash in the metadata, in base64.
    static func hashLines(_ metadata: [String: Any]) -> [String] {
        let hashes = metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
        return hashes.keys.sorted().map { "\($0): \(hashes[$0]?.base64EncodedString() ?? "")" }
    }
}
