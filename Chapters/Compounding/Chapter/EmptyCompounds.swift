import CoreData
import WorkbookSupport

enum EmptyCompounds {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        // ANCHOR: empty
        let nothingRequired = NSCompoundPredicate(andPredicateWithSubpredicates: [])
        let nothingAllowed = NSCompoundPredicate(orPredicateWithSubpredicates: [])
        // ANCHOR_END: empty
        bench.print(
            "An AND of nothing prints \(nothingRequired.predicateFormat) and evaluates to \(nothingRequired.evaluate(with: nil))."
        )
        bench.print(
            "An OR of nothing prints \(nothingAllowed.predicateFormat) and evaluates to \(nothingAllowed.evaluate(with: nil))."
        )
        // ANCHOR: empty-fetch
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = nothingRequired
        let everyBook = try context.count(for: request)
        request.predicate = nothingAllowed
        let noBook = try context.count(for: request)
        // ANCHOR_END: empty-fetch
        bench.print("Fetching books with the empty AND counts \(everyBook); with the empty OR, \(noBook).")
        // ANCHOR: single
        let alone = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "author == %@", "Clarus")])
        // ANCHOR_END: single
        bench.print("An AND of one subpredicate prints just that subpredicate: \(alone.predicateFormat)")
    }
}
