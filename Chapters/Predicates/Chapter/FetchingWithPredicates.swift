import ObjectGraph
import WorkbookSupport

enum FetchingWithPredicates {
    static let books: [(id: Int, title: String, publisher: String, salesRank: Int)] = [
        (192, "Fetch, Clarus, Fetch", "MacTech", 17_540),
        (193, "Cocoa Programming", "BookCo", 482_769),
        (194, "Core Data Essentials", "BookCo", 1_203),
        (195, "The Objective-C Primer", "Tomes", 5_114),
    ]

    static func bookContext(_ bench: Workbench) throws -> ManagedObjectContext {
        let context = try bench.makeContext(model: PredicatesModels.bookshop())
        for b in books {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue(b.id, forKey: "id")
            try book.setValue(b.title, forKey: "title")
            try book.setValue(b.publisher, forKey: "publisher")
            try book.setValue(b.salesRank, forKey: "salesRank")
        }
        try context.save()
        return context
    }

    static func titles(_ objects: [ManagedObject]) throws -> String {
        try objects.map { "\"\(try $0.value(forKey: "title") as? String ?? "?")\"" }.joined(separator: ", ")
    }

    static func run(_ bench: Workbench) throws {
        let context = try bookContext(bench)
        // ANCHOR: matching-key
        let fromBookCo = try FetchUtilities.objects(forEntityNamed: "Book", matchingKey: "publisher", value: "BookCo", in: context)
        // ANCHOR_END: matching-key
        bench.print("Books from BookCo: \(try titles(fromBookCo))")
        // ANCHOR: book-192
        let book192 = try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 192, in: context)
        let book999 = try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 999, in: context)
        // ANCHOR_END: book-192
        bench.print("The book with id 192: \(try book192.map { try titles([$0]) } ?? "none")")
        bench.print("The book with id 999: \(try book999.map { try titles([$0]) } ?? "none (nil, not an error)")")
        // ANCHOR: too-many
        do {
            _ = try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "publisher", value: "BookCo", in: context)
        } catch {
            bench.print("\(error)")
        }
        // ANCHOR_END: too-many
        // ANCHOR: string-for-number
        let asText = try FetchUtilities.objects(forEntityNamed: "Book", matchingKey: "id", value: "192", in: context)
        // ANCHOR_END: string-for-number
        bench.print("Matching id against the string \"192\" finds \(asText.count) books: a string never equals a number.")
    }

    static func runSQL(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        // ANCHOR: sql-fetches
        for format in ["age <= 21", "name ==[cd] 'bob'", "name BEGINSWITH 'B'", "name LIKE 'B?b'", "name IN {'Mary', 'Joe'}", "age BETWEEN {18, 21}"] {
            let request = FetchRequest(entityName: "Person")
            request.predicate = try Predicate(format: format)
            let names = try context.fetch(request).map { try $0.value(forKey: "name") as? String ?? "?" }
            bench.print("\(format)  → \(names.joined(separator: ", "))")
        }
        // ANCHOR_END: sql-fetches
    }
}
