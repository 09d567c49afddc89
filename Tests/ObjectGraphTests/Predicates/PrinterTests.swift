import Foundation
import ObjectGraph
import Testing

// `predicateFormat`, rule by rule: reference/predicates.md section 3.1. Each expected string
// is an output observed from Apple's Foundation and cited there (section 3.2's table is not
// in our copy of the reference, so the examples quoted in 3.1 and 1.x are used), or, where
// marked, the rule applied to a new input. Sources named in the reference: objc.io Issue 4
// "Fetch Requests" (https://www.objc.io/issues/4-core-data/core-data-fetch-requests/),
// ABridoux/SafeFetching, oreillymedia/flapjack, daydreamboy/HelloProjects, PureSwift/Predicate,
// and Apple's pCreating page
// (https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pCreating.html).

private typealias Predicate = ObjectGraph.Predicate

private func printed(_ format: String, _ arguments: Any?...) throws -> String {
    try Predicate(checkedFormat: format, argumentArray: arguments).predicateFormat
}

@Suite("Printer: comparisons (rule 1)")
struct PrinterComparisonTests {
    // Rule 1: canonical operator spellings, single spaces, options right after the operator.
    @Test(arguments: [
        ("a = 1", "a == 1"), ("a=>1", "a >= 1"), ("a =< 1", "a <= 1"), ("a <> 1", "a != 1"), ("a>1", "a > 1"),
        ("a   <   1", "a < 1"), ("a between {1,2}", "a BETWEEN {1, 2}"), ("a in {1}", "a IN {1}"),
        ("a contains 'x'", "a CONTAINS \"x\""), ("a beginswith 'x'", "a BEGINSWITH \"x\""),
        ("a endsWith 'x'", "a ENDSWITH \"x\""),
        ("a like 'x'", "a LIKE \"x\""), ("a matches 'x'", "a MATCHES \"x\""),
        ("name like[cd] 'x'", "name LIKE[cd] \"x\""), ("text ==[c] 'x'", "text ==[c] \"x\""),
        ("a CONTAINS [dc] 'x'", "a CONTAINS[cd] \"x\""), ("a MATCHES[n] 'x'", "a MATCHES[n] \"x\""),
        // Options print in the order c, d, l, n (section 1.8).
        ("a >[nlc] 'x'", "a >[cln] \"x\""),
    ])
    func operators(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    // Rule 1: ANY and ALL prefix the comparison; SOME prints ANY; NONE prints NOT ANY.
    @Test(arguments: [
        ("ANY employees.firstName like 'Matthew'", "ANY employees.firstName LIKE \"Matthew\""),
        ("some a == 1", "ANY a == 1"), ("all a > 1", "ALL a > 1"), ("NONE a == 1", "NOT ANY a == 1"),
    ])
    func modifiers(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }
}

@Suite("Printer: constants (rules 2 to 6, 8)")
struct PrinterConstantTests {
    // Rule 2: strings always in double quotes, `\` and `"` escaped (OBS daydreamboy: single
    // quotes in, double quotes out).
    @Test(arguments: [
        ("name == 'Foo'", "name == \"Foo\""), ("name == \"Foo\"", "name == \"Foo\""),
        ("name == 'say \"hi\"'", "name == \"say \\\"hi\\\"\""), ("name == 'a\\\\b'", "name == \"a\\\\b\""),
        ("lastName LIKE '%@'", "lastName LIKE \"%@\""),
    ])
    func strings(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    // Rule 3: NSNumber's description: 42, 10.5, 1 for 1.0, full precision for doubles; BOOLs
    // as 1 and 0 (OBS SafeFetching: `score BETWEEN {1.0, 10.0}` prints `score BETWEEN {1, 10}`).
    @Test(arguments: [
        ("score BETWEEN {1.0, 10.0}", "score BETWEEN {1, 10}"), ("a == 42", "a == 42"), ("a == 10.5", "a == 10.5"),
        ("a == 13.39657778010461", "a == 13.39657778010461"), ("a == 0x10", "a == 16"), ("a == -5", "a == -5"),
        ("isMale == YES", "isMale == 1"), ("isMale == true", "isMale == 1"), ("b == NO", "b == 0"),
        ("b == FALSE", "b == 0"),
    ])
    func numbers(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    @Test func numberArguments() throws {
        #expect(try printed("a == %@ AND b == %@ AND c == %@", true, 2.5, 7) == "a == 1 AND b == 2.5 AND c == 7")
        // pyobjc's observation: `a == %d` with 99 prints `a == 99` (section 1.5).
        #expect(try printed("a == %d", 99) == "a == 99")
    }

    // Rule 4: nil prints `nil`, NSNull `<null>` (Apple's pCreating: `date = $DATE` with
    // {DATE: NSNull} prints `date == <null>`); PureSwift: `NOT name == nil`.
    @Test func nullValues() throws {
        #expect(try printed("name == NULL") == "name == nil")
        #expect(try printed("name == %@", nil) == "name == nil")
        #expect(
            try Predicate(checkedFormat: "date = $DATE").checkedWithSubstitutionVariables(["DATE": NSNull()])
                .predicateFormat == "date == <null>")
        #expect(try printed("NOT name == nil") == "NOT name == nil")
    }

    // Rule 5: dates as CAST(<seconds since 2001 with %f>, "NSDate") (OBS objc.io:
    // `CAST(-978250148.000000, "NSDate")`).
    @Test func dates() throws {
        let date = Date(timeIntervalSinceReferenceDate: -978_250_148)
        #expect(try printed("timestamp > %@", date) == "timestamp > CAST(-978250148.000000, \"NSDate\")")
        #expect(try printed("t == %@", Date(timeIntervalSinceReferenceDate: 0.5)) == "t == CAST(0.500000, \"NSDate\")")
    }

    // Rule 6: arrays as {a, b}, {} when empty, elements printed by the same rules (OBS
    // SafeFetching: `{ 1,2}` reprints `{1, 2}`; flapjack: `(%K IN %@)` prints
    // `keypath IN {"bob", "ed"}`).
    @Test func arrays() throws {
        #expect(try printed("a IN { 1,2}") == "a IN {1, 2}")
        #expect(try printed("(%K IN %@)", "keypath", ["bob", "ed"]) == "keypath IN {\"bob\", \"ed\"}")
        #expect(try printed("a IN {}") == "a IN {}")
        #expect(try printed("a IN %@", [Int]()) == "a IN {}")
        #expect(try printed("a IN {{1, 'x'}, {}}") == "a IN {{1, \"x\"}, {}}")
        #expect(try printed("a IN {b, $c, 1}") == "a IN {b, $c, 1}")
    }

    // Rule 8: %K prints the bare key path, %@ the value.
    @Test func substitutedArguments() throws {
        #expect(try printed("%K == %@", "name", "Joe") == "name == \"Joe\"")
        #expect(try printed("%K BEGINSWITH %@", "department.name", "R") == "department.name BEGINSWITH \"R\"")
    }
}

@Suite("Printer: key paths and expressions (rules 7, 9 to 13)")
struct PrinterExpressionTests {
    // Rule 7: key paths as written; `self` prints SELF (OBS flapjack); variables as $name;
    // reserved-word components with `#` ([DEC]: `%K == 1` with "size" prints `#size == 1`).
    @Test(arguments: [
        ("department.name == 1", "department.name == 1"), ("self == 1", "SELF == 1"),
        ("SELF.name == 1", "SELF.name == 1"),
        ("$VAR == 1", "$VAR == 1"), ("children.@count == 1", "children.@count == 1"), ("#size == 1", "#size == 1"),
        ("a.#first.b == 1", "a.#first.b == 1"),
    ])
    func keyPaths(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    @Test func reservedWordFromKeyPathArgument() throws {
        #expect(try printed("%K == 1", "size") == "#size == 1")
        #expect(try printed("%K == 1", "a.in.b") == "a.#in.b == 1")
    }

    // Rule 9: binary operators infix; an operand that is itself binary is parenthesised,
    // whatever the precedence ([DEC]; NSHipster's `4 + 5 - 2**3`).
    @Test(arguments: [
        ("4 + 5 - 2**3 == 1", "(4 + 5) - (2 ** 3) == 1"), ("a+b == c*d", "a + b == c * d"),
        ("a + b * c == 1", "a + (b * c) == 1"),
        ("a ** b ** c == 1", "a ** (b ** c) == 1"), ("1 << 3 == 8", "1 << 3 == 8"),
        ("2 & 1 | 4 == 0", "(2 & 1) | 4 == 0"),
        ("-a == 1", "0 - a == 1"), ("(a) + ((b)) == 1", "a + b == 1"),
    ])
    func arithmetic(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    // GNUstep's test "$single LIKE (\"b\\\"\" + $b) + $c" is consistent with rule 9 [ALT].
    @Test func gnustepExample() throws {
        #expect(try printed("$single LIKE (\"b\\\"\" + $b) + $c") == "$single LIKE (\"b\\\"\" + $b) + $c")
    }

    // Rule 10: indexes a[1], a[FIRST], a[LAST], a[SIZE]; one's complement ~x.
    @Test(arguments: [
        ("a[1] == 1", "a[1] == 1"), ("a[first] == 1", "a[FIRST] == 1"), ("a[Last] == 1", "a[LAST] == 1"),
        ("a[size] == 1", "a[SIZE] == 1"), ("~x == 1", "~x == 1"), ("(a + b)[0] == 1", "(a + b)[0] == 1"),
    ])
    func indexes(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    // Rule 11: built-in functions as selector(arguments) (OBS crash text
    // "Unsupported function expression count:(tracks.events)"): sum:(amount), now().
    @Test(arguments: [
        ("count:(tracks.events) > 0", "count:(tracks.events) > 0"), ("sum(amount) > 0", "sum:(amount) > 0"),
        ("date < now()", "date < now()"), ("raise:toPower:(2, 3) == 8", "2 ** 3 == 8"),
        ("modulus:by:(7, 2) == 1", "modulus:by:(7, 2) == 1"),
        ("maki == lowercase('THEATRE')", "maki == lowercase:(\"THEATRE\")"),
        ("MAX(1, 5, 10) == 10", "max:({1, 5, 10}) == 10"),
    ])
    func functions(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    // Rule 12: CAST(<arg>, <arg>).
    @Test func cast() throws {
        #expect(try printed("CAST('5', 'NSNumber') == 5") == "CAST(\"5\", \"NSNumber\") == 5")
    }

    // Rule 13: FUNCTION(<operand>, "<selector>"), and with arguments a space before the first
    // comma (OBS daydreamboy: `FUNCTION(a, "pow:" , 3) == 8`).
    @Test func functionQuirk() throws {
        #expect(try printed("FUNCTION(a, 'pow:', 3) == 8") == "FUNCTION(a, \"pow:\" , 3) == 8")
        #expect(
            try printed("FUNCTION(name, 'uppercaseString') == 'A'") == "FUNCTION(name, \"uppercaseString\") == \"A\"")
        #expect(try printed("FUNCTION(a, 'f:g:', 1, 2) == 8") == "FUNCTION(a, \"f:g:\" , 1, 2) == 8")
    }

    // SUBQUERY and TERNARY print their parts in order (section 1.10; TERNARY [UNC]).
    @Test func subqueryAndTernary() throws {
        #expect(
            try printed("SUBQUERY(tasks, $t, $t.done == YES AND $t.user = 'Alex').@count > 0")
                == "SUBQUERY(tasks, $t, $t.done == 1 AND $t.user == \"Alex\").@count > 0")
        #expect(
            try printed("TERNARY(age >= 18, 'adult', 'minor') == 'adult'")
                == "TERNARY(age >= 18, \"adult\", \"minor\") == \"adult\"")
    }
}

@Suite("Printer: compound predicates (rules 14 to 19)")
struct PrinterCompoundTests {
    private static let a = Predicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(.int(1))))
    private static let b = Predicate.comparison(ComparisonPredicate(.keyPath("b"), .equalTo, .constant(.int(2))))

    // Rule 14: joined by AND / OR; a compound subpredicate in parentheses, a comparison never
    // (OBS objc.io: a chain of four prints without inner parentheses).
    @Test(arguments: [
        ("a == 1 AND b == 2 AND c == 3 AND d == 4", "a == 1 AND b == 2 AND c == 3 AND d == 4"),
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("(a == 1 AND b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
        ("TRUEPREDICATE AND a == 1", "TRUEPREDICATE AND a == 1"),
        ("NOT a == 1 AND b == 2", "(NOT a == 1) AND b == 2"),
    ])
    func andOr(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    // Rule 19 with objc.io's fetch: parentheses of the input are not kept.
    @Test func inputParenthesesAreNotKept() throws {
        let format = "(%@ <= longitude) AND (longitude <= %@) AND (%@ <= latitude) AND (latitude <= %@)"
        #expect(
            try printed(format, 13.3, 13.39657778010461, 52.5, 52.6)
                == "13.3 <= longitude AND longitude <= 13.39657778010461 AND 52.5 <= latitude AND latitude <= 52.6")
    }

    // Rule 15: one subpredicate prints alone; AND of none TRUEPREDICATE, OR of none FALSEPREDICATE.
    @Test func degenerateCompounds() {
        #expect(Predicate.and([Self.a]).predicateFormat == "a == 1")
        #expect(Predicate.or([Self.a]).predicateFormat == "a == 1")
        #expect(Predicate.and([]).predicateFormat == "TRUEPREDICATE")
        #expect(Predicate.or([]).predicateFormat == "FALSEPREDICATE")
    }

    // Rule 16: NOT <sub>, parenthesised when the sub is compound (OBS SafeFetching
    // `NOT property BEGINSWITH "Desp"`, `NOT score BETWEEN {1, 10}`).
    @Test(arguments: [
        ("NOT property BEGINSWITH 'Desp'", "NOT property BEGINSWITH \"Desp\""),
        ("NOT score BETWEEN {1.0, 10.0}", "NOT score BETWEEN {1, 10}"), ("NOT name == 'Foo'", "NOT name == \"Foo\""),
        ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"), ("NOT NOT a == 1", "NOT (NOT a == 1)"),
        ("!TRUEPREDICATE", "NOT TRUEPREDICATE"),
    ])
    func not(format: String, expected: String) throws {
        #expect(try printed(format) == expected)
    }

    // Rule 17: a NOT of several subpredicates joins them with NOT ([DEC]; it does not parse back).
    @Test func notOfSeveral() throws {
        let p = Predicate.compound(
            try CompoundPredicate(type: .not, subpredicates: [Self.a, Self.b, .and([Self.a, Self.b])]))
        #expect(p.predicateFormat == "a == 1 NOT b == 2 NOT (a == 1 AND b == 2)")
    }

    // Rule 18: Predicate(value:) prints TRUEPREDICATE / FALSEPREDICATE; description is the same text.
    @Test func booleanPredicatesAndDescription() throws {
        #expect(Predicate(value: true).predicateFormat == "TRUEPREDICATE")
        #expect(Predicate(value: false).predicateFormat == "FALSEPREDICATE")
        let p = try Predicate(checkedFormat: "a == 1 OR b == 2")
        #expect(p.description == p.predicateFormat)
        #expect(Predicate { _, _ in true }.predicateFormat.hasPrefix("BLOCKPREDICATE("))
    }
}
