import Foundation
import Testing

@testable import ToDoApp

/// The commands of `todo`, run in process on a fake clock, as a person would type them.
@Suite struct ToDoCommandTests {
    // The numbers count to-dos only: the category added first takes no number of theirs
    // (atomic stores number each inheritance tree on its own, as SQLite's Z_MAX does).
    @Test func addListShowDoneDelete() throws {
        let todo = try ToDoHarness()
        #expect(try todo.run("categories", "add", "Home") == ["Added category Home"])
        #expect(
            try todo.run("add", "Pay rent", "--due", "+3m", "--category", "Home") == [
                "Added #1: Pay rent, due 2009-06-01 09:03, in Home"
            ])
        #expect(
            try todo.run("add", "Answer mail", "--due", "2009-06-02T08:30") == [
                "Added #2: Answer mail, due 2009-06-02 08:30"
            ])
        #expect(try todo.run("add", "Buy milk") == ["Added #3: Buy milk"])
        #expect(
            try todo.run("list") == [
                "#  Due               Title        Category  Done  No alert",
                "-  ----------------  -----------  --------  ----  --------",
                // Core Data sorts nil first in ascending order.
                "3  -                 Buy milk     -",
                "1  2009-06-01 09:03  Pay rent     Home",
                "2  2009-06-02 08:30  Answer mail  -",
            ])
        // What the to-do is after the change, in the line `add` prints.
        #expect(try todo.run("done", "1") == ["Completed #1: Pay rent, due 2009-06-01 09:03, in Home"])
        #expect(
            try todo.run("show", "1") == [
                "#1 Pay rent",
                "  due:            2009-06-01 09:03",
                "  category:       Home",
                "  completed:      yes",
                "  do not alert:   no",
                "  last alert:     -",
                "  object ID:      \(try todo.run("show", "1").last!.split(separator: " ").last!)",
            ])
        #expect(try todo.run("list", "--pending").count == 4)
        #expect(try todo.run("list", "--completed").last?.hasPrefix("1  2009-06-01 09:03  Pay rent") == true)
        #expect(try todo.run("list", "--category", "Home").count == 3)
        #expect(try todo.run("list", "--due-before", "2009-06-01 12:00").count == 3)
        #expect(try todo.run("list", "--due-after", "+1h").last?.contains("Answer mail") == true)
        #expect(try todo.run("delete", "3") == ["Deleted #3: Buy milk"])
        #expect(try todo.run("list").count == 4)
        #expect(
            try todo.run("edit", "2", "--title", "Answer letters", "--no-due", "--category", "Home") == [
                "Changed #2: Answer letters, in Home"
            ])
        #expect(
            try todo.run("edit", "1", "--undone", "--do-not-alert", "true") == [
                "Changed #1: Pay rent, due 2009-06-01 09:03, in Home, no alert"
            ])
        #expect(try todo.run("done", "2") == ["Completed #2: Answer letters, in Home"])
        #expect(
            try todo.run("edit", "2", "--title", "Answer all letters") == [
                "Changed #2: Answer all letters, in Home, completed"
            ])
        #expect(try todo.run("list", "--category", "Home").count == 4)
        // A deleted number is not given again while the store lives.
        #expect(try todo.run("add", "Buy bread") == ["Added #4: Buy bread"])
    }

    @Test func anEmptyStoreSaysHowToStart() throws {
        let todo = try ToDoHarness()
        #expect(try todo.run("list") == ["No to-dos yet. Add one: todo add \"Pay rent\" --due +3m"])
        #expect(try todo.run("categories") == ["No categories yet. Add one: todo categories add Home"])
        // Reading made the store, its folder and a lock file; now reading makes nothing.
        #expect(todo.failure("show", "1") != nil)
        let folder = todo.storeURL.deletingLastPathComponent()
        #expect(!FileManager.default.fileExists(atPath: folder.path), "\(folder.path) was made")
    }

    // The store is in $XDG_DATA_HOME/todo, or ~/.local/share/todo, or where --store says;
    // XML by default, as in the article, or SQLite.
    @Test func whereTheStoreLives() throws {
        let todo = try ToDoHarness()
        try todo.run("add", "One")
        #expect(FileManager.default.fileExists(atPath: todo.storeURL.path))
        try todo.run("add", "Two", "--store-type", "sqlite")
        #expect(FileManager.default.fileExists(atPath: todo.directory.appendingPathComponent("todo/ToDo.sqlite").path))
        let elsewhere = todo.directory.appendingPathComponent("elsewhere/mine.sqlite").path
        try FileManager.default.createDirectory(
            atPath: (elsewhere as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try todo.run("add", "Three", "--store", elsewhere, "--store-type", "sqlite")
        #expect(try todo.run("list", "--store", elsewhere, "--store-type", "sqlite").last?.contains("Three") == true)

        var environment = todo.environment
        environment.variables = ["HOME": todo.directory.appendingPathComponent("home").path]
        var options = try StoreOptions.parse([])
        #expect(
            options.storeURL(in: environment).path
                == todo.directory.appendingPathComponent("home/.local/share/todo/ToDo.xml").path)
        options = try StoreOptions.parse(["--store-type", "sqlite"])
        environment.variables["XDG_DATA_HOME"] = "/data"
        #expect(options.storeURL(in: environment).path == "/data/todo/ToDo.sqlite")
    }

    // Core Data's delete rule for Category.todos (Nullify in the ToDo model) decides what
    // happens to a deleted category's to-dos, and the command says so.
    @Test func deletingACategoryShowsTheDeleteRule() throws {
        let todo = try ToDoHarness()
        try todo.run("categories", "add", "Work")
        try todo.run("add", "Report", "--category", "Work")
        try todo.run("add", "Slides", "--category", "Work")
        #expect(try todo.run("categories") == ["Category  To-dos", "--------  ------", "Work      2"])
        #expect(try todo.run("categories", "rename", "Work", "Office") == ["Renamed category Work to Office"])
        #expect(
            try todo.run("categories", "delete", "Office") == [
                "Deleted category Office.",
                "The model's delete rule for Category.todos is Nullify: its 2 to-dos stay, now in no category.",
            ])
        let rows = try todo.run("list").dropFirst(2)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.contains("  -") })
    }

    // Bad input is a clear error, and the store file is left byte for byte as it was.
    @Test(arguments: [
        (["show", "42"], "There is no to-do #42. `todo list` shows their numbers."),
        (["done", "0"], "There is no to-do #0. `todo list` shows their numbers."),
        (
            ["add", "Call Bob", "--category", "Gardening"],
            "There is no category \"Gardening\". `todo categories` lists them; `todo categories add Gardening` adds it."
        ),
        (
            ["add", "Call Bob", "--due", "tomorrow"],
            "Can't read the time \"tomorrow\". Write an ISO date-time (2026-11-22T14:30), a time today (14:30), or an offset from now (+15m, +2h, +1d)."
        ),
        (
            ["edit", "1", "--due", "25:00"],
            "Can't read the time \"25:00\". Write an ISO date-time (2026-11-22T14:30), a time today (14:30), or an offset from now (+15m, +2h, +1d)."
        ),
        (
            ["edit", "1"],
            "Say what to change: --title, --due, --no-due, --category, --no-category, --undone or --do-not-alert"
        ),
        (["add", " "], "A to-do needs a title: todo add \"Pay rent\""),
        (["categories", "add", "Home"], "There is already a category \"Home\"."),
        (
            ["categories", "delete", "Garden"],
            "There is no category \"Garden\". `todo categories` lists them; `todo categories add Garden` adds it."
        ),
        (["list", "--completed", "--pending"], "--completed and --pending exclude each other; give one"),
        (["list", "--model-version", "3"], "--model-version must be 1 or 2, not 3"),
    ])
    func badInputIsAClearErrorThatChangesNothing(arguments: [String], message: String) throws {
        let todo = try ToDoHarness()
        try todo.run("categories", "add", "Home")
        try todo.run("add", "Pay rent", "--due", "+3m")
        let before = try Data(contentsOf: todo.storeURL)
        #expect(todo.failure(arguments) == message)
        #expect(try Data(contentsOf: todo.storeURL) == before)
    }

    @Test func aFileThatIsNotAStoreIsAClearError() throws {
        let todo = try ToDoHarness()
        try FileManager.default.createDirectory(
            at: todo.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("shopping: milk, eggs\n".utf8).write(to: todo.storeURL)
        let message = try #require(todo.failure("list"))
        // It said "is not a XML store. It is neither a SQLite nor an XML store": once, in words.
        #expect(
            message
                == "Can't open the ToDo store: \(todo.storeURL.path) is neither a SQLite nor an XML store. Use another --store."
        )
        #expect(try String(contentsOf: todo.storeURL, encoding: .utf8) == "shopping: milk, eggs\n")
    }

    // Version 1 of the program cannot read a store that version 2 wrote (Core Data: 134100).
    @Test func anOlderProgramRefusesANewerStore() throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent")
        let message = try #require(todo.failure("list", "--model-version", "1"))
        #expect(
            message.contains(
                "was written by version 2 of the ToDo model, and version 1 cannot read it (Core Data error 134100)"))
    }
}
