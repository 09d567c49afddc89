import Foundation
import Testing

@testable import ToDoApp

/// A version 1 store migrates the first time version 2 opens it, or by `todo migrate` with
/// the article's custom policy (Zarra, "Core Data Versioning"; Apple, "Core Data Model
/// Versioning and Data Migration Programming Guide").
@Suite struct ToDoMigrationTests {
    /// A version 1 store with a category and three to-dos, one beginning with "a".
    func versionOneStore(_ todo: ToDoHarness, type: String = "xml") throws {
        try todo.run("categories", "add", "Home", "--model-version", "1", "--store-type", type)
        try todo.run(
            "add", "Pay rent", "--due", "+3m", "--category", "Home", "--model-version", "1", "--store-type", type)
        try todo.run(
            "add", "Ask for a raise", "--due", "+1h", "--category", "Home", "--model-version", "1", "--store-type", type
        )
        try todo.run("add", "answer mail", "--model-version", "1", "--store-type", type)
    }

    @Test(arguments: ["xml", "sqlite"])
    func versionTwoMigratesAVersionOneStoreWhenItOpensIt(type: String) throws {
        let todo = try ToDoHarness()
        try versionOneStore(todo, type: type)
        let lines = try todo.run("list", "--store-type", type)
        #expect(
            lines.first
                == "Migrated ToDo.\(type) from version 1 to version 2 of the ToDo model by a lightweight migration: 3 to-dos, 1 category."
        )
        // SQLite migrates in place and keeps the keys; the XML store is written anew.
        let renumbered = lines[1] == "The to-dos were numbered afresh; `todo list` shows their new numbers."
        #expect(renumbered == (type == "xml"))
        #expect(Array(lines.dropFirst(renumbered ? 2 : 1)).count == 5)
        #expect(lines.contains { $0.contains("Pay rent") && $0.contains("Home") })
        // Once is enough: the store is at version 2 now.
        #expect(try todo.run("list", "--store-type", type).first?.hasPrefix("#") == true)
        // No item is marked doNotAlert by a lightweight migration.
        #expect(try todo.run("list", "--store-type", type).dropFirst(2).allSatisfy { !$0.hasSuffix("yes") })
    }

    @Test(arguments: ["xml", "sqlite"])
    func theArticlesPolicyMarksTitlesBeginningWithA(type: String) throws {
        let todo = try ToDoHarness()
        try versionOneStore(todo, type: type)
        #expect(
            try todo.run("migrate", "--policy", "doNotAlertForA", "--store-type", type) == [
                "Migrated ToDo.\(type) from version 1 to version 2 of the ToDo model by the doNotAlertForA policy: 3 to-dos, 1 category.",
                "The to-dos were numbered afresh; `todo list` shows their new numbers.",
            ])
        let rows = try todo.run("list", "--store-type", type).dropFirst(2)
        #expect(rows.filter { $0.hasSuffix("yes") }.count == 2)
        #expect(rows.first { $0.contains("Ask for a raise") }?.hasSuffix("yes") == true)
        #expect(rows.first { $0.contains("answer mail") }?.hasSuffix("yes") == true)
        // The policy kept the Category relationship (its second pass).
        #expect(rows.first { $0.contains("Pay rent") }?.contains("Home") == true)
        // Only Pay rent alerts now.
        let alerts = try todo.run("watch", "--ticks", "60", "--store-type", type).dropFirst()
        #expect(Array(alerts) == ["[2009-06-01 09:00] Due in 3 minutes: #1 Pay rent (at 2009-06-01 09:03)"])
        #expect(
            try todo.run("migrate", "--store-type", type) == [
                "The store at \(todo.directory.path)/todo/ToDo.\(type) is already at version 2; nothing to do."
            ])
    }

    @Test func migrateNeedsAStore() throws {
        let todo = try ToDoHarness()
        #expect(todo.failure("migrate")?.hasPrefix("There is no store at ") == true)
    }

    @Test func theProgressBar() {
        #expect(ProgressBar.render(0, width: 10) == "Migrating [          ]   0%")
        #expect(ProgressBar.render(0.5, width: 10) == "Migrating [#####     ]  50%")
        #expect(ProgressBar.render(1, width: 10) == "Migrating [##########] 100%")
        #expect(ProgressBar.render(7, width: 10) == "Migrating [##########] 100%")
    }
}
