import CoreData
import WorkbookSupport

/// The ToDo store opened by URL on PostgreSQL: the store's type and URL, then the schema's
/// tables as `psql` lists them: Core Data's layout, the SQLite store's, in PostgreSQL's types.
enum OpenByURL {
    static func run(_ bench: Workbench) throws {
        guard let store = ScalingServer.store("todo", on: bench) else { return }
        let container = try ToDoStore.makeContainer(url: store.url, uuid: ScalingChapter.uuid(1))
        defer { ScalingChapter.close(container) }
        let opened = try container.persistentStoreCoordinator.persistentStores.first.orThrow("the store")
        bench.print("Opened \(store.shown(opened.url?.absoluteString ?? "nil"))")
        bench.print("type: \(opened.type.rawValue), pool: at most 4 connections, schema: \(store.shownSchema)")
        try ToDoStore.insertSamples(into: container)
        bench.print("Saved \(try ToDoStore.count(in: container)) to-dos in 3 categories.")
        bench.print("")
        bench.print("$ psql -c \"SELECT table_name, columns FROM information_schema.columns ...\"")
        let sql = """
            SELECT upper(table_name), string_agg(upper(column_name) || ' ' || data_type, ', ' ORDER BY ordinal_position)
            FROM information_schema.columns WHERE table_schema = current_schema()
            GROUP BY table_name ORDER BY upper(table_name)
            """
        for line in try store.psql(sql) { bench.print("  " + store.shown(line)) }
    }
}

extension Optional {
    /// The value, or an error naming what was missing (a store that did not load).
    func orThrow(_ what: String) throws -> Wrapped {
        guard let self else { throw ScalingError("\(what) is missing") }
        return self
    }
}

/// Something the chapter expected and did not find.
struct ScalingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
