import CoreData

/// The chapter's model: a library's books, each with a catalogue code no two books share.
public enum ConflictsModels {
    // ANCHOR: shelf-model
    /// Books with a unique catalogue code (the uniqueness constraint), a title, an author and a
    /// number of copies.
    public static func shelf() throws -> NSManagedObjectModel {
        try NSManagedObjectModel {
            NSEntityDescription("Book", uniquenessConstraints: [["code"]]) {
                NSAttributeDescription("code", .string, optional: false)
                NSAttributeDescription("title", .string)
                NSAttributeDescription("author", .string)
                NSAttributeDescription("copies", .integer16, defaultValue: 1)
            }
        }
    }
    // ANCHOR_END: shelf-model
}

/// The shelf's stack and its books, as every section starts from them.
public enum Shelf {
    // ANCHOR: sample-books
    /// The books the sections start from, each with its catalogue code.
    public static let books: [(code: String, title: String, author: String)] = [
        ("LAM-2005", "Fetch, Clarus, Fetch", "Jeff LaMarche"),
        ("ZAR-2009", "Core Data", "Marcus Zarra"),
        ("KUG-2015", "Core Data", "Florian Kugler and Daniel Eggert"),
    ]
    // ANCHOR_END: sample-books

    /// A container on the SQLite store `Shelf.sqlite` in `folder`, new or already there.
    public static func makeContainer(in folder: URL) throws -> NSPersistentContainer {
        // ANCHOR: container
        let container = NSPersistentContainer(name: "Shelf", managedObjectModel: try ConflictsModels.shelf())
        container.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: folder.appendingPathComponent("Shelf.sqlite"))
        ]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        // ANCHOR_END: container
        return container
    }

    /// Inserts ``books`` on a background context and saves; returns their IDs in order.
    @discardableResult
    public static func insertBooks(into container: NSPersistentContainer) throws -> [NSManagedObjectID] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let inserted = books.map { code, title, author in
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(code, forKey: "code")
                book.setValue(title, forKey: "title")
                book.setValue(author, forKey: "author")
                return book
            }
            try context.save()
            return inserted.map(\.objectID)
        }
    }

    /// The book with catalogue code `code` as the store holds it now, read by a new context:
    /// `"Core Data" by Marcus Zarra, 1 copy`; nil when there is none.
    public static func stored(code: String, in container: NSPersistentContainer) throws -> String? {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "code == %@", code)
            return try reader.fetch(request).first.map(describe)
        }
    }

    /// The number of books in the store, counted by a new context.
    public static func count(in container: NSPersistentContainer) throws -> Int {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
        }
    }

    // ANCHOR: describe
    /// `"Core Data" by Marcus Zarra, 1 copy`.
    public static func describe(_ book: NSManagedObject) -> String {
        let copies = book.value(forKey: "copies") as? Int ?? 0
        let title = book.value(forKey: "title") as? String ?? "nil"
        let author = book.value(forKey: "author") as? String ?? "nil"
        return "\"\(title)\" by \(author), \(copies) \(copies == 1 ? "copy" : "copies")"
    }

    /// A snapshot (of a conflict) as sorted `key: value` pairs, one line: dictionaries have no
    /// order, and the book's output must be the same on every run.
    public static func describe(snapshot: [String: Any]?) -> String {
        guard let snapshot else { return "nil" }
        return "{"
            + snapshot.keys.sorted().map { key in
                let value = snapshot[key].map { $0 is String ? "\"\($0)\"" : "\($0)" } ?? "nil"
                return "\(key): \(value)"
            }.joined(separator: ", ") + "}"
    }
    // ANCHOR_END: describe
}
