import CoreData
import WorkbookSupport

/// Listing 12's migration, with the article's policy, between two SQLite stores: what the
/// migration manager reads and writes (run it with `--sql` to see every statement).
enum ListingTwelveSQLite {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        let source = try SampleToDos.makeVersion1Store(in: folder, type: .sqlite)
        // ANCHOR: migrate-sqlite
        let destination = folder.appendingPathComponent("ToDo 2.sqlite")
        let manager = NSMigrationManager(
            sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        try manager.migrateStore(
            from: source, type: .sqlite, options: nil, mapping: try ToDoModels.doNotAlertMappingModel(),
            to: destination, type: .sqlite, options: nil)
        // ANCHOR_END: migrate-sqlite
        print("The version 2 SQLite store:")
        for line in try SampleToDos.describe(storeAt: destination, model: ToDoModels.version2(), type: .sqlite) {
            print("  " + line)
        }
    }
}
