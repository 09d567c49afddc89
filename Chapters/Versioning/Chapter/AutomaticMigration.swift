import ObjectGraph
import WorkbookSupport

/// Version 2 opens version 1's store with automatic, lightweight migration.
enum AutomaticMigration {
    /// Opens the ToDo store in `folder` with the current version of the model, migrating it
    /// first if an older version wrote it.
    static func openMigrating(in folder: URL, type: StoreType = .xml) throws -> ManagedObjectContext {
        // ANCHOR: automatic-migration
        let coordinator = PersistentStoreCoordinator(versionedModel: try ToDoModels.versionedModel())
        let storeURL = folder.appendingPathComponent(type == .xml ? "ToDo.xml" : "ToDo.sqlite")
        try coordinator.addPersistentStore(type: type, at: storeURL, options: [
            StoreOption.migratePersistentStoresAutomatically: true,
            StoreOption.inferMappingModelAutomatically: true,
        ])
        // ANCHOR_END: automatic-migration
        return ManagedObjectContext(coordinator: coordinator)
    }

    static func run(_ bench: Workbench) throws {
        let dataFolder = try bench.makeDataFolder()
        try SampleData.insert(into: try Stack.open(in: dataFolder, model: try ToDoModels.version1(), options: bench.fixedStoreOptions()))
        let storeURL = dataFolder.appendingPathComponent("ToDo.xml")
        let before = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: storeURL)
        // ANCHOR: migration-steps
        let steps = try ToDoModels.versionedModel().migrationSteps(forStoreMetadata: before)
        // ANCHOR_END: migration-steps
        bench.print("What opening the store will do: \(steps.map(\.description).joined(separator: ", then "))")
        bench.print("")
        bench.print("Before, the store's version hashes:")
        for line in hashLines(before) { bench.print("  " + line) }

        let context = try openMigrating(in: dataFolder)
        let after = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: storeURL)
        bench.print("After:")
        for line in hashLines(after) { bench.print("  " + line) }
        bench.print("The store's UUID is the same: \((before["NSStoreUUID"] as? String) == (after["NSStoreUUID"] as? String))")
        bench.print("")
        bench.print("The to-dos, read through version 2:")
        for line in try SampleData.list(context, version: 2) { bench.print("  " + line) }
        bench.print("")
        let again = try ToDoModels.versionedModel().migrationSteps(forStoreMetadata: after)
        bench.print("Opening it again migrates nothing: \(again.isEmpty ? "no steps" : again.map(\.description).joined(separator: ", "))")
    }

    /// Each entity's version hash in the metadata, in base64.
    static func hashLines(_ metadata: [String: Any]) -> [String] {
        let hashes = metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
        return hashes.keys.sorted().map { "\($0): \(hashes[$0]!.base64EncodedString())" }
    }
}
