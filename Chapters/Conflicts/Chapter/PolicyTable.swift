import CoreData
import WorkbookSupport

/// What each merge policy keeps when two contexts change the same book: one context saves a
/// new title and number of copies first, then the other saves its own title and author with
/// the policy; the table shows what the store holds after both saves.
enum PolicyTable {
    /// Core Data's five policies, by their names in Apple's Swift API.
    static let policies: [(name: String, policy: NSMergePolicy)] = [
        ("error", .error),
        ("mergeByPropertyStoreTrump", .mergeByPropertyStoreTrump),
        ("mergeByPropertyObjectTrump", .mergeByPropertyObjectTrump),
        ("overwrite", .overwrite),
        ("rollback", .rollback),
    ]

    static func run(_ bench: Workbench) throws {
        var rows = [["policy", "editor's save", "title", "author", "copies"]]
        for (name, policy) in policies {
            let container = try Shelf.makeContainer(in: bench.makeDataFolder())
            let ids = try Shelf.insertBooks(into: container)
            let outcome = try saveConflictingChanges(to: ids[1], in: container, with: policy)
            let reader = container.newBackgroundContext()
            let stored = try reader.performAndWait {
                let book = try reader.existingObject(with: ids[1])
                return ["title", "author", "copies"].map { key in
                    book.value(forKey: key).map { $0 is String ? "\"\($0)\"" : "\($0)" } ?? "nil"
                }
            }
            rows.append([name, outcome] + stored)
        }
        for line in table(rows) { bench.print(line) }
    }

    /// `rows` in columns, each as wide as its widest cell.
    static func table(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }
    }

    /// The editor reads the book; another context changes its title and copies and saves; the
    /// editor changes its title and author and saves with `policy`. Returns what the editor's
    /// save did: `saved`, or the error's code.
    static func saveConflictingChanges(
        to bookID: NSManagedObjectID, in container: NSPersistentContainer, with policy: NSMergePolicy
    ) throws -> String {
        // ANCHOR: two-editors
        let editor = container.newBackgroundContext()
        editor.mergePolicy = policy
        try editor.performAndWait {
            _ = try editor.existingObject(with: bookID).value(forKey: "title") // read: version 1
        }

        let other = container.newBackgroundContext()
        try other.performAndWait {
            let book = try other.existingObject(with: bookID)
            book.setValue("Core Data: Apple's API", forKey: "title")
            book.setValue(3, forKey: "copies")
            try other.save() // the row is now at version 2
        }

        return editor.performAndWait {
            let book = editor.object(with: bookID)
            book.setValue("Core Data, 2nd edition", forKey: "title")
            book.setValue("Marcus S. Zarra", forKey: "author")
            do {
                try editor.save() // the editor read version 1: a conflict, which the policy resolves
                return "saved"
            } catch {
                return "error \((error as NSError).code)"
            }
        }
        // ANCHOR_END: two-editors
    }
}
