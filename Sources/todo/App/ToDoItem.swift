import CoreData
import WorkbookSupport

/// A to-do's values, read once from its managed object for printing.
struct ToDoItem {
    let number: Int64
    let title: String
    let dueDate: Date?
    let category: String?
    let completed: Bool
    /// Version 2 only: nil when the program runs as version 1.
    let doNotAlert: Bool?
    let lastAlertDate: Date?

    init(_ todo: ToDo, version: Int) throws {
        let todo = try todo.loaded()
        number = ToDoStack.number(of: todo)
        title = todo.title ?? ""
        dueDate = todo.dueDate
        // Its category is usually a fault, which another process may have deleted meanwhile.
        category = try todo.category?.loaded().name
        completed = todo.completed
        doNotAlert = version >= 2 ? todo.doNotAlert : nil
        lastAlertDate = version >= 2 ? todo.lastAlertDate : nil
    }

    /// The to-do in one line, as `add`, `edit` and `done` print it after saving:
    /// `Pay rent, due 2026-11-22 14:30, in Home`, then `, completed` (unless `completion` is
    /// false, for `done`, whose verb says it) and `, no alert` when they hold.
    func summary(timeZone: TimeZone, completion: Bool = true) -> String {
        var line = title
        if let dueDate { line += ", due \(When.format(dueDate, timeZone: timeZone))" }
        if let category { line += ", in \(category)" }
        if completion && completed { line += ", completed" }
        if doNotAlert == true { line += ", no alert" }
        return line
    }

    /// The properties a person sees (not the alert bookkeeping) whose values differ from
    /// `other`'s, in words.
    func differences(from other: ToDoItem) -> [String] {
        var names: [String] = []
        if title != other.title { names.append("title") }
        if dueDate != other.dueDate { names.append("due time") }
        if category != other.category { names.append("category") }
        if completed != other.completed { names.append("completion") }
        if doNotAlert != other.doNotAlert { names.append("alert setting") }
        return names
    }
}

/// Lines of a table whose columns are as wide as their widest cell.
enum Table {
    static func render(header: [String], rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return [line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
    }
}

extension NSManagedObject {
    /// The object with its values loaded: a fault is fulfilled through its context first.
    ///
    /// A typed property reads a fault's values as Core Data's accessors do, and stops the
    /// program when the store no longer has the object (another `todo` process deleted it);
    /// fulfilled here, that is an error the command reports (CoreDataError 133000), and the
    /// typed reads that follow cannot fail.
    func loaded() throws -> Self {
        guard isFault, let context = managedObjectContext else { return self }
        _ = try context.existingObject(with: objectID)
        return self
    }
}
