import ObjectGraph
import WorkbookSupport

enum Nesting {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        let fromBookCo = try Predicate(checkedFormat: "publisher.name == %@", "BookCo")
        let bestseller = try Predicate(checkedFormat: "salesRank < %@", 10_000)
        // ANCHOR: nesting
        let byClarusOrAnn = Predicate.or([
            try Predicate(checkedFormat: "author == %@", "Clarus"),
            try Predicate(checkedFormat: "author == %@", "Ann Kay"),
        ])
        let nested = Predicate.and([fromBookCo, byClarusOrAnn])
        // ANCHOR_END: nesting
        let request = FetchRequest(entityName: "Book")
        request.predicate = nested
        bench.print("AND of a comparison and an OR:")
        bench.print("  \(nested.predicateFormat)")
        bench.print("  matches \(try SampleData.list(context.fetch(request)))")
        // ANCHOR: more-nesting
        let negated = Predicate.not(nested)
        let andInsideAnd = Predicate.and([Predicate.and([fromBookCo, bestseller]), byClarusOrAnn])
        let parsedChain = try Predicate(checkedFormat: "publisher.name == 'BookCo' AND salesRank < 10000 AND author == 'Ann Kay'")
        // ANCHOR_END: more-nesting
        bench.print("NOT of that compound:")
        bench.print("  \(negated.predicateFormat)")
        bench.print("An AND inside an AND keeps its parentheses:")
        bench.print("  \(andInsideAnd.predicateFormat)")
        if case .compound(let chain) = parsedChain {
            bench.print("A chain of ANDs in a format string is one compound of \(chain.subpredicates.count) subpredicates:")
        }
        bench.print("  \(parsedChain.predicateFormat)")
        // ANCHOR: redundant-parentheses
        let overBracketed = try Predicate(checkedFormat: "((publisher.name == 'BookCo')) AND ((salesRank < 10000))")
        // ANCHOR_END: redundant-parentheses
        bench.print("Parentheses you type are not kept; only the tree is printed:")
        bench.print("  \(overBracketed.predicateFormat)")
    }
}
