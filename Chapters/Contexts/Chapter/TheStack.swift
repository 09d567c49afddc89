import CoreData
import WorkbookSupport

/// The stack an application uses: one container, its view context on the main queue, and
/// background contexts on queues of their own; objects stay on their context's queue and
/// their IDs cross between queues.
enum TheStack {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's code would; here into the output.
        let print = bench.print
        let container = try Library.makeContainer(in: bench.makeDataFolder())
        // ANCHOR: two-contexts
        let viewContext = container.viewContext
        let background = container.newBackgroundContext()
        print(
            "viewContext: \(viewContext.concurrencyType), parent: \(viewContext.parent == nil ? "none" : "a context")")
        print("background:  \(background.concurrencyType), parent: \(background.parent == nil ? "none" : "a context")")
        print(
            "Same coordinator: \(viewContext.persistentStoreCoordinator === background.persistentStoreCoordinator)")
        // ANCHOR_END: two-contexts
        print("")

        let bookIDs = try Library.insertBooks(into: container)
        print(
            "The background context saved \(bookIDs.count) books; their IDs are permanent: \(bookIDs.allSatisfy { !$0.isTemporaryID })"
        )

        // ANCHOR: ids-cross
        viewContext.performAndWait {
            for id in bookIDs {
                let book = viewContext.object(with: id)
                print("  on the main queue: \(book.value(forKey: "title") ?? "") (\(book.value(forKey: "year") ?? ""))")
            }
        }
        // ANCHOR_END: ids-cross
    }
}
