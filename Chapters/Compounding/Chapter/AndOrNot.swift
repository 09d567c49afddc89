import ObjectGraph
import WorkbookSupport

// Every section starts from a new store holding the bookstore of `SampleData`. The listings
// print with `print`, as a reader's own code would; here that goes to the section's output.

enum AndOrNot {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)

        // ANCHOR: subpredicates
        let fromBookCo = try Predicate(checkedFormat: "publisher.name == %@", "BookCo")
        let bestseller = try Predicate(checkedFormat: "salesRank < %@", 10_000)
        // ANCHOR_END: subpredicates
        // ANCHOR: and-or-not
        let both = Predicate.and([fromBookCo, bestseller])     // andPredicateWithSubpredicates:
        let either = Predicate.or([fromBookCo, bestseller])    // orPredicateWithSubpredicates:
        let notBookCo = Predicate.not(fromBookCo)              // notPredicateWithSubpredicate:
        // ANCHOR_END: and-or-not
        // ANCHOR: evaluate
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "title")]
        let books = try context.fetch(request)
        for predicate in [both, either, notBookCo] {
            let matching = try books.filter { try predicate.checkedEvaluate(with: $0) }
            let titles = try matching.map { try $0.checkedValue(forKey: "title") as? String ?? "?" }
            print(predicate.predicateFormat)
            print("  matches \(titles.joined(separator: ", "))")
        }
        // ANCHOR_END: evaluate

        // ANCHOR: init-type
        let same = Predicate.compound(try CompoundPredicate(type: .and, subpredicates: [fromBookCo, bestseller]))
        // ANCHOR_END: init-type
        print("")
        print("CompoundPredicate(type: .and, ...) prints \(same.predicateFormat)")
        print("and is equal to Predicate.and([...]): \(same == both)")
    }
}
