import Foundation
import ObjectGraph
import Testing

// The parser on literals, key paths, format specifiers and variables: reference/predicates.md
// sections 1.1 to 1.6, which follow Apple's pages
// pSyntax   https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pSyntax.html
//   pBNF      https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pBNF.html
// pCreating
// https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pCreating.html

@Suite("Parser: string literals")
struct ParserStringTests {
    // pSyntax "Literals": "Single and double quotes produce the same result, but they do not
    // terminate each other."
    @Test(arguments: [
        ("'abc'", "abc"), ("\"abc\"", "abc"), ("\"a'b'c\"", "a'b'c"), ("'a\"b\"c'", "a\"b\"c"),
        ("''", ""), ("\"\"", ""), ("'  spaced  '", "  spaced  "), ("'Zoë 日本 😀'", "Zoë 日本 😀"),
    ])
    func quotes(text: String, value: String) throws {
        #expect(try literal(text) == .constant(.string(value)))
    }

    // pSyntax, escapes listed under "Identifiers": \ with 3 octal digits, \x or \X with 2 hex
    // digits, \u or \U with 4 hex digits; section 1.3: `\\` is one backslash (pUsing's MATCHES
    // example), and `\n`, `\t`, `\r`, `\"`, `\'` are read C-style [UNC, our choice].
    @Test(arguments: [
        ("'\\101'", "A"), ("'\\x41'", "A"), ("'\\X4a'", "J"), ("'\\u00e9'", "é"), ("'\\U00C9'", "É"),
        ("'a\\\\b'", "a\\b"), ("'\\\\d{10}|\\\\d{9}[Xx]'", "\\d{10}|\\d{9}[Xx]"),
        ("'tab\\there'", "tab\there"), ("'line\\nbreak'", "line\nbreak"), ("'cr\\r'", "cr\r"),
        ("'it\\'s'", "it's"), ("\"say \\\"hi\\\"\"", "say \"hi\""),
        // An escape the language does not know keeps its backslash, so '\d+' reaches MATCHES.
        ("'\\d+'", "\\d+"), ("'\\w'", "\\w"),
    ])
    func escapes(text: String, value: String) throws {
        #expect(try literal(text) == .constant(.string(value)))
    }

    // pSyntax: quoting a specifier or a variable makes it literal text.
    @Test(arguments: ["'%@'", "\"%K\"", "'$VAR'", "'%d'", "'%%'"])
    func quotesStopSubstitution(text: String) throws {
        let expected = String(text.dropFirst().dropLast())
        #expect(try literal(text) == .constant(.string(expected)))
    }
}

@Suite("Parser: numbers")
struct ParserNumberTests {
    // pSyntax "Literals": integers, fixed point, exponents, 0x hexadecimal, 0o octal, 0b binary.
    // Section 1.3: an integer literal is an integer NSNumber, one with '.' or an exponent a double.
    @Test(arguments: [
        ("0", "int(0)"), ("1", "int(1)"), ("27", "int(27)"), ("2.71828", "double(2.71828)"), ("19.75", "double(19.75)"),
        ("9.2e-5", "double(9.2e-05)"), ("1e3", "double(1000.0)"), ("1E+2", "double(100.0)"), ("2.5e0", "double(2.5)"),
        ("0x1F", "int(31)"), ("0XfF", "int(255)"), ("0o17", "int(15)"), ("0O7", "int(7)"), ("0b101", "int(5)"),
        ("0B1", "int(1)"),
        ("9223372036854775807", "int(9223372036854775807)"), ("18446744073709551616", "double(1.8446744073709552e+19)"),
    ])
    func literals(text: String, kind: String) throws {
        #expect(exactly(try literal(text)) == kind)
    }

    // Section 1.3, negative literals (`self.speed <= -5`, OBS WinObjC): unary minus on a number
    // literal gives a negative constant.
    @Test(arguments: [
        ("-5", "int(-5)"), ("-2.5", "double(-2.5)"), ("- 7", "int(-7)"), ("--3", "int(3)"), ("-0x10", "int(-16)"),
    ])
    func negative(text: String, kind: String) throws {
        #expect(exactly(try literal(text)) == kind)
    }
}

@Suite("Parser: keywords, arrays and key paths")
struct ParserKeywordTests {
    // pSyntax "Literals": FALSE, NO; TRUE, YES; NULL, NIL; SELF. pSyntax: "case insensitive with
    // respect to keywords".
    @Test(arguments: [
        ("TRUE", ObjectGraph.Expression.constant(.bool(true))), ("true", .constant(.bool(true))),
        ("YES", .constant(.bool(true))),
        ("yes", .constant(.bool(true))), ("FALSE", .constant(.bool(false))), ("No", .constant(.bool(false))),
        ("NULL", .constant(.null)), ("nil", .constant(.null)), ("NIL", .constant(.null)),
        ("SELF", .evaluatedObject), ("self", .evaluatedObject),
    ])
    func keywords(text: String, expected: ObjectGraph.Expression) throws {
        #expect(try literal(text) == expected)
        #expect(exactly(try literal(text)) == exactly(expected))
    }

    // pSyntax "Literals": `{ 'comma', 'separated', 'literal', 'array' }`. An aggregate of
    // constants is a constant array; one with other expressions stays an aggregate.
    @Test func arrays() throws {
        #expect(try literal("{}") == .constant(.array([])))
        #expect(try literal("{ 'a', \"b\" }") == .constant(.array([.string("a"), .string("b")])))
        #expect(try literal("{1, {2, 3}}") == .constant(.array([.int(1), .array([.int(2), .int(3)])])))
        #expect(try literal("{1, a, $v}") == .aggregate([.constant(.int(1)), .keyPath("a"), .variable("v")]))
    }

    // pSyntax "Identifiers": C-style identifiers, dotted key paths, `@` collection operators.
    @Test(arguments: [
        ("name", "name"), ("department.name", "department.name"), ("a.firstName.length", "a.firstName.length"),
        ("_private1", "_private1"), ("children.@count", "children.@count"), ("@sum.items.price", "@sum.items.price"),
        ("expenses.@avg.doubleValue", "expenses.@avg.doubleValue"),
    ])
    func keyPaths(text: String, path: String) throws {
        #expect(try parsedComparison(text + " == 1")?.leftExpression == .keyPath(path))
    }

    // pSyntax "Identifiers": "#symbol: Used to escape a reserved word into a user identifier";
    // section 1.4 lists the reserved words.
    @Test(arguments: [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST",
        "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "size", "self",
    ])
    func escapedReservedWords(word: String) throws {
        let c = try parsedComparison("#\(word) == 1")
        #expect(c?.leftExpression == .keyPath(word))
        #expect(try parsedComparison("a.#\(word) == 1")?.leftExpression == .keyPath("a.\(word)"))
        // And it prints with the `#` again (section 3.1 rule 7).
        #expect(c.map { ObjectGraph.Predicate.comparison($0).predicateFormat } == "#\(word) == 1")
    }

    // SELF followed by a key, and expressions followed by keys (pBNF: expression "." expression).
    @Test func memberAccess() throws {
        #expect(try parsedComparison("SELF.name == 1")?.leftExpression == .member(.evaluatedObject, "name"))
        #expect(try parsedComparison("$x.age.years == 1")?.leftExpression == .member(.variable("x"), "age.years"))
        #expect(try parsedComparison("(a).b == 1")?.leftExpression == .keyPath("a.b"))
        #expect(
            try parsedComparison("'abc'.length == 3")?.leftExpression == .member(.constant(.string("abc")), "length"))
        #expect(try parsedComparison("$a.$b == 1")?.leftExpression == .member(.variable("a"), "$b"))
    }
}

@Suite("Parser: format specifiers and variables")
struct ParserSpecifierTests {
    // pSyntax "Format String Summary": %@ is an object value, %K a key path.
    @Test func objectAndKeyPath() throws {
        let c = try parsedComparison("%K == %@", "name", "Joe")
        #expect(c?.leftExpression == .keyPath("name"))
        #expect(c?.rightExpression == .constant(.string("Joe")))
        #expect(try parsedComparison("%K == 1", "Record1.Name")?.leftExpression == .keyPath("Record1.Name"))
        #expect(try parsedComparison("a.%K == 1", "b")?.leftExpression == .keyPath("a.b"))
        #expect(try literal("%@", [1, "x"]) == .constant(.array([.int(1), .string("x")])))
        #expect(try literal("%@", nil) == .constant(.null))
        #expect(
            try literal("%@", Date(timeIntervalSinceReferenceDate: 5))
                == .constant(.date(Date(timeIntervalSinceReferenceDate: 5))))
    }

    // Section 1.5: printf-style conversions become number constants (`a == %d` with 99 prints
    // `a == 99`, OBS pyobjc); %d truncates a double, %f makes a double of an integer.
    @Test(arguments: [
        ("%d", 99 as any Sendable, "int(99)"), ("%i", 7 as any Sendable, "int(7)"),
        ("%ld", 123_456_789_012 as any Sendable, "int(123456789012)"),
        ("%u", 3 as any Sendable, "int(3)"), ("%d", 2.9 as any Sendable, "int(2)"),
        ("%d", true as any Sendable, "int(1)"),
        ("%f", 2.5 as any Sendable, "double(2.5)"), ("%lf", 3 as any Sendable, "double(3.0)"),
        ("%f", Float(0.5) as any Sendable, "double(0.5)"),
        ("%lu", UInt64(9) as any Sendable, "int(9)"), ("%lld", Int64(-4) as any Sendable, "int(-4)"),
        ("%hd", Int16(12) as any Sendable, "int(12)"),
        ("%x", 255 as any Sendable, "int(255)"), ("%e", 1 as any Sendable, "double(1.0)"),
        ("%g", 0.25 as any Sendable, "double(0.25)"),
    ])
    func printfConversions(specifier: String, argument: any Sendable, kind: String) throws {
        #expect(exactly(try literal(specifier, argument)) == kind)
        if specifier == "%d" && kind == "int(99)" {
            #expect(try parsedPredicate("a == %d", 99).predicateFormat == "a == 99")
        }
    }

    // pBNF format_argument lists "%": `%%` is a literal percent sign [section 1.5, exact lexing UNC].
    @Test func percent() throws {
        #expect(try literal("%%") == .constant(.string("%")))
        #expect(
            try parsedPredicate("name ENDSWITH %% AND n == %d", 5).predicateFormat == "name ENDSWITH \"%\" AND n == 5")
    }

    // pCreating "Substitution Variables": `$NAME` is a variable expression.
    @Test(arguments: ["VARIABLE_NAME", "x", "a1", "AND", "first"])
    func variables(name: String) throws {
        #expect(try literal("$" + name) == .variable(name))
    }

    // Section 1.6: `%K` with a string starting with `$` is a key path, not a variable.
    @Test func keyPathArgumentIsNeverAVariable() throws {
        #expect(try parsedComparison("%K LIKE 'x'", "$single")?.leftExpression == .keyPath("$single"))
    }
}
