import Foundation
import ObjectGraph
import WorkbookSupport

/// The chapter's first section: the stack, one object inserted and saved, fetched back, and a
/// fault. Its listings use nothing but the library and Foundation, so a reader can type them
/// into an empty file.
enum FirstSteps {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's own code would; here it goes to the
        // section's output, so that the book embeds what they really printed.
        let print = bench.print
        // The store's file lives in a fresh temporary folder, removed with the workbench.
        let folder = try bench.makeDataFolder()
        // ANCHOR: first-stack
        let model = try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("author", .string)
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("Books.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        // ANCHOR_END: first-stack
        print("The stack: a model with \(model.entities.count) entity, a coordinator with \(coordinator.persistentStores.count) SQLite store, a context.")

        // ANCHOR: first-insert
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
        try book.checkedSetValue("Jeff LaMarche", forKey: "author")
        print("Inserted; unsaved changes: \(context.hasChanges), temporary ID: \(book.objectID.isTemporaryID)")
        try context.save()
        print("Saved; unsaved changes: \(context.hasChanges), temporary ID: \(book.objectID.isTemporaryID)")
        // ANCHOR_END: first-insert

        // ANCHOR: first-fetch
        let reader = ManagedObjectContext(coordinator: coordinator)
        let books = try reader.fetch(FetchRequest(entityName: "Book"))
        for found in books {
            print("Fetched in a second context: \(try found.checkedValue(forKey: "title") ?? "no title")")
        }
        // ANCHOR_END: first-fetch

        // ANCHOR: first-fault
        let third = ManagedObjectContext(coordinator: coordinator)
        let fault = third.object(with: book.objectID)
        print("Before reading a value, isFault: \(fault.isFault)")
        let title = try fault.checkedValue(forKey: "title")
        print("Read the title, \(title ?? "nil"); now isFault: \(fault.isFault)")
        // ANCHOR_END: first-fault
    }
}
