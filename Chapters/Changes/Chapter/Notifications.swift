import CoreData
import WorkbookSupport

/// The two notifications a context posts as its objects change: objects-did-change at the end of
/// each event that changed something (processPendingChanges, the end of a perform block, a save),
/// and did-save after a save; what each carries, and when.
enum Notifications {
    static func run(_ bench: Workbench) throws {
        // The observers run on the context's queue: they print with a print any queue may use.
        let print = bench.printFromAnyQueue
        let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait { try ToDoList.insertToDos(into: context) }

        // ANCHOR: observers
        let center = NotificationCenter.default
        let didChange = center.addObserver(
            forName: NSManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { notification in
            print("  objects did change: \(describe(notification))")
        }
        let didSave = center.addObserver(
            forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { notification in
            print("  did save:           \(describe(notification))")
        }
        // ANCHOR_END: observers
        defer {
            center.removeObserver(didChange)
            center.removeObserver(didSave)
        }

        try context.performAndWait {
            // ANCHOR: event
            print("Insert two to-dos and change one:")
            for title in ["Call the bank", "Water the plants"] {
                let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
                todo.setValue(title, forKey: "title")
            }
            context.object(with: ids[1]).setValue("Pay the rent", forKey: "title")
            print("  (nothing posted yet)")
            context.processPendingChanges()
            // ANCHOR_END: event

            // ANCHOR: fetch
            print("Fetch every to-do:")
            let all = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ToDo"))
            print("  (fetched \(all.count); nothing posted)")
            // ANCHOR_END: fetch
        }

        // ANCHOR: perform
        print("Delete one in a perform block:")
        context.perform {
            context.delete(context.object(with: ids[0]))
        }
        context.performAndWait {} // waits for the block: blocks run in order
        // ANCHOR_END: perform

        try context.performAndWait {
            // ANCHOR: save
            print("Change one more, then save:")
            context.object(with: ids[2]).setValue(true, forKey: "completed")
            try context.save()
            // ANCHOR_END: save
        }
    }

    // ANCHOR: describe
    /// The titles under each key of a context notification's user info.
    static func describe(_ notification: Notification) -> String {
        let keys: [(String, NSManagedObjectContext.NotificationKey)] = [
            ("inserted", .insertedObjects), ("updated", .updatedObjects), ("deleted", .deletedObjects),
        ]
        return keys.compactMap { name, key in
            guard let objects = notification.userInfo?[key.rawValue] as? Set<NSManagedObject> else { return nil }
            let titles = objects.map { $0.value(forKey: "title") as? String ?? "?" }.sorted()
            return "\(name) [\(titles.joined(separator: ", "))]"
        }.joined(separator: ", ")
    }
    // ANCHOR_END: describe
}
