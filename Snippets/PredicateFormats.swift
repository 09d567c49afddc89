// Parsing, printing and evaluating format strings without any store, and the errors a
// malformed string, a missing argument or a missing variable give.
import ObjectGraph

// snippet.print
let p = try Predicate(checkedFormat: "name like[c] 'jo*' && (age < %@ || age > %d)", 21, 64)
print(p.predicateFormat)       // name LIKE[c] "jo*" AND (age < 21 OR age > 64)
print(try p.checkedEvaluate(with: ["name": "Joey", "age": 20]))   // true
print(try Predicate(checkedFormat: "%K IN %@", "tag", ["a", "b"]))  // tag IN {"a", "b"}
print(try Predicate(checkedFormat: "NONE children.age >= 18"))    // NOT ANY children.age >= 18
// snippet.end

// snippet.compound
let q = Predicate.and([try Predicate(checkedFormat: "age >= 18"), .not(try Predicate(checkedFormat: "name == nil"))])
print(q)                       // age >= 18 AND (NOT name == nil)
print(Predicate.or([]))        // FALSEPREDICATE
// snippet.end

// snippet.comparison
let byPrefix = Predicate.comparison(ComparisonPredicate(
    .keyPath("title"), .beginsWith, try .constant(value: "Fetch"), options: .caseInsensitive))
print(byPrefix)                // title BEGINSWITH[c] "Fetch"
// snippet.end

// snippet.expressions
print(try Expression(checkedFormat: "salary * %@", 1.1).expressionValue(with: ["salary": 1000]) ?? "nil")   // 1100.0
print(try Expression(checkedFormat: "(4 + 5) - 2 ** 3"))            // (4 + 5) - (2 ** 3)
print(try Expression(checkedFormat: "sum:(amounts)").expressionValue(with: ["amounts": [1, 2, 3]]) ?? "nil")   // 6
// snippet.end

// snippet.errors
for (format, arguments) in [("name BEGINSWITH", [] as [Any?]), ("name == %@", []), ("%k like %@", ["x"])] {
    do {
        _ = try Predicate(checkedFormat: format, argumentArray: arguments)
    } catch let error as PredicateError {
        print(error.code, "-", error)
    }
}
do {
    _ = try Predicate(checkedFormat: "age < $LIMIT").checkedEvaluate(with: ["age": 3])
} catch let error as PredicateError {
    print(error.code, "-", error)
}
do {
    _ = try Predicate(checkedFormat: "name MATCHES %@", "[a-").checkedEvaluate(with: ["name": "abc"])
} catch let error as PredicateError {
    print(error.code, "-", error)
}
// snippet.end
