import CoreData
import ObjectGraphPostgres
import WorkbookSupport

/// Zarra's ToDo model (version 2) on a PostgreSQL store: opening it by URL, the to-dos every
/// section starts from, and how a to-do prints.
public enum ToDoStore {
    /// A container on the PostgreSQL store at `url` (`postgres://USER@HOST:PORT/DATABASE?schema=NAME`),
    /// new or already there, with persistent history; `uuid` fixes a new store's UUID, so its
    /// object IDs print the same on every run.
    public static func makeContainer(url: URL, uuid: String? = nil) throws -> NSPersistentContainer {
        // ANCHOR: open-by-url
        let container = NSPersistentContainer(name: "ToDo", managedObjectModel: try ToDoModels.version2())
        let description = NSPersistentStoreDescription.postgres(url: url, poolSize: 4)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        // ANCHOR_END: open-by-url
        description.storeUUID = uuid
        // ANCHOR: load
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        // ANCHOR_END: load
        return container
    }

    /// The same container on the SQLite store `ToDo.sqlite` in `folder`.
    public static func makeSQLiteContainer(in folder: URL, uuid: String? = nil) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "ToDo", managedObjectModel: try ToDoModels.version2())
        let description = NSPersistentStoreDescription(url: folder.appendingPathComponent("ToDo.sqlite"))
        description.storeUUID = uuid
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    // ANCHOR: sample-todos
    /// The to-dos the sections start from: title, days from the chapter's fixed "now" to the
    /// due date, category, completed.
    public static let samples: [(title: String, dueInDays: Double, category: String, completed: Bool)] = [
        ("Buy milk", 1, "Home", false),
        ("Write chapter 10", 3, "Work", false),
        ("Call the plumber", 0.5, "Home", true),
        ("Review pull request", 2, "Work", false),
        ("Book flights", 7, "Travel", false),
    ]
    // ANCHOR_END: sample-todos

    /// Inserts the categories and ``samples`` on a background context and saves.
    public static func insertSamples(into container: NSPersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var categories: [String: NSManagedObject] = [:]
            for name in ["Home", "Work", "Travel"] {
                let category = NSEntityDescription.insertNewObject(forEntityName: "Category", into: context)
                category.setValue(name, forKey: "name")
                categories[name] = category
            }
            for sample in samples {
                let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
                todo.setValue(sample.title, forKey: "title")
                todo.setValue(Workbench.date(days: sample.dueInDays), forKey: "dueDate")
                todo.setValue(sample.completed, forKey: "completed")
                todo.setValue(categories[sample.category], forKey: "category")
            }
            try context.save()
        }
    }

    /// The to-do titled `title`, in `context`; nil when there is none.
    public static func todo(titled title: String, in context: NSManagedObjectContext) throws -> NSManagedObject? {
        let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        request.predicate = NSPredicate(format: "title == %@", title)
        return try context.fetch(request).first
    }

    /// The to-do with ID `id` as the store holds it now, read by a new context:
    /// `"Buy milk", due 2009-06-02 09:00 UTC, open`.
    public static func stored(_ id: NSManagedObjectID, in container: NSPersistentContainer) throws -> String {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { describe(try reader.existingObject(with: id)) }
    }

    /// The number of to-dos, counted by a new context.
    public static func count(in container: NSPersistentContainer) throws -> Int {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "ToDo")) }
    }

    /// `"Buy milk", due 2009-06-02 09:00 UTC, open`.
    public static func describe(_ todo: NSManagedObject) -> String {
        let title = todo.value(forKey: "title") as? String ?? "nil"
        let due = (todo.value(forKey: "dueDate") as? Date).map(Workbench.format) ?? "no date"
        let done = todo.value(forKey: "completed") as? Bool == true
        return "\"\(title)\", due \(due), \(done ? "done" : "open")"
    }
}
