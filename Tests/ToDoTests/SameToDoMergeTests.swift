import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import ToDoApp

// Two `todo` commands on one to-do, one saving between the other's read and its save, in
// process and in a fixed order: the merge policy each command chose (ToDoMergePolicy,
// property by property, this command's values winning) decides what is kept, and the
// command says what another process changed meanwhile. ConcurrentToDoTests runs the same
// with real processes at once.
@Suite struct SameToDoMergeTests {
    /// A command run on a stack that already read to-do #1, and everything it printed: the
    /// other process saves in `meanwhile`, after the read and before this command saves.
    func runAfterAnotherSaved(_ todo: ToDoHarness, storeType: String, command: [String], meanwhile: [String]) throws
        -> (lines: [String], error: String?)
    {
        let printed = LockedLines()
        var environment = todo.environment
        environment.write = { printed.append($0) }
        let options = try StoreOptions.parse(["--store-type", storeType])
        var failure: String?
        try ToDoStack.open(options, environment: environment) { stack in
            // Read #1 now, as a command that has not saved yet holds it.
            _ = try stack.todo(number: 1)
            try todo.run(meanwhile + ["--store-type", storeType])
            do {
                switch try ToDoCommand.parseAsRoot(command + ["--store-type", storeType]) {
                case let edit as ToDoCommand.Edit: try edit.run(with: stack)
                case let done as ToDoCommand.Done: try done.run(with: stack)
                case let delete as ToDoCommand.Delete: try delete.run(with: stack)
                default: Issue.record("\(command) is not edit, done or delete")
                }
            } catch {
                failure = ToDoCommand.message(for: error)
            }
        }
        return (printed.all, failure)
    }

    /// The to-dos in the store: number, title, due (as printed), completed.
    func stored(_ todo: ToDoHarness, storeType: String) throws -> [String] {
        try todo.run("list", "--store-type", storeType)
    }

    @Test(arguments: ["xml", "sqlite"])
    func anEditKeepsWhatAnotherProcessChangedMeanwhile(storeType: String) throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--due", "+3m", "--store-type", storeType)
        let (lines, error) = try runAfterAnotherSaved(
            todo, storeType: storeType,
            command: ["edit", "1", "--title", "Pay the rent"], meanwhile: ["edit", "1", "--due", "+10m"])
        #expect(error == nil)
        #expect(
            lines == [
                "Changed #1: Pay the rent, due 2009-06-01 09:10",
                "Another process changed #1 meanwhile; its due time is kept.",
            ])
        #expect(
            try todo.run("show", "1", "--store-type", storeType).prefix(2) == [
                "#1 Pay the rent", "  due:            2009-06-01 09:10",
            ])
    }

    // The same property changed on both sides: the command that saves last wins, and says
    // nothing was kept, since nothing of the other's is left.
    @Test(arguments: ["xml", "sqlite"])
    func theLastWriterOfAPropertyWins(storeType: String) throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--store-type", storeType)
        let (lines, error) = try runAfterAnotherSaved(
            todo, storeType: storeType,
            command: ["edit", "1", "--title", "Second"], meanwhile: ["edit", "1", "--title", "First"])
        #expect(error == nil)
        #expect(lines == ["Changed #1: Second"])
        #expect(try todo.run("show", "1", "--store-type", storeType).first == "#1 Second")
    }

    @Test(arguments: ["xml", "sqlite"])
    func doneKeepsATitleChangedMeanwhile(storeType: String) throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--store-type", storeType)
        let (lines, error) = try runAfterAnotherSaved(
            todo, storeType: storeType,
            command: ["done", "1"], meanwhile: ["edit", "1", "--title", "Pay the rent", "--due", "+1h"])
        #expect(error == nil)
        #expect(
            lines == [
                "Completed #1: Pay the rent, due 2009-06-01 10:00",
                "Another process changed #1 meanwhile; its title and due time are kept.",
            ])
    }

    // Core Data's object-trump policy would save a to-do deleted meanwhile again; the
    // command refuses instead, and the to-do stays deleted.
    @Test(arguments: ["xml", "sqlite"])
    func anEditOfAToDoDeletedMeanwhileChangesNothing(storeType: String) throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--store-type", storeType)
        try todo.run("add", "Answer mail", "--store-type", storeType)
        let (lines, error) = try runAfterAnotherSaved(
            todo, storeType: storeType,
            command: ["edit", "1", "--title", "Pay the rent"], meanwhile: ["delete", "1"])
        #expect(lines.isEmpty)
        #expect(error == "Another process deleted #1 while this command ran; nothing was changed.")
        let list = try stored(todo, storeType: storeType)
        #expect(list.count == 3 && list.last?.hasPrefix("2  -") == true, "\(list)")
    }

    // Deleting is what was asked, whatever another process changed meanwhile.
    @Test(arguments: ["xml", "sqlite"])
    func aDeleteGoesAheadAfterAnotherProcessChangedTheToDo(storeType: String) throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--store-type", storeType)
        let (lines, error) = try runAfterAnotherSaved(
            todo, storeType: storeType,
            command: ["delete", "1"], meanwhile: ["done", "1"])
        #expect(error == nil)
        #expect(lines == ["Deleted #1: Pay rent"])
        #expect(try stored(todo, storeType: storeType) == ["No to-dos yet. Add one: todo add \"Pay rent\" --due +3m"])
    }

    // When other processes keep saving in between, a command tries a bounded number of
    // times, each on the store as it is then, and fails saying what to run again.
    @Test func aConflictThatPersistsEndsAfterTheBoundedTries() throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent")
        var attempts = 0
        try ToDoStack.open(try StoreOptions.parse([]), environment: todo.environment) { stack in
            #expect(throws: ToDoStack.ConflictPersisted.self) {
                try stack.saveRetrying {
                    attempts += 1
                    // Each attempt fetches afresh: the context was reset after the last one.
                    #expect(stack.context.registeredObjects.isEmpty)
                    try stack.todo(number: 1).checkedSetValue("Attempt \(attempts)", forKey: "title")
                    throw CoreDataError(
                        .merge, "Could not merge changes: another context saved x-coredata://S/ToDo/p1 first")
                }
            }
        }
        #expect(attempts == ToDoStack.changeAttempts)
        #expect(try todo.run("show", "1").first == "#1 Pay rent", "nothing was written")
        let edit = try ToDoCommand.Edit.parse([
            "1", "--title", "Pay the rent", "--due", "+1h", "--store", "/tmp/my store.xml",
        ])
        #expect(
            ToDoStack.keptChanging(number: 1, command: edit.commandLine).description == """
                Other processes kept changing #1 while this command ran (\(ToDoStack.changeAttempts) tries); nothing was \
                changed. Run it again: todo edit 1 --title "Pay the rent" --due +1h --store "/tmp/my store.xml"
                """)
    }
}
