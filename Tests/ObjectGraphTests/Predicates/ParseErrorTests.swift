import Foundation
import ObjectGraph
import Testing

// Parse errors, reference/predicates.md section 4. Apple raises NSInvalidArgumentException with
// the reason `Unable to parse the format string "<fmt>"` (pCreating, "Creating a Predicate
// Using a Format String":
// https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pCreating.html);
// the design keeps that prefix and adds the offset, the token, what was expected and a caret.

private let prefix = "Unable to parse the format string "

/// The message's lines: the explanation, the format string and the caret line.
private func lines(_ error: ObjectGraph.PredicateError?) -> [String] {
    error?.message.components(separatedBy: "\n") ?? []
}

@Suite("Parse errors: Apple's rejected inputs")
struct ParseErrorTests {
    // The inputs section 4 lists as rejected by Apple at parse time, with where our parser
    // stops and what it names.
    @Test(
        arguments: [
            // DOC pCreating: a dangling `*` after %@.
            ("SELF like[c] %@*", ["x"], 16, "found the end of the string, expected an expression"),
            // OBS zing-bright#26: an unescaped quote ends the string; the last one never closes.
            ("ssid == 'JR's Pad'", [], 17, "found a string that is never closed, expected a closing '"),
            // OBS realm QueryTests.m: an unknown operator.
            ("anyCol CONATINS 0", [], 7, "found 'CONATINS', expected a comparison operator"),
            // OBS rdar://17735684: a non-ASCII key must come through %K.
            ("étrange == 'ceci ne fonctionne pas'", [], 0, "found 'é', expected an ASCII key"),
            // OBS daydreamboy, Apple Developer Forums: a bare value is not a predicate.
            ("1", [], 1, "found the end of the string, expected a comparison operator"),
            ("0 || 1", [], 2, "found '||', expected a comparison operator"),
            ("TRUE", [], 4, "expected a comparison operator"), ("FALSE", [], 5, "expected a comparison operator"),
            ("YES", [], 3, "expected a comparison operator"),
            // OBS daydreamboy: %k is not %K.
            ("%k like %@", ["a", "b"], 0, "found '%k', expected a format specifier"),
            // Unfinished and misplaced pieces.
            ("a ==", [], 4, "found the end of the string, expected an expression"),
            ("a == 1 AND", [], 10, "expected an expression"),
            ("(a == 1", [], 7, "expected ')' to close the parenthesis"),
            ("a IN {1, 2", [], 10, "expected ',' or '}' in the array"),
            ("a == 1 b == 2", [], 7, "found 'b', expected AND, OR or the end"),
            ("a LIKE[x] 'b'", [], 7, "found 'x', expected option letters"),
            ("a == 0x", [], 5, "found '0x', expected a base-16 number"),
            ("a == 'b\\u12'", [], 7, "expected 4 base-16 digits"), ("", [], 0, "expected an expression"),
            ("SUBQUERY(a, b, a == 1) == 1", [], 12, "expected a $variable"),
            ("foo(1) == 1", [], 0, "found 'foo(', expected a built-in function"),
            ("sum:(1, 2) == 1", [], 0, "found 2 arguments to sum:, expected 1 argument"),
            ("a == #", [], 6, "expected a name after '#'"),
            ("a. == 1", [], 3, "found '==', expected a key after '.'"), ("a == ?", [], 5, "found '?'"),
            (
                "a == ANY", [], 5,
                "found 'ANY', expected an expression (ANY is a reserved word; write #ANY to use it as a key)"
            ),
        ] as [(String, [String], Int, String)])
    func rejected(format: String, arguments: [String], offset: Int, detail: String) {
        let error = parseError(format, arguments.map { $0 as Any? })
        let explanation = lines(error).first ?? ""
        #expect(error?.code == .unparseable)
        #expect(error?.offset == offset)
        #expect(explanation.hasPrefix("\(prefix)\"\(format)\": at offset \(offset), "), "\(explanation)")
        #expect(explanation.contains(detail), "\(explanation)")
    }

    // The message ends with the format string and a caret under the offending spot.
    @Test func caret() {
        let error = parseError("anyCol CONATINS 0")
        #expect(
            lines(error) == [
                "\(prefix)\"anyCol CONATINS 0\": at offset 7, found 'CONATINS', expected a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN or BETWEEN)",
                "    anyCol CONATINS 0",
                "           ^",
            ])
        // On a multi-line format string, the caret sits under the line that holds the spot.
        let multiline = parseError("a == 1\n AND b ==")
        #expect(lines(multiline).suffix(2) == ["     AND b ==", "             ^"])
        #expect(multiline?.offset == 16)
    }

    // Offsets count Unicode scalars, so a combining mark cannot hide a quote.
    @Test func offsetsCountScalars() {
        let error = parseError("n == 'e\u{301}' AND ?")
        #expect(error?.offset == 14)
    }
}

@Suite("Parse errors: arguments")
struct ArgumentErrorTests {
    // pCreating: each specifier takes one argument. Too few and too many are refused with
    // Apple's prefix, and the message counts them.
    @Test func tooFewArguments() {
        let error = parseError("a == %@ AND b == %@", 1)
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message
                == "\(prefix)\"a == %@ AND b == %@\": the specifier %@ at offset 17 needs argument 2, but only 1 was given"
        )
        #expect(error?.offset == 17)
    }

    @Test func tooManyArguments() {
        let error = parseError("a == %@", 1, 2)
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message
                == "\(prefix)\"a == %@\": 2 arguments given but the format uses 1; remove the 1 extra argument or add a specifier for each"
        )
        // pSyntax: quoting a specifier makes it text, so its argument is extra.
        #expect(
            parseError("name == '%@'", "x")?.message.hasPrefix(
                "\(prefix)\"name == '%@'\": 1 argument given but the format uses 0") == true)
    }

    // pSyntax: %K is "a key path", given as a string.
    @Test(arguments: [
        5 as any Sendable, 2.5 as any Sendable, ["a"] as any Sendable,
        Date(timeIntervalSinceReferenceDate: 0) as any Sendable,
    ])
    func keyPathArgumentMustBeAString(argument: any Sendable) {
        let error = parseError("%K == 1", argument)
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message.hasPrefix(
                "\(prefix)\"%K == 1\": argument 1 (for %K at offset 0) must be a string naming a key path, but it is ")
                == true)
    }

    @Test func keyPathArgumentNilOrEmpty() {
        #expect(
            parseError("%K == 1", nil)?.message.hasSuffix("must be a string naming a key path, but it is nil") == true)
        #expect(
            parseError("%K == 1", "")?.message
                == "\(prefix)\"%K == 1\": argument 1 (for %K at offset 0) is an empty key path")
    }

    // Section 1.5: printf conversions need numbers.
    @Test func numberConversionNeedsANumber() {
        let error = parseError("a == %d", "x")
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message
                == "\(prefix)\"a == %d\": argument 1 (for %d at offset 5) must be a number for %d, but it is String \"x\"; use %@ for other values"
        )
    }

    // pSyntax: "Use a %@ format specifier only to represent an expression ... If you attempt to
    // use a format specifier to represent an entire predicate, the system raises an exception"
    // (OBS trailer#165: `pullRequest == %@ and (not (%@))`).
    @Test func predicateAsArgument() {
        let format = "pullRequest == %@ and (not (%@))"
        let error = parseError(format, 1, ObjectGraph.Predicate(value: true))
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message.hasPrefix("\(prefix)\"\(format)\": argument 2 (for %@ at offset 28) is a predicate") == true)
    }
}

@Suite("Regular expressions that do not compile")
struct InvalidRegexTests {
    // Section 2.8: Apple parses `MATCHES '('` and raises when it evaluates, "Can't do regex
    // matching, reason: (Can't open pattern U_REGEX_RULE_SYNTAX ...)". Here it parses and the
    // evaluation throws .invalidPattern, never crashes.
    @Test(arguments: ["(", "[a-", "a{2,1}", "*", "(?<name", "\\"])
    func invalidPattern(pattern: String) throws {
        let p = try parsedPredicate("SELF MATCHES %@", pattern)
        #expect(p.predicateFormat.hasPrefix("SELF MATCHES \""))
        #expect {
            try p.checkedEvaluate(with: "abc")
        } throws: { error in
            let e = error as? ObjectGraph.PredicateError
            return e?.code == .invalidPattern && e?.message.hasPrefix("Can't do regex matching, reason: ") == true
        }
    }

    // Section 2.7: a LIKE pattern ending in one backslash raises "The backslash is a wildcard
    // char, and cannot appear unescaped at the end of a string."
    @Test func likeWithTrailingBackslash() throws {
        let p = try parsedPredicate("SELF LIKE %@", "abc\\")
        #expect(throws: ObjectGraph.PredicateError.self) { try p.checkedEvaluate(with: "abc") }
    }
}

@Suite("Parse errors: parts of Apple's grammar this port leaves out")
struct UnsupportedGrammarTests {
    // reference/predicates.md 1.2 and 1.10 list what the BNF leaves out. These have no meaning
    // on Linux or in Core Data fetches (UTIs, Objective-C selectors, Spotlight's ANYKEY, set
    // expressions, which "Core Data doesn't support") and are refused with a parse error.
    // FETCH is parsed: mapping models' source expressions are written with it.
    @Test(arguments: [
        ("a UTI-CONFORMS-TO 'public.image'", 2), ("a UTI-EQUALS 'public.image'", 2), ("self isKindOfClass: %@", 5),
        ("ANYKEY == 1", 0), ("a IN (b UNION c)", 8), ("a IN (b INTERSECT c)", 8), ("a IN (b MINUS c)", 8),
        ("a ==[w] 'x'", 5),
    ])
    func refused(format: String, offset: Int) {
        let error = format.contains("%@") ? parseError(format, 1) : parseError(format)
        #expect(error?.code == .unparseable)
        #expect(error?.offset == offset, "\(error?.message ?? "")")
    }
}

// Apple, NSEntityMapping.sourceExpression: Xcode writes `FETCH(FUNCTION($manager,
// "fetchRequestForSourceEntityNamed:predicateString:", "ToDo", "TRUEPREDICATE"),
// $manager.sourceContext, NO)`; the language keeps it as the function FETCH and prints it back.
@Suite struct FetchExpressionTests {
    @Test func aMappingsSourceExpressionRoundTrips() throws {
        let text =
            #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "ToDo", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
        let expression = try ObjectGraph.Expression(checkedFormat: text)
        guard case .function("FETCH", let arguments) = expression else {
            Issue.record("FETCH parsed as \(expression)")
            return
        }
        #expect(arguments.count == 3)
        #expect(try ObjectGraph.Expression(checkedFormat: expression.description) == expression)
    }

    @Test func fetchTakesThreeArguments() {
        #expect(throws: ObjectGraph.PredicateError.self) { try ObjectGraph.Expression(checkedFormat: "FETCH(a, b)") }
    }
}
