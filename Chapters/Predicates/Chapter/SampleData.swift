import CoreData
import WorkbookSupport

/// The objects the sections start from: people and words, and the bookshop's books.
enum SampleData {
    // ANCHOR: sample-people
    static let people: [(name: String, age: Int, birthday: String)] = [
        ("Mary", 19, "1990-04-22"), ("Joe", 21, "1988-05-02"), ("Bob", 35, "1974-05-16"),
        ("bob", 20, "1989-02-26"), ("BOB", 52, "1957-05-25"), ("Böb", 44, "1965-05-03"),
        ("bób", 17, "1992-03-02"), ("Anne", 63, "1946-06-12"),
    ]

    static let words = ["wet", "wait", "wt", "west", "what", "wit", "Wet", "swat", "want", "w?t"]

    static func insertPeopleAndWords(into context: NSManagedObjectContext) throws {
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withFullDate] // "1990-04-22": midnight UTC
        for p in people {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(p.name, forKey: "name")
            person.setValue(p.age, forKey: "age")
            person.setValue(dates.date(from: p.birthday), forKey: "birthday")
        }
        for text in words {
            let word = NSEntityDescription.insertNewObject(forEntityName: "Word", into: context)
            word.setValue(text, forKey: "text")
        }
        try context.save()
    }
    // ANCHOR_END: sample-people

    // ANCHOR: sample-books
    static let books: [(id: Int, title: String, publisher: String, salesRank: Int)] = [
        (192, "Fetch, Clarus, Fetch", "MacTech", 17_540),
        (193, "Cocoa Programming", "BookCo", 482_769),
        (194, "Core Data Essentials", "BookCo", 1_203),
        (195, "The Objective-C Primer", "Tomes", 5_114),
    ]

    static func insertBooks(into context: NSManagedObjectContext) throws {
        for b in books {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(b.id, forKey: "id")
            book.setValue(b.title, forKey: "title")
            book.setValue(b.publisher, forKey: "publisher")
            book.setValue(b.salesRank, forKey: "salesRank")
        }
        try context.save()
    }
    // ANCHOR_END: sample-books

    /// A context on a new SQLite store of the people model, holding the people and the words:
    /// where every section but the bookshop's starts.
    static func peopleContext(_ bench: Workbench) throws -> NSManagedObjectContext {
        let context = try bench.makeContext(model: PredicatesModels.people())
        try insertPeopleAndWords(into: context)
        return context
    }

    /// A context on a new SQLite store of the bookshop model, holding the books.
    static func bookContext(_ bench: Workbench) throws -> NSManagedObjectContext {
        let context = try bench.makeContext(model: PredicatesModels.bookshop())
        try insertBooks(into: context)
        return context
    }
}
