import CoreData
import ObjectGraph
import WorkbookSupport

enum FetchingWithPredicates {
    /// `"Cocoa Programming", "Core Data Essentials"`: the titles of some books, quoted.
    static func titles(_ objects: [NSManagedObject]) throws -> String {
        objects.map { "\"\($0.value(forKey: "title") as? String ?? "?")\"" }.joined(separator: ", ")
    }

    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.bookContext(bench)
        // ANCHOR: matching-key
        let fromBookCo = try FetchUtilities.objects(
            forEntityNamed: "Book", matchingKey: "publisher", value: "BookCo", in: context)
        // ANCHOR_END: matching-key
        print("Books from BookCo: \(try titles(fromBookCo))")
        // ANCHOR: book-192
        let book192 = try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 192, in: context)
        let book999 = try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 999, in: context)
        // ANCHOR_END: book-192
        print("The book with id 192: \(try book192.map { try titles([$0]) } ?? "none")")
        print("The book with id 999: \(try book999.map { try titles([$0]) } ?? "none (nil, not an error)")")
        // ANCHOR: too-many
        do {
            _ = try FetchUtilities.object(
                forEntityNamed: "Book", matchingKey: "publisher", value: "BookCo", in: context)
        } catch {
            print("\(error)")
        }
        // ANCHOR_END: too-many
        // ANCHOR: string-for-number
        let asText = try FetchUtilities.objects(forEntityNamed: "Book", matchingKey: "id", value: "192", in: context)
        // ANCHOR_END: string-for-number
        print("Matching id against the string \"192\" finds \(asText.count) books: a string never equals a number.")
    }

    static func runSQL(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: sql-fetches
        for format in [
            "age <= 21", "name ==[cd] 'bob'", "name BEGINSWITH 'B'", "name LIKE 'B?b'", "name IN {'Mary', 'Joe'}",
            "age BETWEEN {18, 21}",
        ] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: format)
            let names = try context.fetch(request).map { $0.value(forKey: "name") as? String ?? "?" }
            print("\(format)  → \(names.joined(separator: ", "))")
        }
        // ANCHOR_END: sql-fetches
    }
}
