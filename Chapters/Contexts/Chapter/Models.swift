import CoreData

/// The chapter's model: a library of books.
public enum ContextsModels {
    // ANCHOR: library-model
    /// A library's books, with their authors and years.
    public static func library() throws -> NSManagedObjectModel {
        try NSManagedObjectModel {
            NSEntityDescription("Book") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("author", .string)
                NSAttributeDescription("year", .integer16)
            }
        }
    }
    // ANCHOR_END: library-model
}

/// The library's stack and its books, as every section starts from them.
public enum Library {
    // ANCHOR: sample-books
    /// The books the sections start from: the texts this book follows, and the ones after them.
    public static let books: [(title: String, author: String, year: Int)] = [
        ("Fetch, Clarus, Fetch", "Jeff LaMarche", 2005),
        ("Core Data", "Marcus Zarra", 2009),
        ("Core Data", "Florian Kugler and Daniel Eggert", 2015),
        ("Core Data by Tutorials", "Aaron Douglas and Saul Mora", 2014),
    ]
    // ANCHOR_END: sample-books

    /// A container on a new SQLite store, `Library.sqlite`, in `folder`.
    public static func makeContainer(in folder: URL) throws -> NSPersistentContainer {
        // ANCHOR: container
        let container = NSPersistentContainer(name: "Library", managedObjectModel: try ContextsModels.library())
        container.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: folder.appendingPathComponent("Library.sqlite"))
        ]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        // ANCHOR_END: container
        return container
    }

    /// Inserts ``books`` on a new background context and saves; returns their IDs in order.
    public static func insertBooks(into container: NSPersistentContainer) throws -> [NSManagedObjectID] {
        let background = container.newBackgroundContext()
        // ANCHOR: import
        let bookIDs = try background.performAndWait {
            let inserted = Library.books.map { title, author, year in
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: background)
                book.setValue(title, forKey: "title")
                book.setValue(author, forKey: "author")
                book.setValue(year, forKey: "year")
                return book
            }
            try background.save()
            return inserted.map(\.objectID)
        }
        // ANCHOR_END: import
        return bookIDs
    }

    /// The title of the book `id` as the store holds it now, read by a context of its own.
    public static func storedTitle(of id: NSManagedObjectID, in container: NSPersistentContainer) throws -> String {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            try reader.existingObject(with: id).value(forKey: "title") as? String ?? "nil"
        }
    }
}
