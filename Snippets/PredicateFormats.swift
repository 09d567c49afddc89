// Parsing, printing and evaluating format strings without any store, and the errors a
// malformed string, a missing argument or a missing variable give.
import CoreData

// ObjectGraph's PredicateError too: what the throwing twins (checkedFormat:, checkedEvaluate)
// throw, where Apple's NSPredicate raises an exception no Swift code can catch. (The one
// declaration, not the module, which would bring Foundation's NSPredicate beside CoreData's.)
import struct ObjectGraph.PredicateError

// snippet.print
let p = NSPredicate(format: "name like[c] 'jo*' && (age < %@ || age > %d)", 21 as NSNumber, 64)
print(p.predicateFormat) // name LIKE[c] "jo*" AND (age < 21 OR age > 64)
print(p.evaluate(with: ["name": "Joey", "age": 20])) // true
print(NSPredicate(format: "%K IN %@", "tag", ["a", "b"] as NSArray)) // tag IN {"a", "b"}
print(NSPredicate(format: "NONE children.age >= 18")) // NOT ANY children.age >= 18
// snippet.end

// snippet.compound
let q = NSCompoundPredicate(andPredicateWithSubpredicates: [
    NSPredicate(format: "age >= 18"),
    NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "name == nil")),
])
print(q) // age >= 18 AND (NOT name == nil)
print(NSCompoundPredicate(orPredicateWithSubpredicates: [])) // FALSEPREDICATE
// snippet.end

// snippet.comparison
let byPrefix = NSComparisonPredicate(
    leftExpression: NSExpression(forKeyPath: "title"), rightExpression: NSExpression(forConstantValue: "Fetch"),
    modifier: .direct, type: .beginsWith, options: .caseInsensitive)
print(byPrefix) // title BEGINSWITH[c] "Fetch"
// snippet.end

// snippet.expressions
print(
    // 1100.0
    NSExpression(format: "salary * %@", 1.1 as NSNumber).expressionValue(with: ["salary": 1000], context: nil) ?? "nil")
print(NSExpression(format: "(4 + 5) - 2 ** 3")) // (4 + 5) - (2 ** 3)
print(NSExpression(format: "sum:(amounts)").expressionValue(with: ["amounts": [1, 2, 3]], context: nil) ?? "nil") // 6
// snippet.end

// snippet.errors
// Format strings the program did not write itself: the throwing twins, where NSPredicate(format:)
// and evaluate(with:) would stop the program, as Apple's raise.
for (format, arguments) in [("name BEGINSWITH", [] as [Any?]), ("name == %@", []), ("%k like %@", ["x"])] {
    do {
        _ = try NSPredicate(checkedFormat: format, argumentArray: arguments)
    } catch let error as PredicateError {
        print(error.code, "-", error)
    }
}
do {
    _ = try NSPredicate(checkedFormat: "age < $LIMIT").checkedEvaluate(with: ["age": 3])
} catch let error as PredicateError {
    print(error.code, "-", error)
}
do {
    _ = try NSPredicate(checkedFormat: "name MATCHES %@", "[a-").checkedEvaluate(with: ["name": "abc"])
} catch let error as PredicateError {
    print(error.code, "-", error)
}
// snippet.end
