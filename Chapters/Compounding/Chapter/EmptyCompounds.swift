import ObjectGraph
import WorkbookSupport

enum EmptyCompounds {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        // ANCHOR: empty
        let nothingRequired = Predicate.and([])
        let nothingAllowed = Predicate.or([])
        // ANCHOR_END: empty
        bench.print("An AND of nothing prints \(nothingRequired.predicateFormat) and evaluates to \(try nothingRequired.checkedEvaluate(with: nil)).")
        bench.print("An OR of nothing prints \(nothingAllowed.predicateFormat) and evaluates to \(try nothingAllowed.checkedEvaluate(with: nil)).")
        // ANCHOR: empty-fetch
        let request = FetchRequest(entityName: "Book")
        request.predicate = nothingRequired
        let everyBook = try context.count(for: request)
        request.predicate = nothingAllowed
        let noBook = try context.count(for: request)
        // ANCHOR_END: empty-fetch
        bench.print("Fetching books with the empty AND counts \(everyBook); with the empty OR, \(noBook).")
        // ANCHOR: single
        let alone = Predicate.and([try Predicate(checkedFormat: "author == %@", "Clarus")])
        // ANCHOR_END: single
        bench.print("An AND of one subpredicate prints just that subpredicate: \(alone.predicateFormat)")
    }
}
