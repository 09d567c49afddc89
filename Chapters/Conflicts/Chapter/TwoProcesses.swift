import CoreData
import WorkbookSupport

/// Optimistic locking between two processes: the chapter's executable runs itself as a second
/// process (`conflicts --other-process FOLDER`), which opens the same store file with a
/// coordinator of its own and saves the book the first process has read. The first process's
/// save meets 133020, as between two contexts, and a merge policy resolves it.
public enum TwoProcesses {
    /// What the second process runs: fetch the book by its code, set its copies, save.
    public static func changeCopies(inStoreIn folder: URL, code: String, copies: Int) throws {
        // ANCHOR: other-process
        let container = try Shelf.makeContainer(in: folder) // the same store file, a coordinator of its own
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "code == %@", code)
            guard let book = try context.fetch(request).first else { return print("no book \(code)") }
            book.setValue(copies, forKey: "copies")
            try context.save()
            print("saved \(code) with \(copies) copies")
        }
        // ANCHOR_END: other-process
    }

    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        let container = try Shelf.makeContainer(in: folder)
        let bookID = try Shelf.insertBooks(into: container)[1]
        let editor = container.newBackgroundContext()
        try editor.performAndWait {
            _ = try editor.existingObject(with: bookID).value(forKey: "title")
        }
        print("This process's editor has read \(try Shelf.stored(code: "ZAR-2009", in: container) ?? "missing")")
        print("$ conflicts --other-process FOLDER --code ZAR-2009 --copies 5")
        for line in try runOtherProcess(folder: folder, arguments: ["--code", "ZAR-2009", "--copies", "5"]) {
            print("  " + line)
        }

        // ANCHOR: after-other-process
        try editor.performAndWait {
            editor.object(with: bookID).setValue("Core Data, 2nd edition", forKey: "title")
            do {
                try editor.save()
            } catch let error where (error as NSError).code == NSManagedObjectMergeError {
                print("save() failed: \((error as NSError).domain) \((error as NSError).code)")
                Conflicts.show(error as NSError, print: print)
            }
        }
        // ANCHOR_END: after-other-process
        print("")
        // ANCHOR: other-process-resolved
        try editor.performAndWait {
            editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try editor.save()
        }
        // ANCHOR_END: other-process-resolved
        print("With NSMergeByPropertyObjectTrumpMergePolicy, save() went through.")
        print("The store holds \(try Shelf.stored(code: "ZAR-2009", in: container) ?? "missing")")
    }

    /// Runs `conflicts --other-process folder arguments` and returns what it printed; a line
    /// saying so when the executable is not built, or when the process failed.
    static func runOtherProcess(folder: URL, arguments: [String]) throws -> [String] {
        guard let executable = conflictsExecutable() else {
            return ["(the conflicts executable is not built: run `swift build` first)"]
        }
        let child = try ChapterProcess.run(executable, arguments: ["--other-process", folder.path] + arguments)
        var lines = child.outputLines
        if child.status != 0 {
            lines += child.errors.split(separator: "\n").map(String.init)
            lines.append("(the other process failed with status \(child.status))")
        }
        return lines
    }

    /// The chapter's executable: beside the running program (the chapter itself, the workbook
    /// tool, or the tests' runner), or a folder or two up from it.
    static func conflictsExecutable() -> URL? { ChapterProcess.executable(named: "conflicts") }
}
