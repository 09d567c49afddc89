import CoreData
import ObjectGraph
import WorkbookSupport

/// What happens when version 2 of the application opens the store version 1 wrote, without
/// asking for migration.
enum Incompatible {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        try SampleData.insertToDos(into: try openToDoStore(in: folder, model: try ToDoModels.version1()))
        // ANCHOR: compatible
        let storeURL = folder.appendingPathComponent("ToDo.xml")
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: storeURL)
        let fits1 = try ToDoModels.version1().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        let fits2 = try ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        // ANCHOR_END: compatible
        print("Version 1 of the model can open the store: \(fits1)")
        print("Version 2 of the model can open the store: \(fits2)")
        print("")
        do {
            // ANCHOR: incompatible
            _ = try openToDoStore(in: folder, model: try ToDoModels.version2())
            // ANCHOR_END: incompatible
            print("Opened (this should not happen)")
        } catch let error as CoreDataError {
            print("Core Data \(error.kind):")
            print(Self.withoutPaths(error.message, folder: folder))
        }
    }

    /// The message with the temporary folder left out, so the book reads the same everywhere.
    static func withoutPaths(_ message: String, folder: URL) -> String {
        message.replacingOccurrences(of: folder.path + "/", with: "")
    }
}
