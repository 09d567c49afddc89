import CoreData
import ObjectGraph
import WorkbookSupport

/// Stores that version 1 wrote, kept in the repository (Chapters/Versioning/Fixtures), opened
/// by version 2: what a user upgrading the application brings along.
enum FixtureStores {
    /// The fixture stores, one per store type.
    static let files: [(name: String, type: NSPersistentStore.StoreType)] = [
        ("ToDo.xml", .xml), ("ToDo.sqlite", .sqlite),
    ]

    /// The folder the fixtures ship in.
    static var fixtureFolder: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }

    /// Writes version 1 stores of the sample data into `folder`: how the fixtures were made.
    static func writeVersion1Stores(in folder: URL) throws {
        for (index, file) in files.enumerated() {
            let uuid = String(format: "F1C7A4E5-0000-4000-8000-%012d", index + 1)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try ToDoModels.version1())
            try coordinator.addPersistentStore(
                type: file.type, at: folder.appendingPathComponent(file.name),
                options: [StoreOption.storeUUID: uuid])
            let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try SampleData.insertToDos(into: context)
        }
    }

    static func run(_ bench: Workbench) throws {
        for file in files {
            let dataFolder = try bench.makeDataFolder()
            let storeURL = dataFolder.appendingPathComponent(file.name)
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent(file.name), to: storeURL)
            let before = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: file.type, at: storeURL)
            let version = try ToDoModels.versionedModel().versionName(forStoreMetadata: before) ?? "none"
            bench.print("\(file.name), written by model version \"\(version)\":")
            let context = try openMigratingToDoStore(in: dataFolder, type: file.type)
            for line in try SampleData.list(context, version: 2) { bench.print("  " + line) }
            bench.print("")
        }
        bench.print("Both stores now open with version 2, and every to-do kept its values and its category.")
    }
}
