import CoreData
import ObjectGraph
import WorkbookSupport

/// The chapter's to-dos, and how it makes and reads the stores that hold them.
public enum SampleToDos {
    // ANCHOR: version-1-store
    /// Five to-dos in two categories. Two titles begin with "a" (one with a capital A), three
    /// to-dos are done, and one of those has no due date.
    public static let todos: [(title: String, due: String?, completed: Bool, category: String)] = [
        ("Ask for a raise", "2009-06-02T09:00:00Z", false, "Work"),
        ("apply patch", "2009-05-31T09:00:00Z", true, "Work"),
        ("Buy milk", "2009-06-01T11:00:00Z", false, "Home"),
        ("Call the bank", "2009-05-30T09:00:00Z", true, "Home"),
        ("Water the plants", nil, true, "Home"),
    ]

    /// Writes a version 1 store holding ``todos`` into `folder`, XML as in the article (or of
    /// `type`), and closes it: the store the version 1 application left behind.
    public static func makeVersion1Store(in folder: URL, type: NSPersistentStore.StoreType = .xml) throws -> URL {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try ToDoModels.version1())
        let url = folder.appendingPathComponent(type == .xml ? "ToDo.xml" : "ToDo.sqlite")
        let store = try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var categories: [String: NSManagedObject] = [:]
        for name in ["Home", "Work"] {
            let category = NSEntityDescription.insertNewObject(forEntityName: "Category", into: context)
            category.setValue(name, forKey: "name")
            categories[name] = category
        }
        let dates = ISO8601DateFormatter()
        for item in todos {
            let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
            todo.setValue(item.title, forKey: "title")
            todo.setValue(item.due.flatMap(dates.date(from:)), forKey: "dueDate")
            todo.setValue(item.completed, forKey: "completed")
            todo.setValue(categories[item.category], forKey: "category")
        }
        try context.save()
        try coordinator.remove(store)
        return url
    }
    // ANCHOR_END: version-1-store

    /// A file beside `url`, for a migration's destination.
    public static func sibling(of url: URL, named name: String) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Opens the XML store (or store of `type`) at `url` with `model` and hands its to-dos,
    /// sorted by title in any case, to `body` (the objects live as long as their context: only
    /// inside `body`).
    public static func withToDos<T>(
        at url: URL, model: NSManagedObjectModel, type: NSPersistentStore.StoreType = .xml,
        _ body: ([NSManagedObject]) throws -> T
    ) throws -> T {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true, comparator: .caseInsensitiveCompare)]
        return try withExtendedLifetime(context) { try body(context.fetch(request)) }
    }

    /// One line per to-do of the store: its attributes in model order, then its category.
    public static func describe(storeAt url: URL, model: NSManagedObjectModel, type: NSPersistentStore.StoreType = .xml)
        throws -> [String]
    {
        try withToDos(at: url, model: model, type: type) { try $0.map(describe(todo:)) }
    }

    /// `"apply patch": dueDate 2009-05-31 09:00 UTC, completed YES, category Work`.
    public static func describe(todo: NSManagedObject) throws -> String {
        var parts: [String] = []
        for attribute in todo.entity.attributes where attribute.name != "title" {
            let value = todo.value(forKey: attribute.name)
            parts.append("\(attribute.name) \(show(value))")
        }
        let category = (todo.value(forKey: "category") as? NSManagedObject)?.value(forKey: "name") as? String
        parts.append("category \(category ?? "none")")
        return "\(show(todo.value(forKey: "title"))): " + parts.joined(separator: ", ")
    }

    /// A value as the chapter prints it: Booleans as YES and NO, as Core Data's tools print them.
    public static func show(_ value: Any?) -> String {
        if let b = value as? Bool { return b ? "YES" : "NO" }
        if let constant = value as? ConstantValue {
            switch constant {
            case .bool(let b): return b ? "YES" : "NO"
            case .null, .nsNull: return "nil"
            default: return "\(constant)"
            }
        }
        return Workbench.describe(value)
    }
}
