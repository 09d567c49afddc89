import Foundation
import ObjectGraph
import Testing

// Compound predicates, reference/predicates.md section 2.12.
// Pages: NSCompoundPredicate https://developer.apple.com/documentation/foundation/nscompoundpredicate
//        pSyntax "Basic Compound Predicates"
//          https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pSyntax.html
//        pUsing "Performance Considerations" (evaluation order)
//          https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pUsing.html

private typealias Predicate = ObjectGraph.Predicate
private typealias PredicateError = ObjectGraph.PredicateError

private func thrownError(_ body: () throws -> Void) -> PredicateError? {
    do {
        try body()
        return nil
    } catch let error as PredicateError { return error } catch { return nil }
}

/// A predicate whose evaluation throws (an invalid regular expression).
private func throwing() throws -> Predicate { try Predicate(checkedFormat: "SELF MATCHES '('") }

private func subpredicates(of p: Predicate) -> [Predicate]? {
    if case .compound(let c) = p { return c.subpredicates }
    return nil
}

/// Counts evaluations of block predicates.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func increment() {
        lock.lock()
        n += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return n
    }
}

@Suite("Compound predicates")
struct CompoundTests {
    // NSCompoundPredicate: "A compound predicate with one or more subpredicates evaluates to
    // the truth of its subpredicates."
    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func truthTable(a: Bool, b: Bool) throws {
        let pa = Predicate(value: a)
        let pb = Predicate(value: b)
        #expect(try Predicate.and([pa, pb]).checkedEvaluate(with: nil) == (a && b))
        #expect(try Predicate.or([pa, pb]).checkedEvaluate(with: nil) == (a || b))
        #expect(try Predicate.not(pa).checkedEvaluate(with: nil) == !a)
        // The same through the format language and its aliases.
        let x: [String: Any] = ["a": a, "b": b]
        #expect(try Predicate(checkedFormat: "a == YES AND b == YES").checkedEvaluate(with: x) == (a && b))
        #expect(try Predicate(checkedFormat: "a == YES && b == YES").checkedEvaluate(with: x) == (a && b))
        #expect(try Predicate(checkedFormat: "a == YES OR b == YES").checkedEvaluate(with: x) == (a || b))
        #expect(try Predicate(checkedFormat: "a == YES || b == YES").checkedEvaluate(with: x) == (a || b))
        #expect(try Predicate(checkedFormat: "NOT a == YES").checkedEvaluate(with: x) == !a)
        #expect(try Predicate(checkedFormat: "!(a == YES)").checkedEvaluate(with: x) == !a)
    }

    // NSCompoundPredicate: "An AND predicate with no subpredicates evaluates to true. An OR
    // predicate with no subpredicates evaluates to false." They print TRUEPREDICATE and
    // FALSEPREDICATE.
    @Test func emptyAndOr() throws {
        let and = Predicate.and([])
        let or = Predicate.or([])
        #expect(try and.checkedEvaluate(with: nil))
        #expect(try !or.checkedEvaluate(with: nil))
        #expect(and.predicateFormat == "TRUEPREDICATE")
        #expect(or.predicateFormat == "FALSEPREDICATE")
        #expect(try Predicate(checkedFormat: "TRUEPREDICATE").checkedEvaluate(with: nil))
        #expect(try !Predicate(checkedFormat: "FALSEPREDICATE").checkedEvaluate(with: nil))
    }

    // NSCompoundPredicate: one subpredicate evaluates (and prints) as that subpredicate.
    @Test(arguments: [("Ann", true), ("Bob", false)])
    func singleSubpredicate(name: String, expected: Bool) throws {
        let p = try Predicate(checkedFormat: "name == 'Ann'")
        #expect(Predicate.and([p]).predicateFormat == #"name == "Ann""#)
        #expect(Predicate.or([p]).predicateFormat == #"name == "Ann""#)
        #expect(try Predicate.and([p]).checkedEvaluate(with: ["name": name]) == expected)
        #expect(try Predicate.or([p]).checkedEvaluate(with: ["name": name]) == expected)
    }

    // pUsing, "Performance Considerations": subpredicates evaluate left to right and stop as
    // soon as the answer is known ("the regular expression is evaluated only if the first
    // clause is false"). The second operand here would throw.
    @Test func shortCircuit() throws {
        #expect(thrownError { _ = try throwing().checkedEvaluate(with: "x") }?.code == .invalidPattern)
        #expect(try !Predicate.and([.falsePredicate, throwing()]).checkedEvaluate(with: "x"))
        #expect(try Predicate.or([.truePredicate, throwing()]).checkedEvaluate(with: "x"))
        #expect(try !Predicate(checkedFormat: "SELF == 'y' AND SELF MATCHES '('").checkedEvaluate(with: "x"))
        #expect(try Predicate(checkedFormat: "SELF == 'x' OR SELF MATCHES '('").checkedEvaluate(with: "x"))
        // When the first operand does not decide, the second runs (and throws).
        #expect(
            thrownError { _ = try Predicate.and([.truePredicate, throwing()]).checkedEvaluate(with: "x") }?.code
                == .invalidPattern)
        #expect(
            thrownError { _ = try Predicate.or([.falsePredicate, throwing()]).checkedEvaluate(with: "x") }?.code
                == .invalidPattern)
    }

    // pUsing, "Performance Considerations": left to right, so later subpredicates are not even
    // called once the answer is known.
    @Test func evaluationOrderIsLeftToRight() throws {
        let counter = Counter()
        let counted = Predicate(block: { _, _ in
            counter.increment()
            return true
        })
        #expect(try !Predicate.and([.falsePredicate, counted, counted]).checkedEvaluate(with: nil))
        #expect(try Predicate.or([counted, counted]).checkedEvaluate(with: nil))
        #expect(counter.value == 1)
        #expect(try Predicate.and([counted, counted]).checkedEvaluate(with: nil))
        #expect(counter.value == 3)
    }

    // NSCompoundPredicate: "the NOT of a single predicate"; it prints `NOT <sub>`, a compound
    // sub in parentheses.
    @Test func not() throws {
        let name = try Predicate(checkedFormat: "name == 'Foo'")
        #expect(Predicate.not(name).predicateFormat == #"NOT name == "Foo""#)
        #expect(try Predicate.not(name).checkedEvaluate(with: ["name": "Bar"]))
        #expect(try !Predicate.not(name).checkedEvaluate(with: ["name": "Foo"]))
        let both = try Predicate(checkedFormat: "a == 1 AND b == 2")
        #expect(Predicate.not(both).predicateFormat == "NOT (a == 1 AND b == 2)")
        #expect(try Predicate.not(both).checkedEvaluate(with: ["a": 1, "b": 3]))
        // pSyntax "Basic Compound Predicates": NOT and !.
        #expect(try Predicate(checkedFormat: "NOT(1 < 0)").checkedEvaluate(with: nil))
        #expect(try Predicate(checkedFormat: "!(1 < 0)").checkedEvaluate(with: nil))
        #expect(try Predicate(checkedFormat: "NOT NOT 1 < 2").checkedEvaluate(with: nil))
    }

    // NSCompoundPredicate (Foundation and swift-corelibs-foundation): a NOT built with several
    // subpredicates looks only at the first; the rest are never evaluated.
    @Test(arguments: [(false, true), (true, false)])
    func notWithSeveralSubpredicatesUsesTheFirst(first: Bool, expected: Bool) throws {
        let p = Predicate.compound(
            try CompoundPredicate(
                type: .not, subpredicates: [Predicate(value: first), Predicate(value: !first), try throwing()]))
        #expect(try p.checkedEvaluate(with: "x") == expected)
    }

    // NSCompoundPredicate: "the NOT of a single predicate"; Foundation raises for an empty NOT,
    // here CompoundPredicate(type:subpredicates:) throws .invalidPredicate.
    @Test func emptyNotThrows() throws {
        let error = thrownError { _ = try CompoundPredicate(type: .not, subpredicates: []) }
        #expect(error?.code == .invalidPredicate)
        #expect(error?.message.contains("NOT") == true)
        #expect(throws: Never.self) { try CompoundPredicate(type: .and, subpredicates: []) }
    }

    // pSyntax "Basic Compound Predicates": a chain of one operator is one compound predicate
    // (Apple prints `A AND B AND C` without inner parentheses).
    @Test(arguments: [
        ("a == 1 AND b == 2 AND c == 3", CompoundPredicate.LogicalType.and, 3),
        ("a == 1 && b == 2 && c == 3 && d == 4", .and, 4),
        ("a == 1 OR b == 2 OR c == 3", .or, 3),
        ("(a == 1) || (b == 2) || (c == 3)", .or, 3),
    ])
    func chainsAreFlattened(format: String, type: CompoundPredicate.LogicalType, count: Int) throws {
        let p = try Predicate(checkedFormat: format)
        guard case .compound(let c) = p else {
            Issue.record("\(format) did not parse to a compound predicate")
            return
        }
        #expect(c.compoundPredicateType == type)
        #expect(c.subpredicates.count == count)
        #expect(!p.predicateFormat.contains("("))
    }

    // NSCompoundPredicate: compounds nest; a nested compound prints in parentheses.
    @Test func nestedCompounds() throws {
        let a = try Predicate(checkedFormat: "a == 1")
        let b = try Predicate(checkedFormat: "b == 2")
        let c = try Predicate(checkedFormat: "c == 3")
        let p = Predicate.and([.or([a, b]), c])
        #expect(p.predicateFormat == "(a == 1 OR b == 2) AND c == 3")
        #expect(subpredicates(of: p)?.count == 2)
        #expect(try p.checkedEvaluate(with: ["b": 2, "c": 3]))
        #expect(try !p.checkedEvaluate(with: ["a": 1, "c": 4]))
        #expect(Predicate.and([.and([a, b]), c]).predicateFormat == "(a == 1 AND b == 2) AND c == 3")
    }

    // pUsing, "Using Predicates": a compound predicate filters a collection in memory.
    @Test func filtering() throws {
        let people: [[String: Any]] = [
            ["name": "Ann", "age": 31], ["name": "Bob", "age": 17], ["name": "Alf", "age": 12],
            ["name": "Cy", "age": 40],
        ]
        let p = Predicate.and([
            try Predicate(checkedFormat: "name BEGINSWITH 'A'"), .not(try Predicate(checkedFormat: "age < 18")),
        ])
        let names = try people.filter { try p.checkedEvaluate(with: $0) }.compactMap { $0["name"] as? String }
        #expect(names == ["Ann"])
        let q = Predicate.or([try Predicate(checkedFormat: "age > 35"), try Predicate(checkedFormat: "name == 'Bob'")])
        #expect(
            try people.filter { try q.checkedEvaluate(with: $0) }.compactMap { $0["name"] as? String } == ["Bob", "Cy"])
    }
}
