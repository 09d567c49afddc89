import CoreData
import WorkbookSupport

/// Each object's own change state: isInserted, isUpdated, isDeleted, hasChanges, the values
/// changed since the last fetch or save (changedValues()) and the values last fetched or saved
/// (committedValues(forKeys:)), before a save and after it.
enum ChangeState {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ids = try ToDoList.insertToDos(into: context)
            // ANCHOR: changes
            let milk = context.object(with: ids[0])
            let rent = context.object(with: ids[1])
            let mail = context.object(with: ids[2])
            let bank = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
            bank.setValue("Call the bank", forKey: "title")
            rent.setValue("Pay the rent", forKey: "title")
            rent.setValue(true, forKey: "completed")
            context.delete(milk)
            // ANCHOR_END: changes
            let todos = [bank, rent, milk, mail]
            print("Before the save:")
            printStates(of: todos, print: print)
            // ANCHOR: save
            try context.save()
            // ANCHOR_END: save
            print("")
            print("After the save:")
            printStates(of: todos, print: print)
            print("")
            // ANCHOR: set-back
            rent.setValue("Pay rent", forKey: "title")
            rent.setValue("Pay the rent", forKey: "title")
            print("\"Pay the rent\" renamed and named back: isUpdated \(rent.isUpdated),")
            print(
                "  hasPersistentChangedValues \(rent.hasPersistentChangedValues), changedValues() \(rent.changedValues())"
            )
            // ANCHOR_END: set-back
        }
    }

    // ANCHOR: state-table
    /// A row per to-do: its flags, the keys changedValues() names, and its committed title.
    static func printStates(of todos: [NSManagedObject], print: (String) -> Void) {
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        print(
            pad("to-do", 22) + "inserted  updated  deleted  hasChanges  changedValues()               committed title")
        for todo in todos {
            let changed = todo.changedValues().keys.sorted().joined(separator: ", ")
            // A deleted object has left its context after the save: it has no committed values.
            let committed = (try? todo.committedValues(forKeys: ["title"]))?["title"].map { "\($0)" } ?? "(none)"
            print(
                pad(todo.value(forKey: "title") as? String ?? "?", 22) + pad("\(todo.isInserted)", 10)
                    + pad("\(todo.isUpdated)", 9) + pad("\(todo.isDeleted)", 9) + pad("\(todo.hasChanges)", 12)
                    + pad(changed.isEmpty ? "-" : changed, 30) + committed)
        }
    }
    // ANCHOR_END: state-table
}
