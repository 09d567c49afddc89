import ObjectGraph
import WorkbookSupport

/// The same migration on a SQLite store, where it runs in place, in SQL: the tables before
/// and after.
enum SchemaDiff {
    static func run(_ bench: Workbench) throws {
        let dataFolder = try bench.makeDataFolder()
        try SampleData.insert(into: try Stack.open(in: dataFolder, model: try ToDoModels.version1(), type: .sqlite,
                                                   options: bench.fixedStoreOptions()))
        let storeURL = dataFolder.appendingPathComponent("ToDo.sqlite")
        // ANCHOR: inspect
        let before = try StoreInspection(at: storeURL)
        _ = try AutomaticMigration.openMigrating(in: dataFolder, type: .sqlite)
        let after = try StoreInspection(at: storeURL)
        // ANCHOR_END: inspect
        bench.print("The tables of version 1's store:")
        for table in before.tables { bench.print("  \(table.name)(\(table.columns.joined(separator: ", "))), \(table.rowCount) \(table.rowCount == 1 ? "row" : "rows")") }
        bench.print("")
        bench.print("What the migration changed:")
        for table in after.tables {
            guard let old = before.tables.first(where: { $0.name == table.name }) else {
                bench.print("+ table \(table.name)")
                continue
            }
            for column in table.columns where !old.columns.contains(column) { bench.print("+ \(table.name).\(column)") }
            for column in old.columns where !table.columns.contains(column) { bench.print("- \(table.name).\(column)") }
            if table.rowCount != old.rowCount { bench.print("  \(table.name): \(old.rowCount) rows, now \(table.rowCount)") }
        }
        for table in before.tables where !after.tables.contains(where: { $0.name == table.name }) {
            bench.print("- table \(table.name)")
        }
    }
}
