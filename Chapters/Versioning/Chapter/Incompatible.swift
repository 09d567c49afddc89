import ObjectGraph
import WorkbookSupport

/// What happens when version 2 of the application opens the store version 1 wrote, without
/// asking for migration.
enum Incompatible {
    static func run(_ bench: Workbench) throws {
        let dataFolder = try bench.makeDataFolder()
        let options = bench.fixedStoreOptions()
        try SampleData.insert(into: try Stack.open(in: dataFolder, model: try ToDoModels.version1(), options: options))
        let storeURL = dataFolder.appendingPathComponent("ToDo.xml")
        // ANCHOR: compatible
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: storeURL)
        let fits1 = try ToDoModels.version1().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        let fits2 = try ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        // ANCHOR_END: compatible
        bench.print("Version 1 of the model can open the store: \(fits1)")
        bench.print("Version 2 of the model can open the store: \(fits2)")
        bench.print("")
        do {
            // ANCHOR: incompatible
            _ = try Stack.open(in: dataFolder, model: try ToDoModels.version2(), options: options)
            // ANCHOR_END: incompatible
            bench.print("Opened (this should not happen)")
        } catch let error as CoreDataError {
            bench.print("Core Data \(error.kind):")
            bench.print(Self.withoutPaths(error.message, folder: dataFolder))
        }
    }

    /// The message with the temporary folder left out, so the book reads the same everywhere.
    static func withoutPaths(_ message: String, folder: URL) -> String {
        message.replacingOccurrences(of: folder.path + "/", with: "")
    }
}
