import ArgumentParser
import CoreData
import WorkbookSupport

extension ToDoCommand {
    /// `todo add TITLE [--due WHEN] [--category NAME]`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a to-do.")

        @Argument(help: "What there is to do.") var title: String
        @Option(parsing: .unconditional, help: ArgumentHelp("When it is due.", valueName: "when")) var due: String?
        @Option(help: ArgumentHelp("Its category, which must exist (see `todo categories add`).", valueName: "name"))
        var category: String?
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options, access: .creating) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let environment = stack.environment
            guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ToDoError("A to-do needs a title: todo add \"Pay rent\"")
            }
            // Read every input before changing anything: a bad date adds nothing.
            let dueDate = try due.map { try When.parse($0, now: environment.clock.now, timeZone: environment.timeZone) }
            let category = try category.map { try stack.category(named: $0) }
            let todo = ToDo(context: stack.context)
            todo.title = title
            todo.dueDate = dueDate
            todo.category = category
            // Another process may change the category meanwhile (its to-dos gain this one):
            // merged property by property; a category deleted meanwhile fails the add.
            stack.context.mergePolicy = ToDoMergePolicy(number: 0)
            try stack.context.save()
            stack.say(
                "Added #\(ToDoStack.number(of: todo)): \(try ToDoItem(todo, version: stack.version).summary(timeZone: environment.timeZone))"
            )
            if let dueDate,
                let warning = When.pastWarning(dueDate, number: ToDoStack.number(of: todo), environment: environment)
            {
                stack.say(warning)
            }
        }
    }
}
