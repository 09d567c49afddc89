import CoreData
import WorkbookSupport

/// The to-dos the chapter works with, due around the chapter's "now" (``nineOClock``), and
/// how the sections print them.
enum SampleData {
    // ANCHOR: sample-todos
    static let todos: [(title: String, due: String, completed: Bool, category: String)] = [
        ("Pay rent", "2009-06-01T09:04:30Z", false, "Home"),
        ("Buy milk", "2009-06-01T09:02:00Z", true, "Home"),
        ("answer Marcus's mail", "2009-06-01T12:00:00Z", false, "Work"),
        ("Ask for a raise", "2009-06-03T09:00:00Z", false, "Work"),
    ]

    /// Inserts the two categories and the four to-dos, and saves.
    static func insertToDos(into context: NSManagedObjectContext) throws {
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
            todo.setValue(dates.date(from: item.due), forKey: "dueDate")
            todo.setValue(item.completed, forKey: "completed")
            todo.setValue(categories[item.category], forKey: "category")
        }
        try context.save()
    }
    // ANCHOR_END: sample-todos

    /// The to-dos of a context, sorted by due date, one line each.
    static func list(_ context: NSManagedObjectContext, version: Int) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
        return try context.fetch(request).map { todo in
            var line = "\(todo.value(forKey: "title") as? String ?? "")"
            line += ", due \(Workbench.describe(todo.value(forKey: "dueDate")))"
            line += ", in \((todo.value(forKeyPath: "category.name") as? String) ?? "no category")"
            if todo.value(forKey: "completed") as? Bool == true { line += ", completed" }
            if version >= 2 {
                line += ", doNotAlert \(todo.value(forKey: "doNotAlert") as? Bool == true ? "YES" : "NO")"
                line += ", lastAlertDate \(Workbench.describe(todo.value(forKey: "lastAlertDate")))"
            }
            return line
        }
    }

    /// A store's metadata as the chapter prints it: each key, with version hashes in base64.
    /// The store's UUID is new for every store, so it is described rather than printed, and
    /// the book reads the same on every run.
    static func describeMetadata(_ metadata: [String: Any]) -> [String] {
        metadata.keys.sorted().map { key in
            switch metadata[key] {
            case let hashes as [String: Data]:
                return "\(key):\n"
                    + hashes.keys.sorted().map { "    \($0): \(hashes[$0]?.base64EncodedString() ?? "")" }.joined(
                        separator: "\n")
            case let uuid as String where key == "NSStoreUUID":
                return "\(key): a UUID of \(uuid.count) characters, made up by the store when it was created"
            case let value?:
                return "\(key): \(value)"
            case nil:
                return "\(key): nil"
            }
        }
    }
}
