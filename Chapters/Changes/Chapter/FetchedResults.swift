import CoreData
import WorkbookSupport

/// A fetched results controller keeps a list of to-dos, soonest due first, current as the
/// context changes; its delegate's calls, printed as a table, are what a table view would be
/// told: an insert, a move when a sort key changes, an update when another value changes, and
/// a delete.
enum FetchedResults {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ids = try ToDoList.insertToDos(into: context)
            // ANCHOR: controller
            let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
            request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
            let controller = NSFetchedResultsController<NSManagedObject>(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let calls = DelegateCalls()
            controller.delegate = calls
            try controller.performFetch()
            // ANCHOR_END: controller
            print("The list: \(list(controller))")

            let dates = ISO8601DateFormatter()
            // ANCHOR: steps
            let steps: [(String, () -> Void)] = [
                (
                    "insert \"Call the bank\", due 2 June 12:00",
                    {
                        let bank = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
                        bank.setValue("Call the bank", forKey: "title")
                        bank.setValue(dates.date(from: "2009-06-02T12:00:00Z"), forKey: "dueDate")
                    }
                ),
                (
                    "\"Ask for a raise\" now due 1 June 12:00",
                    {
                        context.object(with: ids[3]).setValue(
                            dates.date(from: "2009-06-01T12:00:00Z"), forKey: "dueDate")
                    }
                ),
                ("rename \"Buy milk\"", { context.object(with: ids[0]).setValue("Buy oat milk", forKey: "title") }),
                ("delete \"Pay rent\"", { context.delete(context.object(with: ids[1])) }),
            ]
            for (name, change) in steps {
                print("")
                print("Change: \(name)")
                change()
                try context.save() // the save ends the event: the controller is told
                print(calls.table())
                print("The list: \(list(controller))")
                calls.rows = []
            }
            // ANCHOR_END: steps
        }
    }

    // ANCHOR: list
    /// The controller's objects in order: `1. Buy milk, 2. Pay rent, ...`.
    static func list(_ controller: NSFetchedResultsController<NSManagedObject>) -> String {
        let objects = controller.fetchedObjects ?? []
        return objects.enumerated().map { "\($0 + 1). \($1.value(forKey: "title") as? String ?? "?")" }
            .joined(separator: ", ")
    }
    // ANCHOR_END: list
}

// ANCHOR: delegate
/// A fetched results controller's delegate that writes down each call, as a table view's data
/// source would apply them: between willChange and didChange, inserts, deletes, moves, updates.
final class DelegateCalls: NSObject, NSFetchedResultsControllerDelegate {
    var rows: [[String]] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        rows.append(["controllerWillChangeContent", "", "", "", ""])
    }

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        let title = (anObject as? NSManagedObject)?.value(forKey: "title") as? String ?? "?"
        rows.append(["controller(_:didChange:...)", "\(type)", place(indexPath), place(newIndexPath), title])
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        rows.append(["controllerDidChangeContent", "", "", "", ""])
    }

    /// `section.row`, or `-` for none.
    func place(_ indexPath: IndexPath?) -> String {
        guard let indexPath, indexPath.count == 2 else { return "-" }
        return "\(indexPath[0]).\(indexPath[1])"
    }

    /// The calls as a table, a column per argument.
    func table() -> String {
        let header = ["delegate call", "type", "at", "newIndexPath", "object"]
        let widths = [29, 8, 4, 14, 0]
        return ([header] + rows).map { row in
            zip(row, widths).map { cell, width in
                width == 0 ? cell : cell.padding(toLength: width, withPad: " ", startingAt: 0)
            }
            .joined().trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
// ANCHOR_END: delegate
