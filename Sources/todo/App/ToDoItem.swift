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
