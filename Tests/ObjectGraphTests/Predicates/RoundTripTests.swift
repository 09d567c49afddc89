import Foundation
import Testing

@testable import ObjectGraph

// Parsing what `predicateFormat` prints gives an equal predicate: reference/predicates.md
// section 3.1 (the printed form is Apple's canonical text, which Apple's own parser reads;
// rule 19: grouping is re-derived from the tree), over thousands of generated predicates.

@Suite("Round trip: parse(predicateFormat) == predicate")
struct RoundTripTests {
    /// Checks one predicate and says what went wrong, or nil.
    static func roundTripFailure(_ predicate: ObjectGraph.Predicate) -> String? {
        let printed = predicate.predicateFormat
        do {
            let reparsed = try ObjectGraph.Predicate(checkedFormat: printed)
            if reparsed != predicate {
                return "differs after reparsing: \(printed)\n  tree:     \(predicate)\n  reparsed: \(reparsed)"
            }
            if reparsed.predicateFormat != printed {
                return "prints differently the second time: \(printed) / \(reparsed.predicateFormat)"
            }
            return nil
        } catch {
            return "does not parse: \(printed)\n  \(error)"
        }
    }

    // 4 seeds x 1000 generated trees: comparisons with every operator, option and modifier,
    // nested AND/OR/NOT, and expressions of every kind (section 1.10).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func generatedPredicates(seed: UInt64) {
        var generator = PredicateASTGenerator(seed: seed)
        var failures: [String] = []
        for _ in 0..<1000 {
            let p = generator.predicate()
            if let failure = Self.roundTripFailure(p) { failures.append(failure) }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    // The same for standalone expressions (NSExpression(format:) and description).
    @Test func generatedExpressions() throws {
        var generator = PredicateASTGenerator(seed: 99)
        var failures: [String] = []
        for _ in 0..<1000 {
            let e = generator.expression(depth: 3)
            let printed = e.description
            do {
                let reparsed = try ObjectGraph.Expression(checkedFormat: printed)
                if reparsed != e { failures.append("differs: \(printed)") }
            } catch {
                failures.append("does not parse: \(printed): \(error)")
            }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    // Format strings written by hand, in every spelling, reach a fixed point after one print.
    @Test(arguments: [
        "name like[c] 'jo*' and age =< 21", "NONE tags == 'x' || !(a <> 1)", "a => 1 && b =< 2 && c = 3",
        "SUBQUERY(kids, $k, $k.age > 3 or $k.name beginswith 'A').@count == 0",
        "FUNCTION(a, 'pow:', 3) == 8", "TERNARY(a == 1, 'x', 'y') IN {'x', \"y\"}", "-a.b[FIRST] ** -2 == 0x10",
        "CAST('1', 'NSNumber') BETWEEN {0.5, 1.5e0}", "$x := 2 == $x AND $a.$b == 'ABC'",
        "~(1 | 2 ^ 3 & 4 << 1 >> 1) < 0",
    ])
    func handWritten(format: String) throws {
        let p = try ObjectGraph.Predicate(checkedFormat: format)
        #expect(Self.roundTripFailure(p) == nil)
    }
}
