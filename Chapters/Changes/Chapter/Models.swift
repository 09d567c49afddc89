import CoreData
import WorkbookSupport

/// The chapter's stack and to-dos: Zarra's ToDo model (version 2) on a SQLite store, and four
/// to-dos every section starts from.
public enum ToDoList {
    // ANCHOR: sample-todos
    /// The to-dos the sections start from, with their due dates (UTC).
    public static let todos: [(title: String, due: String)] = [
        ("Buy milk", "2009-06-01T17:00:00Z"),
        ("Pay rent", "2009-06-02T09:00:00Z"),
        ("Answer Marcus's mail", "2009-06-03T12:00:00Z"),
        ("Ask for a raise", "2009-06-05T09:00:00Z"),
    ]
    // ANCHOR_END: sample-todos

    /// A container on a new SQLite store, `ToDo.sqlite`, in `folder`.
    public static func makeContainer(in folder: URL) throws -> NSPersistentContainer {
        // ANCHOR: container
        let container = NSPersistentContainer(name: "ToDo", managedObjectModel: try ToDoModels.version2())
        container.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: folder.appendingPathComponent("ToDo.sqlite"))
        ]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        // ANCHOR_END: container
        return container
    }

    /// Inserts ``todos`` into `context` and saves it; returns their IDs, in order. Call it on
    /// the context's queue.
    @discardableResult
    public static func insertToDos(into context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        // ANCHOR: insert-todos
        let inserted = todos.map { title, due in
            let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
            todo.setValue(title, forKey: "title")
            todo.setValue(ISO8601DateFormatter().date(from: due), forKey: "dueDate")
            return todo
        }
        try context.save()
        return inserted.map(\.objectID)
        // ANCHOR_END: insert-todos
    }

    /// The titles of `objects`, sorted, for printing a set in the same order on every run.
    public static func titles(_ objects: Set<NSManagedObject>?) -> String {
        let titles = (objects ?? []).map { $0.value(forKey: "title") as? String ?? "?" }.sorted()
        return titles.isEmpty ? "none" : titles.joined(separator: ", ")
    }
}
