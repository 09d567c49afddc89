import ArgumentParser
import CoreData
import WorkbookSupport

extension ToDoCommand {
    /// `todo list`: the to-dos as a table, sorted by due date.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List to-dos, soonest due first.")

        @Option(help: ArgumentHelp("Only this category's.", valueName: "name")) var category: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Only those due before this time.", valueName: "when"))
        var dueBefore: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Only those due after this time.", valueName: "when"))
        var dueAfter: String?
        @Flag(help: "Only completed to-dos.") var completed = false
        @Flag(help: "Only to-dos not completed yet.") var pending = false
        @OptionGroup var options: StoreOptions

        func validate() throws {
            if completed && pending { throw ValidationError("--completed and --pending exclude each other; give one") }
        }

        func run() throws { try ToDoStack.open(options, access: .reading) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let environment = stack.environment
            let now = environment.clock.now
            var predicates: [NSPredicate] = []
            if let category {
                predicates.append(NSPredicate(format: "category == %@", try stack.category(named: category)))
            }
            if let dueBefore {
                predicates.append(
                    NSPredicate(
                        format: "dueDate < %@",
                        try When.parse(dueBefore, now: now, timeZone: environment.timeZone) as NSDate))
            }
            if let dueAfter {
                predicates.append(
                    NSPredicate(
                        format: "dueDate > %@",
                        try When.parse(dueAfter, now: now, timeZone: environment.timeZone) as NSDate))
            }
            if completed || pending {
                predicates.append(NSPredicate(format: "completed == %@", NSNumber(value: completed)))
            }
            let request = ToDo.fetchRequest()
            request.predicate =
                predicates.isEmpty ? nil : NSCompoundPredicate(andPredicateWithSubpredicates: predicates)
            request.sortDescriptors = [
                NSSortDescriptor(key: "dueDate", ascending: true), NSSortDescriptor(key: "title", ascending: true),
            ]
            let items = try stack.context.fetch(request).map { try ToDoItem($0, version: stack.version) }
            guard !items.isEmpty else {
                stack.say(
                    predicates.isEmpty ? "No to-dos yet. Add one: todo add \"Pay rent\" --due +3m" : "No to-dos match.")
                return
            }
            var header = ["#", "Due", "Title", "Category", "Done"]
            if stack.version >= 2 { header.append("No alert") }
            let rows = items.map { item -> [String] in
                var row = [
                    "\(item.number)", item.dueDate.map { When.format($0, timeZone: environment.timeZone) } ?? "-",
                    item.title, item.category ?? "-", item.completed ? "yes" : "",
                ]
                if let doNotAlert = item.doNotAlert { row.append(doNotAlert ? "yes" : "") }
                return row
            }
            for line in Table.render(header: header, rows: rows) { stack.say(line) }
        }
    }
}
