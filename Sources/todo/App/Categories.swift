import ArgumentParser
import CoreData
import WorkbookSupport

extension ToDoCommand {
    /// `todo categories [list|add|rename|delete]`.
    struct Categories: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, add, rename and delete categories.",
            subcommands: [ListCategories.self, AddCategory.self, RenameCategory.self, DeleteCategory.self],
            defaultSubcommand: ListCategories.self)
    }

    /// `todo categories list`: each category with how many to-dos it holds.
    struct ListCategories: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List categories and their to-do counts.")
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options, access: .reading) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let request = Category.fetchRequest()
            request.sortDescriptors = [
                NSSortDescriptor(key: "name", ascending: true, comparator: .localizedStandardCompare)
            ]
            let categories = try stack.context.fetch(request)
            guard !categories.isEmpty else {
                stack.say("No categories yet. Add one: todo categories add Home")
                return
            }
            let rows = categories.map { category -> [String] in [category.name ?? "", "\(category.todos.count)"] }
            for line in Table.render(header: ["Category", "To-dos"], rows: rows) { stack.say(line) }
        }
    }

    /// `todo categories add NAME`.
    struct AddCategory: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a category.")
        @Argument(help: "Its name.") var name: String
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options, access: .creating) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ToDoError("A category needs a name: todo categories add Home")
            }
            if (try? stack.category(named: name)) != nil { throw ToDoError("There is already a category \"\(name)\".") }
            let category = Category(context: stack.context)
            category.name = name
            try stack.context.save()
            stack.say("Added category \(name)")
        }
    }

    /// `todo categories rename OLD NEW`.
    struct RenameCategory: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a category.")
        @Argument(help: "Its name now.") var name: String
        @Argument(help: "Its new name.") var newName: String
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            guard !newName.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ToDoError("A category needs a name; give a new name with some text")
            }
            // Fetched again on each attempt: another process may rename or delete it meanwhile.
            try stack.changeCategory(
                command: "todo categories rename \(ToDoStack.quoted(name)) \(ToDoStack.quoted(newName))"
            ) {
                let category = try stack.category(named: name)
                if newName != name, (try? stack.category(named: newName)) != nil {
                    throw ToDoError("There is already a category \"\(newName)\".")
                }
                category.name = newName
            }
            stack.say("Renamed category \(name) to \(newName)")
        }
    }

    /// `todo categories delete NAME`: Core Data applies the model's delete rule for
    /// `Category.todos`, and the command says what that rule did.
    struct DeleteCategory: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a category; the model's delete rule decides what happens to its to-dos.")
        @Argument(help: "Its name.") var name: String
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let rule =
                stack.model.entitiesByName["Category"]?.relationshipsByName["todos"]?.deleteRule ?? .nullifyDeleteRule
            var todos = 0
            do {
                // Fetched again on each attempt: another process may add a to-do to it meanwhile.
                try stack.changeCategory(command: "todo categories delete \(ToDoStack.quoted(name))") {
                    let category = try stack.category(named: name)
                    todos = category.todos.count
                    // The throwing twin of delete(_:): another process may delete one of its
                    // to-dos meanwhile, which Apple's delete would stop the program for.
                    try stack.context.checkedDelete(category)
                }
            } catch let error where (error as NSError).code == NSValidationRelationshipDeniedDeleteError {
                throw ToDoError(
                    "Can't delete category \(name): the model's delete rule for Category.todos is Deny, and it still holds \(Self.count(todos)). Move or delete them first."
                )
            }
            stack.say("Deleted category \(name).")
            let what: String
            // A switch names ObjectGraph's cases: Apple's long names (.nullifyDeleteRule) are
            // static members here, which a switch cannot check for exhaustiveness.
            switch rule {
            case .nullify:
                what =
                    todos == 0
                    ? "it held no to-dos."
                    : todos == 1
                        ? "its to-do stays, now in no category." : "its \(todos) to-dos stay, now in no category."
            case .cascade:
                what =
                    todos == 0
                    ? "it held no to-dos."
                    : todos == 1 ? "its to-do was deleted with it." : "its \(todos) to-dos were deleted with it."
            case .deny: what = "it held no to-dos, so nothing stopped the delete."
            case .noAction: what = "its to-dos were left pointing at nothing; Core Data leaves that to you."
            }
            stack.say("The model's delete rule for Category.todos is \(Self.name(of: rule)): \(what)")
        }

        static func name(of rule: NSDeleteRule) -> String {
            switch rule {
            case .noAction: return "No Action"
            case .nullify: return "Nullify"
            case .cascade: return "Cascade"
            case .deny: return "Deny"
            }
        }

        static func count(_ n: Int) -> String { n == 1 ? "1 to-do" : "\(n) to-dos" }
    }
}
