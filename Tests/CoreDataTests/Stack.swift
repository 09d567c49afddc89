import CoreData
import Testing

/// What the CoreData module's tests share: a model written with Apple's names, a SQLite
/// store in a folder of its own, and the folder's removal.
enum Stack {
    /// A library: books with a page count, a flag and an ordered list of chapters; authors.
    static func model() throws -> NSManagedObjectModel {
        try NSManagedObjectModel {
            NSEntityDescription("Book") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("pages", .integer16)
                NSAttributeDescription("rating", .double)
                NSAttributeDescription("inPrint", .boolean)
                NSRelationshipDescription("chapters", toMany: "Chapter", inverse: "book", ordered: true)
                NSRelationshipDescription("authors", toMany: "Author", inverse: "books")
            }
            NSEntityDescription("Chapter") {
                NSAttributeDescription("name", .string)
                NSRelationshipDescription("book", toOne: "Book", inverse: "chapters")
            }
            NSEntityDescription("Author") {
                NSAttributeDescription("name", .string)
                NSRelationshipDescription("books", toMany: "Book", inverse: "authors")
            }
        }
    }

    /// A new empty folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("CoreDataTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A coordinator on a new SQLite store in `folder`, added the way Apple's stacks add one.
    static func coordinator(in folder: URL, model: NSManagedObjectModel? = nil) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try model ?? Self.model())
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil,
            at: folder.appendingPathComponent("Library.sqlite"), options: nil)
        return coordinator
    }

    /// A confinement context on a new SQLite store in `folder`, set up in Apple's two steps.
    static func context(in folder: URL, model: NSManagedObjectModel? = nil) throws -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = try coordinator(in: folder, model: model)
        return context
    }

    /// The package's copy of Zarra's ToDo model, found from this file.
    static let toDoModel = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WorkbookSupport/Resources/ToDo.xcdatamodeld")
}
