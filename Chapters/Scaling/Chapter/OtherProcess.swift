import CoreData
import WorkbookSupport

/// What the chapter's executable does when a section runs it as another process
/// (`scaling --store-url URL ...`): it opens the same store with a coordinator and connection
/// pool of its own, does one job, and prints what it did and saw.
public enum OtherProcess {
    /// `--writer NAME --count N`: saves N to-dos titled `NAME 1` ... one save each, then waits
    /// (at most a minute) until the store holds `expected` to-dos, and says what it sees.
    public static func write(url: URL, writer: String, count: Int, expected: Int) throws {
        // ANCHOR: writer
        let container = try ToDoStore.makeContainer(url: url) // the same store, a coordinator of its own
        let context = container.newBackgroundContext()
        context.transactionAuthor = writer
        try context.performAndWait {
            for n in 1...count {
                let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
                todo.setValue("\(writer) \(n)", forKey: "title")
                try context.save() // one transaction per to-do, between the other writers' own
            }
        }
        // ANCHOR_END: writer
        print("\(writer): saved \(count) to-dos")
        let deadline = Date().addingTimeInterval(60)
        var seen = try ToDoStore.count(in: container)
        while seen < expected && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            seen = try ToDoStore.count(in: container)
        }
        let reader = container.newBackgroundContext()
        let mine = try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
            request.predicate = NSPredicate(format: "title BEGINSWITH %@", writer + " ")
            return try reader.count(for: request)
        }
        print("\(writer): once every writer was done, a new fetch saw \(seen) to-dos, \(mine) of them mine")
        ScalingChapter.close(container)
    }

    /// `--complete TITLE`: marks the to-do done and saves.
    public static func complete(url: URL, title: String) throws {
        // ANCHOR: complete
        let container = try ToDoStore.makeContainer(url: url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            guard let todo = try ToDoStore.todo(titled: title, in: context) else { return print("no to-do \(title)") }
            todo.setValue(true, forKey: "completed")
            try context.save()
            print("marked \"\(title)\" done and saved")
        }
        // ANCHOR_END: complete
        ScalingChapter.close(container)
    }

    /// `--add TITLE --author NAME`: inserts a to-do, saving as `author`.
    public static func add(url: URL, title: String, author: String) throws {
        // ANCHOR: add-as-author
        let container = try ToDoStore.makeContainer(url: url)
        let context = container.newBackgroundContext()
        context.transactionAuthor = author // recorded with the save in the store's history
        try context.performAndWait {
            let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
            todo.setValue(title, forKey: "title")
            todo.setValue(Workbench.date(days: 1), forKey: "dueDate")
            try context.save()
            print("added \"\(title)\" as \(author)")
        }
        // ANCHOR_END: add-as-author
        ScalingChapter.close(container)
    }

    /// Runs `scaling --store-url URL arguments` and returns what it printed (with a line
    /// saying so when it is not built or failed), each line made the same on every run by `store`.
    static func run(_ arguments: [String], on store: ScalingStore) throws -> [String] {
        guard let executable = ChapterProcess.executable(named: "scaling") else {
            return ["(the scaling executable is not built: run `swift build` first)"]
        }
        let child = try ChapterProcess.run(
            executable, arguments: ["--store-url", store.url.absoluteString] + arguments)
        var lines = child.outputLines
        if child.status != 0 {
            lines += child.errors.split(separator: "\n").map(String.init)
            lines.append("(the other process failed with status \(child.status))")
        }
        return lines.map(store.shown)
    }
}
