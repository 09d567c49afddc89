import ObjectGraph
import WorkbookSupport

enum AndOrNot {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        let books = try SampleData.allBooks(in: context)
        bench.print("The store holds \(books.count) books:")
        for book in books { bench.print("  " + (try SampleData.describe(book: book))) }

        // ANCHOR: subpredicates
        let fromBookCo = try Predicate(format: "publisher.name == %@", "BookCo")
        let bestseller = try Predicate(format: "salesRank < %@", 10_000)
        // ANCHOR_END: subpredicates
        // ANCHOR: and-or-not
        let both = Predicate.and([fromBookCo, bestseller])     // andPredicateWithSubpredicates:
        let either = Predicate.or([fromBookCo, bestseller])    // orPredicateWithSubpredicates:
        let notBookCo = Predicate.not(fromBookCo)              // notPredicateWithSubpredicate:
        // ANCHOR_END: and-or-not
        for (name, predicate) in [("AND", both), ("OR", either), ("NOT", notBookCo)] {
            // ANCHOR: evaluate
            let matching = try books.filter { try predicate.evaluate(with: $0) }
            // ANCHOR_END: evaluate
            bench.print("")
            let label = name + ":" + String(repeating: " ", count: 5 - name.count)
            bench.print(label + predicate.predicateFormat)
            bench.print("      matches \(try SampleData.list(matching))")
        }

        // ANCHOR: init-type
        let same = Predicate.compound(try CompoundPredicate(type: .and, subpredicates: [fromBookCo, bestseller]))
        // ANCHOR_END: init-type
        bench.print("")
        bench.print("CompoundPredicate(type: .and, ...) prints \(same.predicateFormat)")
        bench.print("and is equal to Predicate.and([...]): \(same == both)")
    }
}
