import ObjectGraph

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

    init(_ object: ManagedObject, version: Int) throws {
        number = ToDoStack.number(of: object)
        title = try object.value(forKey: "title") as? String ?? ""
        dueDate = try object.value(forKey: "dueDate") as? Date
        category = try (object.value(forKey: "category") as? ManagedObject)?.value(forKey: "name") as? String
        completed = try object.value(forKey: "completed") as? Bool ?? false
        doNotAlert = version >= 2 ? try object.value(forKey: "doNotAlert") as? Bool ?? false : nil
        lastAlertDate = version >= 2 ? try object.value(forKey: "lastAlertDate") as? Date : nil
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
