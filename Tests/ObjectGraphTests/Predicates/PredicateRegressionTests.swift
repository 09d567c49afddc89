import Foundation
import ObjectGraph
import Testing

// Regressions found by the round-trip generator and the fuzzer (Fuzz/run.sh). Each printed
// text must parse back to an equal predicate and print the same again: reference/predicates.md
// section 3.1 (printing) and section 4 (never a crash).

private func reprinted(_ p: ObjectGraph.Predicate) throws -> (ObjectGraph.Predicate, String) {
    let q = try ObjectGraph.Predicate(checkedFormat: p.predicateFormat)
    return (q, q.predicateFormat)
}

@Suite("Regressions: round trips")
struct PredicateRegressionTests {
    // A string that starts with a combining mark printed as `"` + U+0301, which Swift reads as
    // one character that is not a quote: the lexer now reads Unicode scalars.
    @Test(arguments: ["\u{301}x", "\u{301}", "x\u{301}", "\u{20DD}", "\"\u{301}"])
    func combiningMarkAfterQuote(value: String) throws {
        let p = try parsedPredicate("name == %@", value)
        let (q, text) = try reprinted(p)
        #expect(q == p)
        #expect(text == p.predicateFormat)
        #expect(
            try parsedPredicate("name == '\\u0301x'")
                == .comparison(ComparisonPredicate(.keyPath("name"), .equalTo, .constant(.string("\u{301}x")))))
    }

    // A date with more than six decimals printed with %f lost them (CAST(0.123457, "NSDate")):
    // such a date now prints every digit; whole microseconds keep Apple's %f.
    @Test func datePrecision() throws {
        let date = Date(timeIntervalSinceReferenceDate: 0.1234567)
        let p = try parsedPredicate("d == %@", date)
        #expect(p.predicateFormat == "d == CAST(0.1234567, \"NSDate\")")
        #expect(try reprinted(p).0 == p)
        #expect(
            try parsedPredicate("d == %@", Date(timeIntervalSinceReferenceDate: 86400.5)).predicateFormat
                == "d == CAST(86400.500000, \"NSDate\")")
    }

    // A negative number or a one's complement before `.key` or `[index]` printed `-5.x`, which
    // reads as `-(5.x)`; it now keeps its parentheses.
    @Test func negativeAndComplementBases() throws {
        let negative = ObjectGraph.Predicate.comparison(
            ComparisonPredicate(.member(.constant(.int(-5)), "x"), .equalTo, .constant(.int(1))))
        #expect(negative.predicateFormat == "(-5).x == 1")
        #expect(try reprinted(negative).0 == negative)
        let complement = ObjectGraph.Predicate.comparison(
            ComparisonPredicate(
                .index(.function("onesComplement:", [.keyPath("a")]), .first), .equalTo, .constant(.int(1))))
        #expect(complement.predicateFormat == "(~a)[FIRST] == 1")
        #expect(try reprinted(complement).0 == complement)
    }

    // -0 printed "-0", which read back as the integer 0 and printed "0": -0 is now the double
    // -0.0 and prints "-0" every time.
    @Test func negativeZero() throws {
        let p = try parsedPredicate("a == -0")
        #expect(p.predicateFormat == "a == -0")
        #expect(try reprinted(p).1 == "a == -0")
        #expect(try parsedPredicate("a == %@", -0.0).predicateFormat == "a == -0")
    }

    // Int.min printed "-9223372036854775808", which read back as a double and printed
    // "-9.223372036854776e+18".
    @Test func smallestInteger() throws {
        let p = try parsedPredicate("a == %@", Int.min)
        #expect(p.predicateFormat == "a == -9223372036854775808")
        #expect(exactly(try literal("-9223372036854775808")) == "int(-9223372036854775808)")
        #expect(try reprinted(p).1 == p.predicateFormat)
        // Without the minus it is too big for an integer and stays a double.
        #expect(exactly(try literal("9223372036854775808")) == "double(9.223372036854776e+18)")
    }

    // Parse errors on text with a combining mark right after the opening quote of the message
    // still start with Apple's prefix, scalar by scalar.
    @Test func errorPrefixBeforeCombiningMark() {
        let error = parseError("\u{301} == 1")
        #expect(
            error?.message.unicodeScalars.starts(with: "Unable to parse the format string \"".unicodeScalars) == true)
        #expect(error?.offset == 0)
    }

    // 66 `!` parsed, but the print, `NOT (NOT (... S != enu))`, nests twice as deep in the text
    // and hit the parser's limit (found by Fuzz/run.sh). The limit now counts levels of the
    // tree, so whatever parses prints text that parses.
    @Test(arguments: [66, 98])
    func deepNotPrintsParseableText(count: Int) throws {
        let p = try parsedPredicate(String(repeating: "!", count: count) + "S<>enu")
        let (q, _) = try reprinted(p)
        #expect(q == p)
        #expect(p.predicateFormat.hasPrefix("NOT (NOT (NOT "))
    }

    // The same for the other shapes whose print adds parentheses: binary operands, `**`,
    // `~`, arrays, compounds, all at the deepest allowed level.
    @Test(arguments: [
        String(repeating: "~", count: 98) + "a == 1", "a == " + String(repeating: "1 ** ", count: 97) + "1",
        "a == " + String(repeating: "1 * 2 + ", count: 97) + "1",
        "a == " + String(repeating: "{", count: 98) + String(repeating: "}", count: 98),
        String(repeating: "(a == 1 AND ", count: 98) + "b == 1" + String(repeating: ")", count: 98),
        "a" + String(repeating: "[0]", count: 97) + " == 1",
        String(repeating: "NOT (a == 1 OR ", count: 49) + "b == 1" + String(repeating: ")", count: 49),
    ])
    func deepestTreesRoundTrip(format: String) throws {
        let p = try parsedPredicate(format)
        #expect(try reprinted(p).0 == p)
    }

    // One level more than the limit is refused with the parse error, whether the text nests or not.
    @Test(arguments: [
        String(repeating: "!", count: 100) + "a == 1", String(repeating: "~", count: 99) + "a == 1",
        "a == " + String(repeating: "{", count: 100) + String(repeating: "}", count: 100),
    ])
    func tooDeepIsAParseError(format: String) {
        let error = parseError(format)
        #expect(error?.code == .unparseable)
        #expect(error?.message.contains("nested more than 100 levels deep") == true)
    }

    // Found by Fuzz/run.sh as a 12-second timeout: a "(" may open a predicate or an expression,
    // and nested TERNARY( readings were tried both ways at every level. Each start is now
    // parsed once; the fuzzer's input and a longer one fail fast.
    @Test(arguments: [1, 8])
    func nestedAmbiguousParenthesesParseQuickly(repeats: Int) {
        let unit = "((( ((((( (((((((((\nTERNARY(\n\n(\n(((((\nTERNARY(\n\n((\nTERNARY(\n\n"
        let format = String(repeating: unit, count: repeats) + "(((((\nTERNAR"
        let started = Date()
        let error = parseError(format)
        #expect(error?.code == .unparseable)
        #expect(Date().timeIntervalSince(started) < 2)
    }

    // The same shape, well formed, parses.
    @Test func nestedTernaryInParentheses() throws {
        let p = try parsedPredicate("((TERNARY((TERNARY((a == 1), 1, 2) == 1), 3, 4))) == 3")
        #expect(p.predicateFormat == "TERNARY(TERNARY(a == 1, 1, 2) == 1, 3, 4) == 3")
    }
}
