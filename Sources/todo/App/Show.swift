import ArgumentParser
import Foundation

extension ToDoCommand {
    /// `todo show ID`: one to-do, every value.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one to-do.")

        @Argument(help: "Its number, from `todo list`.") var id: Int64
        @OptionGroup var options: StoreOptions

        func run() throws { try ToDoStack.open(options, access: .reading) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let zone = stack.environment.timeZone
            let todo = try stack.todo(number: id)
            let item = try ToDoItem(todo, version: stack.version)
            stack.say("#\(item.number) \(item.title)")
            stack.say("  due:            \(item.dueDate.map { When.format($0, timeZone: zone) } ?? "-")")
            stack.say("  category:       \(item.category ?? "-")")
            stack.say("  completed:      \(item.completed ? "yes" : "no")")
            if let doNotAlert = item.doNotAlert {
                stack.say("  do not alert:   \(doNotAlert ? "yes" : "no")")
                stack.say("  last alert:     \(item.lastAlertDate.map { When.format($0, timeZone: zone) } ?? "-")")
            }
            stack.say("  object ID:      \(todo.objectID)")
        }
    }
}
