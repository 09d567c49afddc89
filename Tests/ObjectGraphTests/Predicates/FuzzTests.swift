import Foundation
import Testing

@testable import ObjectGraph

// A bounded fuzz of the format language in the suite (the full run is `bash Fuzz/run.sh
// 1000000`). Design rule from reference/predicates.md section 4: a malformed format string
// fails with Apple's message prefix and a position, never a crash; whatever parses prints as
// text that parses back to an equal predicate (section 3.1).

@Suite("Fuzz: random and mutated format strings")
struct FuzzTests {
    /// Pieces random strings are made of: tokens of the language and some noise.
    static let pieces = [
        "a", "name", "$x", "$a.$b", "SELF", "#SIZE", "@count", ".", "1", "-", "0x1F", "2.5e-3", "'s'", "\"t\"",
        "'\\u00e9'",
        "==", "=", "!=", "<>", "<", "<=", "=>", ">", "IN", "CONTAINS", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH",
        "BETWEEN",
        "[cd]", "[n]", "ANY", "ALL", "NONE", "SOME", "AND", "OR", "NOT", "&&", "||", "!", "TRUEPREDICATE",
        "FALSEPREDICATE",
        "(", ")", "{", "}", "[", "]", ",", "+", "*", "/", "**", "&", "|", "^", "~", "<<", ">>", ":=", "sum:",
        "raise:toPower:",
        "max(", "now()", "FUNCTION(", "CAST(", "SUBQUERY(", "TERNARY(", "FIRST", "LAST", "SIZE", "NULL", "YES", "%@",
        "%K",
        "%d", "%%", "'", "\"", "\\", "#", "@", "$", "é", "\u{301}", "\n", " ", " ", " ", "?", "`", "%k",
        "99999999999999999999",
    ]
    /// Well-formed starting points for mutation.
    static let seeds = [
        "name == 'Zoë' AND age > 21", "ANY tags LIKE[cd] 'b*' OR NOT score BETWEEN {1, 10}",
        "SUBQUERY(dept.staff, $s, $s.age > 40).@count == 1", "TERNARY(age >= 18, 'adult', 'minor') == 'adult'",
        "FUNCTION(name, 'uppercaseString') BEGINSWITH \"Z\"", "CAST(0, \"NSDate\") < when && numbers[FIRST] == 0x1",
        "-2 ** 3 + sqrt:(9) * max(1, 5, 10) != $a.$b", "numbers.@sum / 2 >= average:(numbers) AND #size == 0b101",
        "$x := 3 == 3 AND NONE tags CONTAINS 'z'", "name MATCHES '\\\\w+' || d['k'] IN {1, 2, a}",
    ]
    nonisolated(unsafe) static let object: [String: Any] = [
        "name": "Zoë", "age": 42, "score": 2.5, "tags": ["a", "B"], "numbers": [1, 2, 3],
        "when": Date(timeIntervalSinceReferenceDate: 0),
        "d": ["k": 1], "dept": ["staff": [["age": 30], ["age": 51]]],
    ]
    /// Strings are keys made of identifiers: `%K` prints its key as given, as Apple does, so
    /// `%K` with `x"y` prints text that does not parse again.
    nonisolated(unsafe) static let arguments: [Any?] = ["name", 7, ["x\"y"], 2.5, nil, true, ["x", 1], "a.b"]

    /// Parses, checks the error or the round trip, and evaluates. Returns a problem, or nil.
    static func check(_ format: String) -> String? {
        let percents = min(format.filter { $0 == "%" }.count, arguments.count)
        let p: ObjectGraph.Predicate
        do {
            p = try ObjectGraph.Predicate(checkedFormat: format, argumentArray: Array(arguments.prefix(percents)))
        } catch let error as ObjectGraph.PredicateError {
            if error.code == .unparseable
                && (!error.message.unicodeScalars.starts(with: "Unable to parse the format string \"".unicodeScalars)
                    || error.offset == nil)
            {
                return "bad parse error for \(format.debugDescription): \(error.message)"
            }
            return nil
        } catch {
            return "not a PredicateError for \(format.debugDescription): \(error)"
        }
        if let failure = RoundTripTests.roundTripFailure(p) { return "input \(format.debugDescription): \(failure)" }
        _ = try? p.checkedEvaluate(with: object)
        _ = try? p.checkedEvaluate(with: object, substitutionVariables: ["x": 1, "a": ["b": 2], "b": "b"])
        return nil
    }

    // Random token soup: 3000 strings of 1 to 12 pieces.
    @Test func randomStrings() {
        var random = FormatLanguageRandom(seed: 2024)
        var problems: [String] = []
        for _ in 0..<3000 {
            let format = (0...random.int(12)).map { _ in random.pick(Self.pieces) }.joined(
                separator: random.chance(70) ? " " : "")
            if let problem = Self.check(format) { problems.append(problem) }
            if problems.count >= 5 { break }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    // Mutations of well-formed strings: 3000 with characters or pieces inserted, deleted or
    // replaced, and halves swapped.
    @Test func mutatedStrings() {
        var random = FormatLanguageRandom(seed: 7)
        var problems: [String] = []
        for _ in 0..<3000 {
            var scalars = Array(random.pick(Self.seeds).unicodeScalars)
            for _ in 0...random.int(3) {
                let at = random.int(scalars.count + 1)
                switch random.int(4) {
                case 0: scalars.insert(contentsOf: random.pick(Self.pieces).unicodeScalars, at: at)
                case 1: if at < scalars.count { scalars.remove(at: at) }
                case 2:
                    if at < scalars.count {
                        scalars[at] = random.pick(Array("()[]{}'\",.$#@%!=<>-*\\ é".unicodeScalars))
                    }
                default: scalars = Array(scalars[at...] + scalars[..<at])
                }
            }
            var format = ""
            format.unicodeScalars.append(contentsOf: scalars)
            if let problem = Self.check(format) { problems.append(problem) }
            if problems.count >= 5 { break }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    // Deep nesting is refused with an error, not a stack overflow (section 4, design rule).
    @Test(arguments: [
        String(repeating: "(", count: 5000) + "a == 1", String(repeating: "NOT ", count: 5000) + "a == 1",
        "a == " + String(repeating: "-", count: 5000) + "1", "a == " + String(repeating: "{", count: 5000),
        "a == " + Array(repeating: "1", count: 5000).joined(separator: " + "),
        "a" + String(repeating: "[0]", count: 5000) + " == 1",
        String(repeating: "a == 1 AND ", count: 5000) + "b == 2",
        "a == " + String(repeating: "2 ** ", count: 5000) + "2",
    ])
    func deepNesting(format: String) {
        let error = parseError(format)
        if let error {
            #expect(error.code == .unparseable)
        } else {
            // A flat chain of ANDs is no nesting at all and parses.
            #expect(format.hasSuffix("b == 2"))
        }
    }
}
