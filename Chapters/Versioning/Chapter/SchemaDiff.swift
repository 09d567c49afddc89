import CoreData
import ObjectGraph
import WorkbookSupport

/// The same migration on a SQLite store, where it runs in place, in SQL: the tables before
/// and after.
enum SchemaDiff {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        try SampleData.insertToDos(into: try openToDoStore(in: folder, model: try ToDoModels.version1(), type: .sqlite))
        // ANCHOR: inspect
        let storeURL = folder.appendingPathComponent("ToDo.sqlite")
        let before = try StoreInspection(at: storeURL)
        _ = try openMigratingToDoStore(in: folder, type: .sqlite)
        let after = try StoreInspection(at: storeURL)
        // ANCHOR_END: inspect
        print("The tables of version 1's store:")
        for table in before.tables {
            print(
                "  \(table.name)(\(table.columns.joined(separator: ", "))), \(table.rowCount) \(table.rowCount == 1 ? "row" : "rows")"
            )
        }
        print("")
        print("What the migration changed:")
        for table in after.tables {
            guard let old = before.tables.first(where: { $0.name == table.name }) else {
                print("+ table \(table.name)")
                continue
            }
            for column in table.columns where !old.columns.contains(column) { print("+ \(table.name).\(column)") }
            for column in old.columns where !table.columns.contains(column) { print("- \(table.name).\(column)") }
            if table.rowCount != old.rowCount { print("  \(table.name): \(old.rowCount) rows, now \(table.rowCount)") }
        }
        for table in before.tables where !after.tables.contains(where: { $0.name == table.name }) {
            print("- table \(table.name)")
        }
    }
}
