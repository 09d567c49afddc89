import CoreData
import WorkbookSupport

/// A child context as a scratch pad: its save hands its changes to its parent (the view
/// context), which holds them until it saves itself; a child thrown away changes nothing.
enum ScratchPad {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try Library.makeContainer(in: bench.makeDataFolder())
        let bookIDs = try Library.insertBooks(into: container)
        let viewContext = container.viewContext
        let bookID = bookIDs[1]

        // ANCHOR: child
        let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        editor.parent = viewContext
        try editor.performAndWait {
            let book = try editor.existingObject(with: bookID)
            book.setValue("Core Data, 2nd edition", forKey: "title")
            try editor.save() // into viewContext, not into the store
        }
        // ANCHOR_END: child
        try viewContext.performAndWait {
            let title = try viewContext.existingObject(with: bookID).value(forKey: "title") ?? ""
            print("After the editor saved: the view context has changes: \(viewContext.hasChanges), title \"\(title)\"")
        }
        print("  the store still holds \"\(try Library.storedTitle(of: bookID, in: container))\"")
        // ANCHOR: save-parent
        try viewContext.performAndWait {
            try viewContext.save()
        }
        // ANCHOR_END: save-parent
        print("After the view context saved: the store holds \"\(try Library.storedTitle(of: bookID, in: container))\"")
        print("")

        // ANCHOR: throw-away
        let draft = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        draft.parent = viewContext
        try draft.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: draft)
            book.setValue("A book never written", forKey: "title")
            try draft.delete(draft.existingObject(with: bookIDs[0]))
            print("The draft: \(draft.insertedObjects.count) inserted, \(draft.deletedObjects.count) deleted")
            draft.rollback()
            print("After rollback(): \(draft.insertedObjects.count) inserted, \(draft.deletedObjects.count) deleted")
        }
        // ANCHOR_END: throw-away
        try viewContext.performAndWait {
            let count = try viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
            print("The view context has changes: \(viewContext.hasChanges), and still \(count) books")
        }
    }

    /// The stack of this chapter as a diagram, from the contexts it makes: the view context
    /// and a background context on the coordinator, and a child of the view context.
    static func stackDiagram() throws -> String {
        // The workbench removes the store's folder when the diagram is drawn.
        let bench = Workbench { _ in }
        let container = try Library.makeContainer(in: bench.makeDataFolder())
        let background = container.newBackgroundContext()
        background.name = "background"
        let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        editor.parent = container.viewContext
        editor.name = "editor"
        return StackDiagram.mermaid(
            coordinator: container.persistentStoreCoordinator, contexts: [container.viewContext, background, editor])
    }
}
