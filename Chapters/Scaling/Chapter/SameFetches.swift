import CoreData
import WorkbookSupport

import class ObjectGraph.SQLLog

/// The same to-dos on a SQLite store and a PostgreSQL store, and the same fetch requests on
/// both: the answers agree; with `--sql`, each store's SQL shows how they differ (`?` and `$1`).
enum SameFetches {
    // ANCHOR: same-requests
    /// Fetch requests that run unchanged on either store.
    static func requests() -> [(name: String, request: NSFetchRequest<NSManagedObject>)] {
        let open = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        open.predicate = NSPredicate(
            format: "completed == NO AND dueDate < %@", Workbench.date(days: 3) as NSDate)
        open.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]

        let home = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        home.predicate = NSPredicate(format: "category.name == %@", "Home")
        home.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]

        let words = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        words.predicate = NSPredicate(format: "title CONTAINS[c] %@ OR title BEGINSWITH %@", "BOOK", "Call")
        words.sortDescriptors = [NSSortDescriptor(key: "title", ascending: false)]
        return [("open, due within 3 days", open), ("in Home", home), ("CONTAINS[c] or BEGINSWITH", words)]
    }
    // ANCHOR_END: same-requests

    static func run(_ bench: Workbench) throws {
        guard let store = ScalingServer.store("same", on: bench) else { return }
        // PostgreSQL's SQL goes to a log of the section's own: opening a store runs statements
        // that name the schema, whose real name changes from run to run; only the fetches' SQL
        // is shown, with the schema's shown name.
        let captured = CapturedSQL()
        let postgres = try SQLLog.routing(to: captured.log) {
            try ToDoStore.makeContainer(url: store.url, uuid: ScalingChapter.uuid(2))
        }
        defer { ScalingChapter.close(postgres) }
        let sqlite = try ToDoStore.makeSQLiteContainer(in: bench.makeDataFolder(), uuid: ScalingChapter.uuid(3))
        try ToDoStore.insertSamples(into: sqlite)
        try ToDoStore.insertSamples(into: postgres)
        for (name, request) in requests() {
            let answers = try [("SQLite", sqlite), ("PostgreSQL", postgres)].map { storeName, container in
                bench.print("\(name), on \(storeName):")
                _ = captured.take()
                let context = container.newBackgroundContext()
                let titles = try context.performAndWait {
                    try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "nil" }
                }
                if bench.showsSQL { for line in captured.take() { bench.print("    " + store.shown(line)) } }
                bench.print("  " + titles.joined(separator: "; "))
                return titles
            }
            bench.print("  the same on both: \(answers[0] == answers[1] ? "yes" : "NO")")
        }
    }
}

/// The lines of a log of the section's own, kept until taken.
final class CapturedSQL: @unchecked Sendable {
    // @unchecked Sendable: `lines` is read and written only while `lock` is held.
    let log = SQLLog()
    private let lock = NSLock()
    private var lines: [String] = []

    init() {
        log.includesTimings = false
        log.handler = { [weak self] line in self?.append(line) }
    }

    private func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        lines.append(line)
    }

    /// The lines logged since the last call.
    func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        defer { lines.removeAll() }
        return lines
    }
}
