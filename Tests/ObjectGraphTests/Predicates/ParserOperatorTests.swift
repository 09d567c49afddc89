import Foundation
import ObjectGraph
import Testing

// The parser on comparison operators, options, aggregate qualifiers and compound predicates:
// reference/predicates.md sections 1.7 to 1.9, which follow
//   pSyntax https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pSyntax.html
//   pBNF    https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pBNF.html
//   Options https://developer.apple.com/documentation/foundation/nscomparisonpredicate/options-swift.struct

private typealias Predicate = ObjectGraph.Predicate

@Suite("Parser: comparison operators and options")
struct ParserComparisonTests {
    // pSyntax "Basic Comparisons" and "String Comparisons": every spelling, and its operator.
    @Test(arguments: [
        ("=", ComparisonPredicate.Operator.equalTo), ("==", .equalTo), (">=", .greaterThanOrEqualTo),
        ("=>", .greaterThanOrEqualTo),
        ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo), (">", .greaterThan), ("<", .lessThan),
        ("!=", .notEqualTo),
        ("<>", .notEqualTo), ("BETWEEN", .between), ("IN", .in), ("CONTAINS", .contains), ("BEGINSWITH", .beginsWith),
        ("ENDSWITH", .endsWith), ("LIKE", .like), ("MATCHES", .matches), ("between", .between), ("in", .in),
        ("contains", .contains), ("beginsWith", .beginsWith), ("endswith", .endsWith), ("like", .like),
        ("Matches", .matches),
    ])
    func spellings(spelling: String, expected: ComparisonPredicate.Operator) throws {
        let c = try parsedComparison("a \(spelling) b")
        #expect(c == ComparisonPredicate(.keyPath("a"), expected, .keyPath("b")))
        // Without spaces where the spelling is punctuation.
        if !spelling.first!.isLetter {
            #expect(try parsedComparison("a\(spelling)1")?.operatorType == expected)
        }
    }

    // Options page and pSyntax "String Comparisons": [c], [d], [cd], [n] (and [l]) after the
    // operator, for LIKE, the string operators and the equality/ordering operators.
    @Test(arguments: [
        ("[c]", ComparisonPredicate.Options.caseInsensitive), ("[d]", .diacriticInsensitive),
        ("[cd]", ComparisonPredicate.Options([.caseInsensitive, .diacriticInsensitive])),
        ("[dc]", ComparisonPredicate.Options([.caseInsensitive, .diacriticInsensitive])),
        ("[n]", .normalized), ("[l]", .localeSensitive),
        ("[CD]", ComparisonPredicate.Options([.caseInsensitive, .diacriticInsensitive])),
        ("[cdn]", ComparisonPredicate.Options([.caseInsensitive, .diacriticInsensitive, .normalized])),
    ])
    func options(brackets: String, expected: ComparisonPredicate.Options) throws {
        for op in ["LIKE", "BEGINSWITH", "ENDSWITH", "CONTAINS", "MATCHES", "IN", "==", "!=", "<", ">=", "=<"] {
            let c = try parsedComparison("a \(op)\(brackets) 'x'")
            #expect(c?.options == expected, "\(op)\(brackets)")
            #expect(try parsedComparison("a \(op) \(brackets) 'x'")?.options == expected)
        }
    }

    // pSyntax "Aggregate Operations": ANY and SOME, ALL; NONE is "logically equivalent to
    // NOT (ANY ...)" and parses to exactly that.
    @Test func aggregateQualifiers() throws {
        let any = ComparisonPredicate(.keyPath("kids.age"), .greaterThan, .constant(.int(12)), modifier: .any)
        #expect(try parsedPredicate("ANY kids.age > 12") == .comparison(any))
        #expect(try parsedPredicate("some kids.age > 12") == .comparison(any))
        let all = ComparisonPredicate(.keyPath("kids.age"), .greaterThan, .constant(.int(12)), modifier: .all)
        #expect(try parsedPredicate("ALL kids.age > 12") == .comparison(all))
        #expect(try parsedPredicate("NONE kids.age > 12") == .not(.comparison(any)))
        #expect(try parsedPredicate("ANY tags LIKE[cd] 'x*'").predicateFormat == "ANY tags LIKE[cd] \"x*\"")
    }
}

@Suite("Parser: compound predicates")
struct ParserCompoundTests {
    private static let a = Predicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(.int(1))))
    private static let b = Predicate.comparison(ComparisonPredicate(.keyPath("b"), .equalTo, .constant(.int(2))))
    private static let c = Predicate.comparison(ComparisonPredicate(.keyPath("c"), .equalTo, .constant(.int(3))))

    // pSyntax "Basic Compound Predicates": AND/&&, OR/||, NOT/!; keywords in any case.
    @Test(arguments: [
        ("a == 1 AND b == 2", Predicate.and([a, b])), ("a == 1 && b == 2", .and([a, b])),
        ("a == 1 and b == 2", .and([a, b])),
        ("a == 1 OR b == 2", .or([a, b])), ("a == 1 || b == 2", .or([a, b])), ("a == 1 Or b == 2", .or([a, b])),
        ("NOT a == 1", .not(a)), ("!a == 1", .not(a)), ("not (a == 1)", .not(a)), ("!(a == 1)", .not(a)),
        ("NOT NOT a == 1", .not(.not(a))),
        // A chain of one operator is one compound predicate (section 1.9, OBS objc.io).
        ("a == 1 AND b == 2 AND c == 3", .and([a, b, c])), ("a == 1 || b == 2 OR c == 3", .or([a, b, c])),
        // NOT binds tightest, then AND, then OR (section 1.9, [UNC] precedence).
        ("a == 1 OR b == 2 AND c == 3", .or([a, .and([b, c])])),
        ("a == 1 AND b == 2 OR c == 3", .or([.and([a, b]), c])),
        ("NOT a == 1 AND b == 2", .and([.not(a), b])), ("NOT (a == 1 AND b == 2)", .not(.and([a, b]))),
        // Parentheses group; an explicitly parenthesised group stays a group ([UNC] in 1.9).
        ("(a == 1 OR b == 2) AND c == 3", .and([.or([a, b]), c])),
        ("(a == 1 AND b == 2) AND c == 3", .and([.and([a, b]), c])),
        ("((a == 1))", a),
    ])
    func compounds(format: String, expected: ObjectGraph.Predicate) throws {
        #expect(try parsedPredicate(format) == expected)
    }

    // pSyntax "Boolean Value Predicates": TRUEPREDICATE and FALSEPREDICATE.
    @Test func booleanPredicates() throws {
        #expect(try parsedPredicate("TRUEPREDICATE") == .truePredicate)
        #expect(try parsedPredicate("falsepredicate") == .falsePredicate)
        #expect(
            try parsedPredicate("TRUEPREDICATE AND NOT FALSEPREDICATE")
                == .and([.truePredicate, .not(.falsePredicate)]))
    }

    // pBNF: "(" NSPredicate ")"; a parenthesis can also open an expression, `(a + b) > 3`.
    @Test func parenthesesOpenPredicatesOrExpressions() throws {
        #expect(try parsedPredicate("(a + 1) * 2 > 3").predicateFormat == "(a + 1) * 2 > 3")
        #expect(try parsedPredicate("((a)) == 1") == Self.a)
        #expect(try parsedPredicate("(a == 1) AND ((b) == 2)") == .and([Self.a, Self.b]))
        #expect(try parsedPredicate("NOT (a - 1) == 0").predicateFormat == "NOT a - 1 == 0")
    }
}
