import ObjectGraph
import WorkbookSupport

/// The to-dos the chapter works with, due around the workbook's fixed "now" (1 June 2009,
/// 09:00 UTC).
enum SampleData {
    static let todos: [(title: String, due: TimeInterval, completed: Bool, category: String)] = [
        ("Pay rent", 4.5 * 60, false, "Home"),
        ("Buy milk", 2 * 60, true, "Home"),
        ("answer Marcus's mail", 3 * 3_600, false, "Work"),
        ("Ask for a raise", 2 * 86_400, false, "Work"),
    ]

    /// Inserts the categories and to-dos and saves.
    static func insert(into context: ManagedObjectContext) throws {
        var categories: [String: ManagedObject] = [:]
        for name in ["Home", "Work"] {
            let category = try context.insertNewObject(forEntityName: "Category")
            try category.setValue(name, forKey: "name")
            categories[name] = category
        }
        for item in todos {
            let todo = try context.insertNewObject(forEntityName: "ToDo")
            try todo.setValue(item.title, forKey: "title")
            try todo.setValue(Workbench.now.addingTimeInterval(item.due), forKey: "dueDate")
            try todo.setValue(item.completed, forKey: "completed")
            try todo.setValue(categories[item.category], forKey: "category")
        }
        try context.save()
    }

    /// `09:04`: a time of the fixed day, in UTC.
    static func time(_ date: Date) -> String { String(Workbench.format(date).dropFirst(11).prefix(5)) }

    /// The to-dos of a context, sorted by due date, one line each.
    static func list(_ context: ManagedObjectContext, version: Int) throws -> [String] {
        let request = FetchRequest(entityName: "ToDo")
        request.sortDescriptors = [SortDescriptor(key: "dueDate", ascending: true)]
        return try context.fetch(request).map { todo in
            var line = "\(try todo.value(forKey: "title") as? String ?? "")"
            line += ", due \(Workbench.format(try todo.value(forKey: "dueDate") as! Date))"
            line += ", in \((try todo.value(forKeyPath: "category.name") as? String) ?? "no category")"
            if try todo.value(forKey: "completed") as? Bool == true { line += ", completed" }
            if version >= 2 {
                line += ", doNotAlert \(try todo.value(forKey: "doNotAlert") as? Bool == true ? "YES" : "NO")"
                line += ", lastAlertDate \(Workbench.describe(try todo.value(forKey: "lastAlertDate")))"
            }
            return line
        }
    }

    /// A store's metadata as the chapter prints it: each key, with version hashes in base64.
    static func describeMetadata(_ metadata: [String: Any]) -> [String] {
        metadata.keys.sorted().map { key in
            switch metadata[key] {
            case let hashes as [String: Data]:
                return "\(key):\n" + hashes.keys.sorted().map { "    \($0): \(hashes[$0]!.base64EncodedString())" }.joined(separator: "\n")
            case let value?:
                return "\(key): \(value)"
            case nil:
                return "\(key): nil"
            }
        }
    }
}
