import CoreData
import WorkbookSupport

/// The chapter's first section: the stack, one object inserted and saved, fetched back, and a
/// fault. Its listings use nothing but `import CoreData`, so a reader can type them into an
/// empty file, on Linux or on a Mac.
enum FirstSteps {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's own code would; here it goes to the
        // section's output, so that the book embeds what they really printed.
        let print = bench.print
        // The store's file lives in a fresh temporary folder, removed with the workbench.
        let folder = try bench.makeDataFolder()
        // ANCHOR: first-stack
        let model = try NSManagedObjectModel {
            NSEntityDescription("Book") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("author", .string)
            }
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil,
            at: folder.appendingPathComponent("Books.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        // ANCHOR_END: first-stack
        print(
            "The stack: a model with \(model.entities.count) entity, a coordinator with \(coordinator.persistentStores.count) SQLite store, a context."
        )

        // ANCHOR: first-insert
        let bookID = try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Fetch, Clarus, Fetch", forKey: "title")
            book.setValue("Jeff LaMarche", forKey: "author")
            print("Inserted; unsaved changes: \(context.hasChanges), temporary ID: \(book.objectID.isTemporaryID)")
            try context.save()
            print("Saved; unsaved changes: \(context.hasChanges), temporary ID: \(book.objectID.isTemporaryID)")
            return book.objectID
        }
        // ANCHOR_END: first-insert

        // ANCHOR: first-fetch
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let books = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
            for found in books {
                print("Fetched in a second context: \(found.value(forKey: "title") ?? "no title")")
            }
        }
        // ANCHOR_END: first-fetch

        // ANCHOR: first-fault
        let third = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        third.persistentStoreCoordinator = coordinator
        third.performAndWait {
            let fault = third.object(with: bookID)
            print("Before reading a value, isFault: \(fault.isFault)")
            let title = fault.value(forKey: "title")
            print("Read the title, \(title ?? "nil"); now isFault: \(fault.isFault)")
        }
        // ANCHOR_END: first-fault
    }
}
