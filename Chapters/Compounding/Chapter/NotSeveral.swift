import CoreData
import ObjectGraph
import WorkbookSupport

enum NotSeveral {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        let fromBookCo = NSPredicate(format: "publisher.name == %@", "BookCo")
        let bestseller = NSPredicate(format: "salesRank < %@", 10_000 as NSNumber)
        // ANCHOR: not-several
        let notEither = NSCompoundPredicate(type: .not, subpredicates: [fromBookCo, bestseller])
        // ANCHOR_END: not-several
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = notEither
        bench.print("NOT given two subpredicates prints: \(notEither.predicateFormat)")
        bench.print("  and matches \(try SampleData.list(context.fetch(request)))")
        request.predicate = NSCompoundPredicate(notPredicateWithSubpredicate: fromBookCo)
        bench.print("NOT of the first alone matches \(try SampleData.list(context.fetch(request)))")
        // ANCHOR: none-of
        let neither = NSCompoundPredicate(
            notPredicateWithSubpredicate:
                NSCompoundPredicate(orPredicateWithSubpredicates: [fromBookCo, bestseller]))
        // ANCHOR_END: none-of
        request.predicate = neither
        bench.print("What was meant, NOT of an OR: \(neither.predicateFormat)")
        bench.print("  matches \(try SampleData.list(context.fetch(request)))")
        // ANCHOR: not-round-trip
        do {
            _ = try NSPredicate(checkedFormat: notEither.predicateFormat)
        } catch {
            print("Parsing the printed NOT back: \(error)")
        }
        // ANCHOR_END: not-round-trip
        // ANCHOR: not-empty
        do {
            _ = try ObjectGraph.CompoundPredicate(type: .not, subpredicates: [])
        } catch {
            print("A NOT of nothing: \(error)")
        }
        // ANCHOR_END: not-empty
    }
}
