import CoreData
import WorkbookSupport

enum Nesting {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        let fromBookCo = NSPredicate(format: "publisher.name == %@", "BookCo")
        let bestseller = NSPredicate(format: "salesRank < %@", 10_000 as NSNumber)
        // ANCHOR: nesting
        let byClarusOrAnn = NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSPredicate(format: "author == %@", "Clarus"),
            NSPredicate(format: "author == %@", "Ann Kay"),
        ])
        let nested = NSCompoundPredicate(andPredicateWithSubpredicates: [fromBookCo, byClarusOrAnn])
        // ANCHOR_END: nesting
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = nested
        bench.print("AND of a comparison and an OR:")
        bench.print("  \(nested.predicateFormat)")
        bench.print("  matches \(try SampleData.list(context.fetch(request)))")
        // ANCHOR: more-nesting
        let negated = NSCompoundPredicate(notPredicateWithSubpredicate: nested)
        let andInsideAnd = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSCompoundPredicate(andPredicateWithSubpredicates: [fromBookCo, bestseller]), byClarusOrAnn,
        ])
        let parsedChain = NSPredicate(
            format: "publisher.name == 'BookCo' AND salesRank < 10000 AND author == 'Ann Kay'")
        // ANCHOR_END: more-nesting
        bench.print("NOT of that compound:")
        bench.print("  \(negated.predicateFormat)")
        bench.print("An AND inside an AND keeps its parentheses:")
        bench.print("  \(andInsideAnd.predicateFormat)")
        if parsedChain.compoundPredicateType == .and {
            bench.print(
                "A chain of ANDs in a format string is one compound of \(parsedChain.subpredicates.count) subpredicates:"
            )
        }
        bench.print("  \(parsedChain.predicateFormat)")
        // ANCHOR: redundant-parentheses
        let overBracketed = NSPredicate(format: "((publisher.name == 'BookCo')) AND ((salesRank < 10000))")
        // ANCHOR_END: redundant-parentheses
        bench.print("Parentheses you type are not kept; only the tree is printed:")
        bench.print("  \(overBracketed.predicateFormat)")
    }
}
