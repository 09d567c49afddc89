import CoreData
import WorkbookSupport

enum Precedence {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        // ANCHOR: precedence
        let unbracketed = NSPredicate(
            format:
                "publisher.name == 'BookCo' OR salesRank < 1000 AND author == 'Ann Kay'")
        let bracketed = NSPredicate(
            format:
                "(publisher.name == 'BookCo' OR salesRank < 1000) AND author == 'Ann Kay'")
        // ANCHOR_END: precedence
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        for (label, predicate) in [("Without parentheses", unbracketed), ("With them", bracketed)] {
            request.predicate = predicate
            bench.print("\(label), the parser reads:")
            bench.print("  \(predicate.predicateFormat)")
            bench.print("  and finds \(try SampleData.list(context.fetch(request)))")
        }
        // ANCHOR: not-precedence
        let notFirst = NSPredicate(format: "NOT publisher.name == 'BookCo' AND salesRank < 1000")
        // ANCHOR_END: not-precedence
        request.predicate = notFirst
        bench.print("NOT binds tighter than AND:")
        bench.print("  \(notFirst.predicateFormat)")
        bench.print("  finds \(try SampleData.list(context.fetch(request)))")
    }
}
