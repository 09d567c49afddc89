import CoreData
import WorkbookSupport

// Every section starts from a new store holding the bookstore of `SampleData`. The listings
// print with `print`, as a reader's own code would; here that goes to the section's output.

enum AndOrNot {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)

        // ANCHOR: subpredicates
        let fromBookCo = NSPredicate(format: "publisher.name == %@", "BookCo")
        let bestseller = NSPredicate(format: "salesRank < %@", 10_000 as NSNumber)
        // ANCHOR_END: subpredicates
        // ANCHOR: and-or-not
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [fromBookCo, bestseller])
        let either = NSCompoundPredicate(orPredicateWithSubpredicates: [fromBookCo, bestseller])
        let notBookCo = NSCompoundPredicate(notPredicateWithSubpredicate: fromBookCo)
        // ANCHOR_END: and-or-not
        // ANCHOR: evaluate
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let books = try context.fetch(request)
        for predicate in [both, either, notBookCo] {
            let matching = books.filter { predicate.evaluate(with: $0) }
            let titles = matching.map { $0.value(forKey: "title") as? String ?? "?" }
            print(predicate.predicateFormat)
            print("  matches \(titles.joined(separator: ", "))")
        }
        // ANCHOR_END: evaluate

        // ANCHOR: init-type
        let same = NSCompoundPredicate(type: .and, subpredicates: [fromBookCo, bestseller])
        // ANCHOR_END: init-type
        print("")
        print("NSCompoundPredicate(type: .and, ...) prints \(same.predicateFormat)")
        print("and is equal to NSCompoundPredicate(andPredicateWithSubpredicates: [...]): \(same == both)")
    }
}
