import CoreData

/// The publishers and books the sections start from. Built so that each way of combining
/// the same conditions picks out a different set of books.
enum SampleData {
    // ANCHOR: sample-bookstore
    static let publishers = ["BookCo", "Clarus Press", "Moof Media"]

    static let books: [(title: String, author: String, publisher: String?, salesRank: Int)] = [
        ("Moof!", "Clarus", "BookCo", 482_769),
        ("Cocoa Recipes", "Ann Kay", "BookCo", 1_203),
        ("The Object Graph", "Ben Ode", "BookCo", 96_000),
        ("Dogcow Diaries", "Clarus", "Clarus Press", 482_769),
        ("Predicates in Practice", "Ann Kay", "Moof Media", 58),
        ("Unpublished Thoughts", "Cy Note", nil, 7),
    ]

    /// Inserts the publishers and books and saves; returns the books in the order above.
    @discardableResult
    static func insertBookstore(into context: NSManagedObjectContext) throws -> [NSManagedObject] {
        var byName: [String: NSManagedObject] = [:]
        for name in publishers {
            let publisher = NSEntityDescription.insertNewObject(forEntityName: "Publisher", into: context)
            publisher.setValue(name, forKey: "name")
            byName[name] = publisher
        }
        let objects = books.map { book -> NSManagedObject in
            let object = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            object.setValue(book.title, forKey: "title")
            object.setValue(book.author, forKey: "author")
            object.setValue(book.salesRank, forKey: "salesRank")
            object.setValue(book.publisher.flatMap { byName[$0] }, forKey: "publisher")
            return object
        }
        try context.save()
        return objects
    }
    // ANCHOR_END: sample-bookstore

    /// The titles of some books, sorted, so that the output never depends on fetch order.
    static func titles(_ books: [NSManagedObject]) throws -> [String] {
        books.map { $0.value(forKey: "title") as? String ?? "?" }.sorted()
    }

    /// `3 books: Moof!, Cocoa Recipes, ...`, sorted by title.
    static func list(_ books: [NSManagedObject]) throws -> String {
        let titles = try titles(books)
        if titles.isEmpty { return "no books" }
        return "\(titles.count) book\(titles.count == 1 ? "" : "s"): " + titles.joined(separator: ", ")
    }

    /// `"Moof!" by Clarus, BookCo, rank 482769`.
    static func describe(book: NSManagedObject) throws -> String {
        let title = book.value(forKey: "title") as? String ?? "?"
        let author = book.value(forKey: "author") as? String ?? "?"
        let publisher = book.value(forKeyPath: "publisher.name") as? String ?? "no publisher"
        let rank = book.value(forKey: "salesRank").map { "\($0)" } ?? "nil"
        return "\"\(title)\" by \(author), \(publisher), rank \(rank)"
    }
}
