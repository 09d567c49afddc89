import Foundation

@testable import ObjectGraph

// Random numbers and random predicates for the round-trip and fuzz tests of the format
// language (reference/predicates.md sections 1 and 3.1). Deterministic for a seed.

/// SplitMix64: a small seeded generator, so a failing case can be replayed.
struct FormatLanguageRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that always produces the same numbers for the same seed.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ n: Int) -> Int { Int.random(in: 0..<n, using: &self) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ pool: [T]) -> T { pool[int(pool.count)] }
}

/// Builds random predicates in the form the parser itself produces, so that parsing what
/// `predicateFormat` prints must give back an equal predicate.
///
/// What the parser never builds is left out: a `.member` on a key path (it merges into one key
/// path), an aggregate of constants only (it becomes a constant array), `CAST(<number>,
/// "NSDate")` (it becomes a date), and constants that print as no literal (NSNull, sets,
/// dictionaries, data, UUIDs, URLs, decimals).
struct PredicateASTGenerator {
    var random: FormatLanguageRandom
    /// Keys: identifiers, words that must print with `#`, and words that merely look special.
    static let keys = [
        "name", "age", "a", "b_2", "_x", "SIZE", "first", "self", "AND", "in", "like", "NULL", "yes",
        "FUNCTION", "cast", "TERNARY", "subquery", "TRUEPREDICATE", "sum", "now", "count", "CI", "UTI",
    ]
    static let collectionOperators = ["@count", "@sum", "@avg", "@min", "@max", "@distinctUnionOfObjects"]
    static let variables = ["v", "x", "AND", "now", "FIRST", "a1"]
    static let strings = [
        "", "a", "Zoë", "\"", "'", "\\", "a\\\"b", "%@", "$x", "line\nbreak", "tab\t", "\u{301}x", "x\u{301}",
        "e\u{301}", "日本", "😀", "\u{0}", "\r\n", "*?", "\\d{3}", "{1, 2}", "nil", "TRUEPREDICATE",
    ]
    static let doubles: [Double] = [
        0.5, -0.5, 2.5, 1e-7, 1.0, -0.0, 1e16, 1e300, -1e-300, 0.1, 1.0 / 3, 123456.789,
        Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 4_503_599_627_370_497,
    ]
    static let ints = [0, 1, -1, 42, -5, Int.max, Int.min, 1 << 53 + 1, 255]

    /// A generator for a seed.
    init(seed: UInt64) { random = FormatLanguageRandom(seed: seed) }

    /// A random predicate, at most `depth` levels of compound predicates deep.
    mutating func predicate(depth: Int = 3) -> ObjectGraph.Predicate {
        switch depth > 0 ? random.int(10) : random.int(6) {
        case 0: return .constant(random.chance(50))
        case 1...5: return .comparison(comparison(depth: depth))
        case 6, 7:
            let count = 2 + random.int(3)
            let subpredicates = (0..<count).map { _ in predicate(depth: depth - 1) }
            return random.chance(50) ? .and(subpredicates) : .or(subpredicates)
        default:
            return .not(predicate(depth: depth - 1))
        }
    }

    mutating func comparison(depth: Int) -> ComparisonPredicate {
        var options: ComparisonPredicate.Options = []
        if random.chance(30) {
            for option in [
                ComparisonPredicate.Options.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive,
            ]
            where random.chance(40) { options.insert(option) }
        }
        let modifier = random.pick([ComparisonPredicate.Modifier.direct, .direct, .direct, .any, .all])
        return ComparisonPredicate(
            expression(depth: depth), random.pick(ComparisonPredicate.Operator.allCases),
            expression(depth: depth), modifier: modifier, options: options)
    }

    mutating func keyComponent(allowVariable: Bool) -> String {
        if random.chance(15) { return random.pick(Self.collectionOperators) }
        if allowVariable && random.chance(10) { return "$" + random.pick(Self.variables) }
        return random.pick(Self.keys)
    }

    /// A dotted key path; only components after the first may be `$variables`.
    mutating func keyPath(firstMayBeVariable: Bool) -> String {
        (0...random.int(3)).map { keyComponent(allowVariable: $0 > 0 || firstMayBeVariable) }.joined(separator: ".")
    }

    mutating func constant(depth: Int) -> ConstantValue {
        switch random.int(depth > 0 ? 8 : 7) {
        case 0: return .null
        case 1: return .bool(random.chance(50))
        case 2: return .int(random.chance(50) ? random.pick(Self.ints) : random.int(2000) - 1000)
        case 3:
            return .double(random.chance(50) ? random.pick(Self.doubles) : Double(random.int(100_000) - 50_000) / 64)
        case 4, 5: return .string(random.pick(Self.strings))
        case 6:
            let seconds = random.pick([0, -978_307_200, 86400.5, 1e-7, 123_456_789.123_456_7, -1.25, 1e20])
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            return .array((0..<random.int(4)).map { _ in constant(depth: depth - 1) })
        }
    }

    /// A random expression, at most `depth` levels of nesting deep.
    mutating func expression(depth: Int) -> ObjectGraph.Expression {
        if depth <= 0 {
            switch random.int(4) {
            case 0: return .constant(constant(depth: 0))
            case 1: return .variable(random.pick(Self.variables))
            case 2: return .evaluatedObject
            default: return .keyPath(keyPath(firstMayBeVariable: false))
            }
        }
        let d = depth - 1
        switch random.int(16) {
        case 0, 1: return .constant(constant(depth: 2))
        case 2, 3: return .keyPath(keyPath(firstMayBeVariable: false))
        case 4:
            var base = expression(depth: d)
            while case .keyPath = base { base = expression(depth: d) }
            while case .member = base { base = .variable(random.pick(Self.variables)) }
            return .member(base, keyPath(firstMayBeVariable: true))
        case 5, 6:
            let (symbol, selector) = random.pick(ObjectGraph.Expression.binaryOperators)
            _ = symbol
            return .function(selector, [expression(depth: d), expression(depth: d)])
        case 7:
            let selector = random.pick([
                "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:", "sqrt:",
                "log:", "ln:", "exp:", "floor:", "ceiling:", "abs:", "trunc:", "uppercase:",
                "lowercase:", "length:", "onesComplement:", "now", "random", "modulus:by:", "randomn:",
            ])
            let arity = BuiltinFunctions.function(forSelector: selector)!.arity
            return .function(selector, (0..<arity).map { _ in expression(depth: d) })
        case 8:
            let selectors = ["uppercaseString", "stringByAppendingString:", "pow:", "a \"quoted\" selector"]
            return .customFunction(
                receiver: expression(depth: d), selector: random.pick(selectors),
                arguments: (0..<random.int(3)).map { _ in expression(depth: d) })
        case 9:
            let selector: ObjectGraph.Expression.IndexSelector = random.pick([
                .first, .last, .size, .expression(expression(depth: d)),
            ])
            return .index(expression(depth: d), selector)
        case 10:
            var elements = (0..<random.int(3)).map { _ in expression(depth: d) }
            elements.insert(.keyPath(keyPath(firstMayBeVariable: false)), at: random.int(elements.count + 1))
            return .aggregate(elements)
        case 11:
            return .subquery(
                collection: expression(depth: d), variable: random.pick(Self.variables),
                predicate: predicate(depth: min(d, 1)))
        case 12:
            var value = expression(depth: d)
            if case .constant(let c) = value, c.isNumber { value = .keyPath("seconds") }
            return .cast(value, .constant(.string(random.pick(["NSDate", "NSNumber", "NSString", "NSDecimalNumber"]))))
        case 13:
            return .conditional(predicate(depth: min(d, 1)), expression(depth: d), expression(depth: d))
        case 14:
            return .assignment(random.pick(Self.variables), expression(depth: d))
        default:
            return random.chance(50) ? .variable(random.pick(Self.variables)) : .evaluatedObject
        }
    }
}
