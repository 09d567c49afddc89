import Foundation
import Testing

@testable import ObjectGraph

// The parser on expressions: arithmetic, collection operators, indexes, functions, FUNCTION,
// CAST, SUBQUERY, TERNARY and assignment. reference/predicates.md section 1.10, following
// pBNF         https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pBNF.html
//   NSExpression https://developer.apple.com/documentation/foundation/nsexpression
// init(forFunction:arguments:)
// https://developer.apple.com/documentation/foundation/nsexpression/init(forfunction:arguments:)

private typealias E = ObjectGraph.Expression

private func key(_ path: String) -> E { .keyPath(path) }
private func int(_ i: Int) -> E { .constant(.int(i)) }

@Suite("Parser: arithmetic")
struct ParserArithmeticTests {
    // pBNF binary_expression: + - * / **, and "-" expression; each is the function Foundation
    // builds (add:to:, from:subtract:, multiply:by:, divide:by:, raise:toPower:).
    @Test(arguments: [
        ("a + b", E.function("add:to:", [key("a"), key("b")])),
        ("a - b", .function("from:subtract:", [key("a"), key("b")])),
        ("a * b", .function("multiply:by:", [key("a"), key("b")])),
        ("a / b", .function("divide:by:", [key("a"), key("b")])),
        ("a ** b", .function("raise:toPower:", [key("a"), key("b")])),
        ("-a", .function("from:subtract:", [int(0), key("a")])),
        // Precedence: ** over * / over + - (section 1.10, assumed); left-associative.
        (
            "4 + 5 - 2**3",
            .function(
                "from:subtract:",
                [.function("add:to:", [int(4), int(5)]), .function("raise:toPower:", [int(2), int(3)])])
        ),
        ("a + b * c", .function("add:to:", [key("a"), .function("multiply:by:", [key("b"), key("c")])])),
        ("(a + b) * c", .function("multiply:by:", [.function("add:to:", [key("a"), key("b")]), key("c")])),
        ("a - b - c", .function("from:subtract:", [.function("from:subtract:", [key("a"), key("b")]), key("c")])),
        // ** is right-associative [UNC], and binds its own unary minus.
        ("2 ** 3 ** 2", .function("raise:toPower:", [int(2), .function("raise:toPower:", [int(3), int(2)])])),
        ("-2 ** 2", .function("raise:toPower:", [int(-2), int(2)])),
        ("2 ** -1", .function("raise:toPower:", [int(2), int(-1)])),
        // Bitwise operators (section 1.10, OBS daydreamboy).
        ("1 << 3", .function("leftshift:by:", [int(1), int(3)])),
        ("8 >> 2", .function("rightshift:by:", [int(8), int(2)])),
        ("2 & 1", .function("bitwiseAnd:with:", [int(2), int(1)])),
        ("2 | 1", .function("bitwiseOr:with:", [int(2), int(1)])),
        ("2 ^ 1", .function("bitwiseXor:with:", [int(2), int(1)])), ("~a", .function("onesComplement:", [key("a")])),
    ])
    func arithmetic(format: String, expected: ObjectGraph.Expression) throws {
        #expect(try parsedExpression(format) == expected)
    }

    // Section 1.10: `4 + 5 - 2**3` evaluates to 1 (OBS NSHipster).
    @Test func evaluatesAsNSHipsterShows() throws {
        #expect(try parsedExpression("4 + 5 - 2**3").expressionValue(with: nil) as? Double == 1)
    }
}

@Suite("Parser: collection operators and indexes")
struct ParserIndexTests {
    // Section 1.4 and 2.14: @count, @sum, @avg, @min, @max as key path components.
    @Test(arguments: ["@count", "@sum", "@avg", "@min", "@max"])
    func collectionOperators(op: String) throws {
        #expect(try parsedExpression("items.\(op)") == key("items.\(op)"))
        #expect(try parsedExpression("items.\(op).value") == key("items.\(op).value"))
    }

    // pBNF index_expression: [integer], [FIRST], [LAST], [SIZE], and dictionary keys.
    @Test(arguments: [
        ("a[1]", E.index(key("a"), .expression(int(1)))), ("a[FIRST]", .index(key("a"), .first)),
        ("a[last]", .index(key("a"), .last)), ("a[SIZE]", .index(key("a"), .size)),
        ("d['k']", .index(key("d"), .expression(.constant(.string("k"))))),
        ("$a[$b]", .index(.variable("a"), .expression(.variable("b")))),
        ("a[#FIRST]", .index(key("a"), .expression(key("FIRST")))),
        ("a[1][2]", .index(.index(key("a"), .expression(int(1))), .expression(int(2)))),
        ("dict[4].key", .member(.index(key("dict"), .expression(int(4))), "key")),
    ])
    func indexes(format: String, expected: ObjectGraph.Expression) throws {
        #expect(try parsedExpression(format) == expected)
    }
}

@Suite("Parser: functions")
struct ParserFunctionTests {
    // init(forFunction:arguments:) lists the functions; in a format string they are written
    // with their selector, `sum:(...)`, or by name, `sum(...)` (section 1.10).
    @Test(arguments: [
        "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:", "sqrt:", "log:", "ln:", "exp:",
        "ceiling:", "abs:", "trunc:", "floor:", "uppercase:", "lowercase:", "length:", "randomn:", "noindex:",
    ])
    func oneArgument(selector: String) throws {
        #expect(try parsedExpression("\(selector)(a)") == .function(selector, [key("a")]))
        let name = String(selector.dropLast())
        let byName = try parsedExpression("\(name)(a)")
        #expect(byName == .function(selector, [key("a")]))
        #expect(try parsedExpression("\(name.uppercased())(a)") == byName)
    }

    // Two-argument functions with their full selectors.
    @Test(arguments: [
        "raise:toPower:", "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:",
        "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
    ])
    func twoArguments(selector: String) throws {
        #expect(try parsedExpression("\(selector)(a, 2)") == .function(selector, [key("a"), int(2)]))
    }

    // now() and random() take no argument.
    @Test func noArguments() throws {
        #expect(try parsedExpression("now()") == .function("now", []))
        #expect(try parsedExpression("random()") == .function("random", []))
        #expect(try parsedExpression("NOW()") == .function("now", []))
    }

    // pSyntax's example MAX(1, 5, 10): several bare arguments to a statistics function form
    // its one collection ([UNC] how Apple maps them).
    @Test func statisticsOverBareArguments() throws {
        #expect(
            try parsedExpression("MAX(1, 5, 10)")
                == .function("max:", [.constant(.array([.int(1), .int(5), .int(10)]))]))
        #expect(try parsedExpression("sum(a, 2)") == .function("sum:", [.aggregate([key("a"), int(2)])]))
        #expect(try parsedExpression("max(1, 5, 10)").expressionValue(with: nil) as? Int == 10)
    }

    // Section 1.10: `maki == lowercase('THEATRE')` parses on Apple (OBS mapbox).
    @Test func functionInComparison() throws {
        let c = try parsedComparison("maki == lowercase('THEATRE')")
        #expect(c?.rightExpression == .function("lowercase:", [.constant(.string("THEATRE"))]))
    }
}

@Suite("Parser: FUNCTION, CAST, SUBQUERY, TERNARY and assignment")
struct ParserSpecialFormTests {
    // NSExpression: FUNCTION(receiver, 'selectorName', arguments...).
    @Test func function() throws {
        #expect(
            try parsedExpression("FUNCTION(name, 'uppercaseString')")
                == .customFunction(receiver: key("name"), selector: "uppercaseString", arguments: []))
        #expect(
            try parsedExpression("function(a, \"pow:\", 3, b)")
                == .customFunction(receiver: key("a"), selector: "pow:", arguments: [int(3), key("b")]))
        #expect(
            try parsedExpression("FUNCTION(0x41414141, 'intValue')")
                == .customFunction(receiver: int(0x4141_4141), selector: "intValue", arguments: []))
    }

    // NSExpression CAST(value, 'Type'); CAST(<number>, "NSDate") is a date constant, since that
    // is how dates print (section 3.1 rule 5).
    @Test func cast() throws {
        #expect(
            try parsedExpression("CAST('5', 'NSNumber')")
                == .cast(.constant(.string("5")), .constant(.string("NSNumber"))))
        #expect(try parsedExpression("CAST(a, \"NSString\")") == .cast(key("a"), .constant(.string("NSString"))))
        #expect(
            try parsedExpression("CAST(-978250148.000000, \"NSDate\")")
                == .constant(.date(Date(timeIntervalSinceReferenceDate: -978_250_148))))
        #expect(try parsedExpression("CAST(a, 'NSDate')") == .cast(key("a"), .constant(.string("NSDate"))))
    }

    // pSyntax and NSExpression: SUBQUERY(collection, $x, predicate), usually with .@count.
    @Test func subquery() throws {
        let inner = ObjectGraph.Predicate.and([
            .comparison(
                ComparisonPredicate(.member(.variable("task"), "completionDate"), .notEqualTo, .constant(.null))),
            .comparison(ComparisonPredicate(.member(.variable("task"), "user"), .equalTo, .constant(.string("Alex")))),
        ])
        let e = try parsedExpression(
            "SUBQUERY(tasks, $task, $task.completionDate != nil AND $task.user = 'Alex').@count")
        #expect(e == .member(.subquery(collection: key("tasks"), variable: "task", predicate: inner), "@count"))
    }

    // NSExpression(forConditional:trueExpression:falseExpression:), written TERNARY [UNC].
    @Test func ternary() throws {
        let condition = ObjectGraph.Predicate.comparison(
            ComparisonPredicate(key("age"), .greaterThanOrEqualTo, int(18)))
        #expect(
            try parsedExpression("TERNARY(age >= 18, 'adult', 'minor')")
                == .conditional(condition, .constant(.string("adult")), .constant(.string("minor"))))
    }

    // pBNF assignment_expression: predicate_variable ":=" expression.
    @Test func assignment() throws {
        #expect(try parsedExpression("$x := a + 1") == .assignment("x", .function("add:to:", [key("a"), int(1)])))
        #expect(try parsedExpression("$x:=$y:=2") == .assignment("x", .assignment("y", int(2))))
    }
}
