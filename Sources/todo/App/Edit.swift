import ArgumentParser
import CoreData
import WorkbookSupport

extension ToDoCommand {
    /// `todo edit ID ...`: change a to-do's title, due date, category or flags.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a to-do.")

        @Argument(help: "Its number, from `todo list`.") var id: Int64
        @Option(help: "A new title.") var title: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A new due time.", valueName: "when")) var due: String?
        @Flag(help: "Remove the due time.") var noDue = false
        @Option(help: ArgumentHelp("Move it to this category.", valueName: "name")) var category: String?
        @Flag(help: "Take it out of its category.") var noCategory = false
        @Flag(help: "Mark it not completed.") var undone = false
        @Option(help: ArgumentHelp("Version 2: never alert it (true) or alert it again (false).", valueName: "bool"))
        var doNotAlert: Bool?
        @OptionGroup var options: StoreOptions

        func validate() throws {
            if due != nil && noDue { throw ValidationError("--due and --no-due exclude each other; give one") }
            if category != nil && noCategory {
                throw ValidationError("--category and --no-category exclude each other; give one")
            }
            if title == nil && due == nil && !noDue && category == nil && !noCategory && !undone && doNotAlert == nil {
                throw ValidationError(
                    "Say what to change: --title, --due, --no-due, --category, --no-category, --undone or --do-not-alert"
                )
            }
        }

        func run() throws { try ToDoStack.open(options) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let environment = stack.environment
            if doNotAlert != nil && stack.version < 2 {
                throw ToDoError("--do-not-alert needs version 2 of the model; run without --model-version 1")
            }
            if let title, title.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ToDoError("A to-do needs a title; give --title some text")
            }
            // Read every input first, so that a mistake changes nothing.
            _ = try stack.todo(number: id)
            let dueDate = try due.map { try When.parse($0, now: environment.clock.now, timeZone: environment.timeZone) }
            if let category { _ = try stack.category(named: category) }
            // Applied to the to-do as the store holds it now, again if another process saved
            // it first (see ConcurrentChanges.swift).
            let (todo, kept) = try stack.change(todo: id, command: commandLine) { todo in
                if let title { todo.title = title }
                if let dueDate { todo.dueDate = dueDate }
                if noDue { todo.dueDate = nil }
                if let category { todo.category = try stack.category(named: category) }
                if noCategory { todo.category = nil }
                if undone { todo.completed = false }
                if let doNotAlert {
                    todo.doNotAlert = doNotAlert
                    // Alert it again: forget that it was alerted.
                    if !doNotAlert { todo.lastAlertDate = nil }
                }
            }
            stack.say(
                "Changed #\(id): \(try ToDoItem(todo, version: stack.version).summary(timeZone: environment.timeZone))")
            if let line = ToDoStack.keptLine(kept, number: id) { stack.say(line) }
            if let dueDate, let warning = When.pastWarning(dueDate, number: id, environment: environment) {
                stack.say(warning)
            }
        }

        /// The command as typed, for a message that says to run it again.
        var commandLine: String {
            var words = ["todo edit \(id)"]
            if let title { words.append("--title \(ToDoStack.quoted(title))") }
            if let due { words.append("--due \(ToDoStack.quoted(due))") }
            if noDue { words.append("--no-due") }
            if let category { words.append("--category \(ToDoStack.quoted(category))") }
            if noCategory { words.append("--no-category") }
            if undone { words.append("--undone") }
            if let doNotAlert { words.append("--do-not-alert \(doNotAlert)") }
            return (words + options.words()).joined(separator: " ")
        }
    }

    /// `todo done ID`: mark a to-do completed.
    struct Done: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a to-do completed.")

        @Argument(help: "Its number, from `todo list`.") var id: Int64
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let command = (["todo done \(id)"] + options.words()).joined(separator: " ")
            let (todo, kept) = try stack.change(todo: id, command: command) { $0.completed = true }
            let item = try ToDoItem(todo, version: stack.version)
            stack.say("Completed #\(id): \(item.summary(timeZone: stack.environment.timeZone, completion: false))")
            if let line = ToDoStack.keptLine(kept, number: id) { stack.say(line) }
        }
    }

    /// `todo delete ID`: delete a to-do.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a to-do.")

        @Argument(help: "Its number, from `todo list`.") var id: Int64
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            // A to-do another process changed meanwhile is deleted all the same, as asked
            // (ToDoMergePolicy); one it deleted first is gone, as wanted.
            stack.context.mergePolicy = ToDoMergePolicy(number: id)
            var title: String?
            do {
                try stack.saveRetrying {
                    let todo: ToDo
                    do {
                        todo = try stack.todo(number: id)
                    } catch  where title != nil {
                        return
                    }
                    title = try ToDoItem(todo, version: stack.version).title
                    // The throwing twin of delete(_:): another process may delete the to-do's
                    // category meanwhile, which Apple's delete would stop the program for.
                    try stack.context.checkedDelete(todo)
                }
            } catch is ToDoStack.ConflictPersisted {
                throw ToDoStack.keptChanging(
                    number: id, command: (["todo delete \(id)"] + options.words()).joined(separator: " "))
            }
            stack.say("Deleted #\(id): \(title ?? "")")
        }
    }
}
