import CoreData

/// The objects the sections start from.
enum SampleData {
    // ANCHOR: sample-books
    static let books: [(title: String, author: String, salesRank: Int)] = [
        ("Fetch, Clarus, Fetch", "Jeff LaMarche", 192),
        ("Cocoa Programming for Mac OS X", "Aaron Hillegass", 482_769),
        ("Core Data", "Marcus Zarra", 1_203),
        ("Learn Objective-C on the Mac", "Mark Dalrymple", 5_114),
    ]

    static func insertBooks(into context: NSManagedObjectContext) throws {
        for book in books {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            object.setValue(book.title, forKey: "title")
            object.setValue(book.author, forKey: "author")
            object.setValue(book.salesRank, forKey: "salesRank")
        }
        try context.save()
    }
    // ANCHOR_END: sample-books

    // ANCHOR: sample-employees
    static let employees: [(first: String, last: String, salary: Int)] = [
        ("Mary", "Worsley", 95_000),
        ("Joe", "Worsley", 60_000),
        ("Anne", "worsley", 120_000),
        ("Bob", "Woolley", 130_000),
        ("Carol", "Smith", 80_000),
    ]

    @discardableResult
    static func insertEmployees(into context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let objects = employees.map { e -> NSManagedObject in
            let object = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            object.setValue(e.first, forKey: "firstName")
            object.setValue(e.last, forKey: "lastName")
            object.setValue(e.salary, forKey: "salary")
            return object
        }
        try context.save()
        return objects
    }
    // ANCHOR_END: sample-employees
}
