import CoreData
import WorkbookSupport

/// Undo and redo: a context with an undo manager registers each event's changes as one step;
/// undo() and redo() walk the steps, a save leaves them, rollback() removes them.
enum Undoing {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ids = try ToDoList.insertToDos(into: context)
            // ANCHOR: show
            /// The titles, soonest due first, and what the context and its undo manager say.
            func show(_ step: String) throws {
                let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
                request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
                let titles = try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "?" }
                let undo = context.undoManager
                print(step)
                print("  \(titles.joined(separator: ", "))")
                print(
                    "  hasChanges \(context.hasChanges), canUndo \(undo?.canUndo ?? false), canRedo \(undo?.canRedo ?? false)"
                )
            }
            // ANCHOR_END: show

            // ANCHOR: two-steps
            context.undoManager = UndoManager()
            context.object(with: ids[1]).setValue("Pay the rent", forKey: "title")
            context.processPendingChanges() // the end of an event: one step to undo
            context.delete(context.object(with: ids[0]))
            context.processPendingChanges()
            // ANCHOR_END: two-steps
            try show("Renamed \"Pay rent\", then deleted \"Buy milk\" (two events):")

            // ANCHOR: undo-redo
            context.undo()
            try show("undo():")
            context.undo()
            try show("undo() again:")
            context.redo()
            try show("redo():")
            // ANCHOR_END: undo-redo

            // ANCHOR: after-save
            try context.save()
            try show("save():")
            context.undo()
            try show("undo() after the save:")
            context.rollback()
            try show("rollback():")
            // ANCHOR_END: after-save
        }
    }
}
