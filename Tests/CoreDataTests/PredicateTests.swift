import CoreData
import Testing

/// NSPredicate and its subclasses' initializers, as Apple's code writes them.
@Suite struct PredicateTests {
    // https://developer.apple.com/documentation/foundation/nspredicate/1417186-init
    @Test("NSPredicate(format:) and evaluate(with:) need no try, as on a Mac")
    func formatAndEvaluate() {
        let p = NSPredicate(format: "name LIKE[c] %@ AND age < %@", "jo*", 21 as NSNumber)
        #expect(p.predicateFormat == #"name LIKE[c] "jo*" AND age < 21"#)
        #expect(p.evaluate(with: ["name": "Joey", "age": 20]))
        #expect(!p.evaluate(with: ["name": "Ann", "age": 20]))
    }

    // https://developer.apple.com/documentation/foundation/nscompoundpredicate
    @Test("NSCompoundPredicate's and NSComparisonPredicate's initializers make predicates a request takes")
    func subclassInitializers() throws {
        let adult = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "age"),
            rightExpression: NSExpression(forConstantValue: 18),
            modifier: .direct, type: .greaterThanOrEqualTo, options: [])
        let named = NSPredicate(format: "name BEGINSWITH %@", "A")
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [adult, named])
        #expect(both.predicateFormat == #"age >= 18 AND name BEGINSWITH "A""#)
        #expect(both.compoundPredicateType == .and && both.subpredicates.count == 2)
        let either = NSCompoundPredicate(orPredicateWithSubpredicates: [adult, named])
        let neither = NSCompoundPredicate(notPredicateWithSubpredicate: either)
        #expect(neither.evaluate(with: ["age": 10, "name": "Bob"]))
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = both
        #expect(request.predicate == both)
    }

    // https://developer.apple.com/documentation/foundation/nsexpression/1409875-expressionvalue
    @Test("NSExpression(format:) and expressionValue(with:context:) compute a value")
    func expressions() {
        let e = NSExpression(format: "price * %@", 2 as NSNumber)
        #expect(e.expressionValue(with: ["price": 21], context: nil) as? Int == 42)
        #expect(
            NSExpression(forFunction: "max:", arguments: [NSExpression(forKeyPath: "xs")])
                .expressionValue(with: ["xs": [3, 9, 4]], context: nil) as? Int == 9)
    }
}
