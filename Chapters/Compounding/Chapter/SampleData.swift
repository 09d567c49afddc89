import ObjectGraph

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
    static func insertBookstore(into context: ManagedObjectContext) throws -> [ManagedObject] {
        var byName: [String: ManagedObject] = [:]
        for name in publishers {
            let publisher = try context.insertNewObject(forEntityName: "Publisher")
            try publisher.checkedSetValue(name, forKey: "name")
            byName[name] = publisher
        }
        let objects = try books.map { book -> ManagedObject in
            let object = try context.insertNewObject(forEntityName: "Book")
            try object.checkedSetValue(book.title, forKey: "title")
            try object.checkedSetValue(book.author, forKey: "author")
            try object.checkedSetValue(book.salesRank, forKey: "salesRank")
            try object.checkedSetValue(book.publisher.flatMap { byName[$0] }, forKey: "publisher")
            return object
        }
        try context.save()
        return objects
    }
    // ANCHOR_END: sample-bookstore

    /// The titles of some books, sorted, so that the output never depends on fetch order.
    static func titles(_ books: [ManagedObject]) throws -> [String] {
        try books.map { try $0.checkedValue(forKey: "title") as? String ?? "?" }.sorted()
    }

    /// `3 books: Moof!, Cocoa Recipes, ...`, sorted by title.
    static func list(_ books: [ManagedObject]) throws -> String {
        let titles = try titles(books)
        if titles.isEmpty { return "no books" }
        return "\(titles.count) book\(titles.count == 1 ? "" : "s"): " + titles.joined(separator: ", ")
    }

    /// `"Moof!" by Clarus, BookCo, rank 482769`.
    static func describe(book: ManagedObject) throws -> String {
        let title = try book.checkedValue(forKey: "title") as? String ?? "?"
        let author = try book.checkedValue(forKey: "author") as? String ?? "?"
        let publisher = try book.checkedValue(forKeyPath: "publisher.name") as? String ?? "no publisher"
        let rank = try book.checkedValue(forKey: "salesRank").map { "\($0)" } ?? "nil"
        return "\"\(title)\" by \(author), \(publisher), rank \(rank)"
    }
}
