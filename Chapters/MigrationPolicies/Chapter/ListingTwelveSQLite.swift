import ObjectGraph
import WorkbookSupport

/// Listing 12's migration, with the article's policy, between two SQLite stores: what the
/// migration manager reads and writes (run it with `--sql` to see every statement).
enum ListingTwelveSQLite {
    static func run(_ bench: Workbench) throws {
        let source = try SampleToDos.makeVersion1Store(bench, type: .sqlite)
        let destination = SampleToDos.sibling(of: source, named: "ToDo 2.sqlite")
        // ANCHOR: migrate-sqlite
        let manager = MigrationManager(sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        try manager.migrateStore(from: source, type: .sqlite, options: [:], with: try ToDoModels.doNotAlertMappingModel(),
                                 to: destination, type: .sqlite, options: bench.fixedStoreOptions())
        // ANCHOR_END: migrate-sqlite
        bench.print("The version 2 SQLite store:")
        for line in try SampleToDos.describe(storeAt: destination, model: ToDoModels.version2(), type: .sqlite) { bench.print("  " + line) }
    }
}
