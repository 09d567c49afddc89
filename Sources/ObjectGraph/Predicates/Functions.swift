import Foundation

/// The built-in functions of the format language (NSExpression's `forFunction:` list).
enum BuiltinFunctions {
    struct Function {
        let selector: String
        let arity: Int
        /// The statistics functions take one collection.
        let takesCollection: Bool
    }

    static let all: [String: Function] = {
        var table: [String: Function] = [:]
        func add(_ selector: String, _ arity: Int, collection: Bool = false) {
            table[selector] = Function(selector: selector, arity: arity, takesCollection: collection)
        }
        for s in ["sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:"] {
            add(s, 1, collection: true)
        }
        for s in [
            "sqrt:", "log:", "ln:", "exp:", "floor:", "ceiling:", "abs:", "trunc:", "randomn:",
            "uppercase:", "lowercase:", "canonical:", "length:", "noindex:", "onesComplement:",
        ] { add(s, 1) }
        for s in [
            "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:",
            "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
        ] { add(s, 2) }
        add("now", 0)
        add("random", 0)
        return table
    }()

    /// The selector for a function called by name, as in `max(1, 5, 10)` or `now()`; names are
    /// matched without regard to case, as Apple's documentation writes `MAX(...)`.
    static func selector(forName name: String) -> String? {
        let lower = name.lowercased()
        if lower == "now" || lower == "random" { return lower }
        let match = all.keys.first { $0.lowercased() == lower + ":" }
        return match
    }

    static func function(forSelector selector: String) -> Function? { all[selector] }

    static var namesForMessages: String {
        "sum, count, min, max, average, median, mode, stddev, sqrt, log, ln, exp, floor, ceiling, abs, trunc, random, randomn, uppercase, lowercase, canonical, length, now"
    }

    /// Calls a built-in function on evaluated arguments.
    static func call(_ selector: String, _ arguments: [Any?]) throws -> Any? {
        let args = arguments.map(ValueComparison.normalize)
        switch selector {
        case "now": return Date()
        case "random": return Double.random(in: 0..<1)
        case "sum:": return try Aggregates.sum(try collection(args[0], selector), operator: selector)
        case "count:":
            guard
                let elements = KeyPathResolver.collectionElements(args[0])
                    ?? (args[0] as? [String: Any]).map({ Array($0.values) })
            else {
                throw PredicateError(
                    .invalidOperand, "Invoked count with non-collection parameter (\(describeArgument(args[0]))).")
            }
            return elements.count
        case "min:", "max:":
            let values = try collection(args[0], selector)
            guard !values.isEmpty else {
                throw PredicateError(.invalidOperand, "Invoked \(selector.dropLast()) with empty collection.")
            }
            return try Aggregates.extreme(values, wantMaximum: selector == "max:")
        case "average:":
            let values = try collection(args[0], selector)
            return values.isEmpty ? nil : try Aggregates.average(values, operator: selector)
        case "median:":
            let numbers = try Aggregates.numbers(try collection(args[0], selector), operator: selector).map(
                \.doubleValue
            ).sorted()
            guard !numbers.isEmpty else { return nil }
            let mid = numbers.count / 2
            return numbers.count % 2 == 1 ? numbers[mid] : (numbers[mid - 1] + numbers[mid]) / 2
        case "mode:":
            let values = try collection(args[0], selector)
            var counts: [(value: Any, count: Int)] = []
            for v in values {
                if let i = counts.firstIndex(where: { ValueComparison.equal($0.value, v, []) }) {
                    counts[i].count += 1
                } else {
                    counts.append((v, 1))
                }
            }
            let best = counts.map(\.count).max() ?? 0
            return counts.filter { $0.count == best }.map(\.value)
        case "stddev:":
            let numbers = try Aggregates.numbers(try collection(args[0], selector), operator: selector).map(
                \.doubleValue)
            guard !numbers.isEmpty else { return nil }
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            return (numbers.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(numbers.count)).squareRoot()
        case "sqrt:": return try number(args[0], selector).doubleValue.squareRoot()
        case "log:": return Foundation.log10(try number(args[0], selector).doubleValue)
        case "ln:": return Foundation.log(try number(args[0], selector).doubleValue)
        case "exp:": return Foundation.exp(try number(args[0], selector).doubleValue)
        case "floor:": return Foundation.floor(try number(args[0], selector).doubleValue)
        case "ceiling:": return Foundation.ceil(try number(args[0], selector).doubleValue)
        case "trunc:": return Foundation.trunc(try number(args[0], selector).doubleValue)
        case "abs:":
            let n = try number(args[0], selector)
            if case .int(let i) = n, i != Int.min { return Swift.abs(i) }
            if case .decimal(let d) = n { return Swift.abs(d) }
            return Swift.abs(n.doubleValue)
        case "randomn:":
            guard let bound = try number(args[0], selector).exactInt, bound > 0 else {
                throw PredicateError(
                    .invalidOperand, "randomn: needs a positive whole number, got \(describeArgument(args[0]))")
            }
            return Int.random(in: 0..<bound)
        case "uppercase:", "lowercase:":
            guard let s = args[0] as? String else {
                throw PredicateError(
                    .invalidOperand, "Can't \(selector.dropLast()) non-string \(describeArgument(args[0]))")
            }
            return selector == "uppercase:" ? s.uppercased() : s.lowercased()
        case "canonical:":
            // NSExpression's canonical: (iOS 13): the string with case and diacritics removed,
            // what a derived `searchName` attribute is made of.
            guard let s = args[0] as? String else {
                throw PredicateError(
                    .invalidOperand, "Can't make a canonical string of non-string \(describeArgument(args[0]))")
            }
            return StringComparison.fold(s, [.caseInsensitive, .diacriticInsensitive])
        case "length:":
            guard let s = args[0] as? String else {
                throw PredicateError(
                    .invalidOperand, "Can't take the length of non-string \(describeArgument(args[0]))")
            }
            return s.utf16.count
        case "noindex:": return args[0]
        case "onesComplement:":
            guard let i = try number(args[0], selector).exactInt else {
                throw PredicateError(
                    .invalidOperand, "Can't do bit operators on non-integers (\(describeArgument(args[0])))")
            }
            return ~i
        default:
            return try Arithmetic.binary(selector, args[0], args[1])
        }
    }

    private static func collection(_ value: Any?, _ selector: String) throws -> [Any] {
        guard let elements = KeyPathResolver.collectionElements(value) else {
            throw PredicateError(
                .invalidOperand, "\(selector) needs an array or a set, but got \(describeArgument(value))")
        }
        return elements.compactMap(ValueComparison.normalize)
    }

    private static func number(_ value: Any?, _ selector: String) throws -> Number {
        guard let value, let n = Number(value) else {
            throw PredicateError(
                .invalidOperand,
                "Unknown number type or nil passed to arithmetic function expression \(selector) (\(describeArgument(value)))"
            )
        }
        return n
    }
}

/// Arithmetic and bitwise operators on numbers (and dates plus seconds).
enum Arithmetic {
    static func binary(_ selector: String, _ a: Any?, _ b: Any?) throws -> Any? {
        // Dates move by a number of seconds; two dates subtract to seconds.
        if let date = a as? Date {
            if selector == "add:to:", let n = b.flatMap(Number.init) { return date.addingTimeInterval(n.doubleValue) }
            if selector == "from:subtract:", let n = b.flatMap(Number.init) {
                return date.addingTimeInterval(-n.doubleValue)
            }
            if selector == "from:subtract:", let other = b as? Date { return date.timeIntervalSince(other) }
        }
        if selector == "add:to:", let n = a.flatMap(Number.init), let date = b as? Date {
            return date.addingTimeInterval(n.doubleValue)
        }
        guard let x = a.flatMap(Number.init), let y = b.flatMap(Number.init) else {
            throw PredicateError(
                .invalidOperand,
                "Unknown number type or nil passed to arithmetic function expression \(selector) (\(describeArgument(a)), \(describeArgument(b)))"
            )
        }
        switch selector {
        case "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:":
            guard let i = x.exactInt, let j = y.exactInt else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't do bit operators on non-integers (\(describeArgument(a)), \(describeArgument(b)))")
            }
            switch selector {
            case "bitwiseAnd:with:": return i & j
            case "bitwiseOr:with:": return i | j
            case "bitwiseXor:with:": return i ^ j
            case "leftshift:by:": return i << j
            default: return i >> j
            }
        default: break
        }
        if case .int(let i) = x, case .int(let j) = y {
            switch selector {
            case "add:to:":
                let (r, o) = i.addingReportingOverflow(j)
                if !o { return r }
            case "from:subtract:":
                let (r, o) = i.subtractingReportingOverflow(j)
                if !o { return r }
            case "multiply:by:":
                let (r, o) = i.multipliedReportingOverflow(by: j)
                if !o { return r }
            case "modulus:by:":
                guard j != 0 else { throw PredicateError(.invalidOperand, "modulus:by: by zero") }
                return i % j
            default: break
            }
        }
        if case .decimal = x, selector != "raise:toPower:" { return decimal(selector, x.decimalValue, y.decimalValue) }
        if case .decimal = y, selector != "raise:toPower:" { return decimal(selector, x.decimalValue, y.decimalValue) }
        let p = x.doubleValue
        let q = y.doubleValue
        switch selector {
        case "add:to:": return p + q
        case "from:subtract:": return p - q
        case "multiply:by:": return p * q
        case "divide:by:": return p / q
        case "modulus:by:": return fmod(p, q)
        case "raise:toPower:": return pow(p, q)
        default:
            throw PredicateError(.unknownFunction, "Unknown function \(selector)")
        }
    }

    private static func decimal(_ selector: String, _ x: Decimal, _ y: Decimal) -> Any {
        switch selector {
        case "add:to:": return x + y
        case "from:subtract:": return x - y
        case "multiply:by:": return x * y
        case "divide:by:": return x / y
        default:
            return NSDecimalNumber(decimal: x).doubleValue.truncatingRemainder(
                dividingBy: NSDecimalNumber(decimal: y).doubleValue)
        }
    }
}

/// An exact sum of integers that cannot overflow: each integer split into its high and low
/// 32 bits, each half summed on its own.
///
/// The total is an Int when it fits, else the Double nearest to it: overflow promotes, as
/// SQLite's `total()` does and unlike its `sum()`, which fails with "integer overflow"; and
/// unlike a running sum, the answer does not depend on the order of the elements (a to-many
/// relationship has none). The SQLite store computes the same in SQL
/// (`SQLFetchTranslator.integerSum`), with the same two halves and the same rounding.
struct IntegerSum {
    /// The sum of the high halves (`i >> 32`, rounded down).
    private(set) var high = 0
    /// The sum of the low halves (`i & 0xFFFFFFFF`, never negative).
    private(set) var low = 0

    /// Adds an integer.
    mutating func add(_ i: Int) {
        high &+= i >> 32
        low &+= i & 0xFFFF_FFFF
    }

    /// The exact total as an Int when it fits, else as the nearest Double.
    var total: Number {
        Self.total(high: high, low: low)
    }

    /// The total from the two half sums, as the SQL computes it.
    static func total(high: Int, low: Int) -> Number {
        let h = high &+ (low >> 32)
        let l = low & 0xFFFF_FFFF
        if h >= Int(Int32.min) && h <= Int(Int32.max) { return .int((h << 32) + l) }
        return .double(Double(h) * 4_294_967_296.0 + Double(l))
    }
}

/// Sums, averages and extremes over collections, for `@sum`/`sum:` and friends.
enum Aggregates {
    static func numbers(_ values: [Any], operator op: String) throws -> [Number] {
        try values.map { v in
            guard let n = Number(v) else {
                throw PredicateError(
                    .invalidOperand,
                    "Invoked mathematical function \(op) with non-numeric object(s) in collection: \(describeArgument(v))"
                )
            }
            return n
        }
    }

    /// The sum. Integers sum exactly, whatever their order: an Int when the total fits, else
    /// the Double nearest to the exact total (``IntegerSum``), as the SQLite store computes
    /// `@sum` and `sum:` of an integer attribute. Doubles sum as Doubles, and a Decimal among
    /// the elements makes the sum a Decimal. The sum of nothing is 0. A sum that is not a
    /// number (infinity minus infinity) is nil, as in SQLite, which has no NaN.
    static func sum(_ values: [Any], operator op: String) throws -> Any? {
        let numbers = try numbers(values, operator: op)
        var integers = IntegerSum()
        var hasDouble = false
        var hasDecimal = false
        for n in numbers {
            switch n {
            case .int(let i): integers.add(i)
            case .double: hasDouble = true
            case .decimal: hasDecimal = true
            }
        }
        if hasDecimal { return numbers.reduce(Decimal(0)) { $0 + $1.decimalValue } }
        if hasDouble {
            let total = exactDoubleSum(numbers)
            return total.isNaN ? nil : total
        }
        return integers.total.any
    }

    /// The sum of numbers as Doubles, rounded once (``ExactSum``): the same in any order, as
    /// the SQLite store's `OG_FSUM` computes it.
    static func exactDoubleSum(_ numbers: [Number]) -> Double {
        var sum = ExactSum()
        for n in numbers { sum.add(n.doubleValue) }
        return sum.total
    }

    /// The average: of integers, their exact sum (``IntegerSum``) as the nearest Double divided
    /// once, whatever their order, as the SQLite store computes it; nil when it is not a
    /// number, as in SQLite.
    static func average(_ values: [Any], operator op: String) throws -> Any? {
        let numbers = try numbers(values, operator: op)
        if numbers.contains(where: {
            if case .decimal = $0 { return true }
            return false
        }) {
            return numbers.reduce(Decimal(0)) { $0 + $1.decimalValue } / Decimal(numbers.count)
        }
        var integers = IntegerSum()
        var allIntegers = true
        for n in numbers {
            guard case .int(let i) = n else {
                allIntegers = false
                break
            }
            integers.add(i)
        }
        let mean =
            allIntegers
            ? integers.total.doubleValue / Double(numbers.count)
            : exactDoubleSum(numbers) / Double(numbers.count)
        return mean.isNaN ? nil : mean
    }

    /// The smallest or largest element, by the same order the comparison operators use.
    static func extreme(_ values: [Any], wantMaximum: Bool) throws -> Any? {
        var best: Any?
        for v in values {
            guard let current = best else {
                best = v
                continue
            }
            guard let order = ValueComparison.order(v, current, []) else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't compare \(describeArgument(v)) with \(describeArgument(current)) to find the \(wantMaximum ? "maximum" : "minimum")"
                )
            }
            if (wantMaximum && order == .orderedDescending) || (!wantMaximum && order == .orderedAscending) { best = v }
        }
        return best
    }
}

/// An object that answers `FUNCTION(object, "selector", arguments...)` itself, as an Objective-C
/// object answers the message: the evaluator asks it before the ``FunctionRegistry``.
///
/// A migration manager and entity migration policies adopt it.
public protocol FunctionReceiver {
    /// The result of calling `selector` with the evaluated arguments, or nil when the object
    /// does not answer that selector (the registry is tried next).
    func performFunction(_ selector: String, arguments: [Any?]) throws -> FunctionResult?
}

/// What a ``FunctionReceiver`` answered: a value, possibly nil.
public struct FunctionResult {
    /// The value; nil is a valid answer.
    public let value: Any?
    /// Wraps an answer.
    public init(_ value: Any?) { self.value = value }
}

/// Functions that `FUNCTION(receiver, "selector", arguments...)` can call.
///
/// Apple's FUNCTION calls any Objective-C method; Linux has no such runtime, so the callable
/// selectors are registered here. A few string and number conveniences come built in.
public enum FunctionRegistry {
    /// A registered function: the receiver and the evaluated arguments in, a value out.
    public typealias Body = @Sendable (_ receiver: Any?, _ arguments: [Any?]) throws -> Any?

    private static let storage = Lock<[String: Body]>([
        "uppercaseString": { r, _ in try string(r, "uppercaseString").uppercased() },
        "lowercaseString": { r, _ in try string(r, "lowercaseString").lowercased() },
        "length": { r, _ in try string(r, "length").utf16.count },
        "lastPathComponent": { r, _ in (try string(r, "lastPathComponent") as NSString).lastPathComponent },
        "stringByAppendingString:": { r, a in
            try string(r, "stringByAppendingString:") + (try string(a.first ?? nil, "stringByAppendingString:"))
        },
        "description": { r, _ in r.map { String(describing: $0) } },
        // Key-value coding, as value expressions of inferred mapping models call it:
        // FUNCTION($source, "valueForKey:", "name").
        "valueForKey:": { r, a in try KeyPathResolver.value(of: r, key: try string(a.first ?? nil, "valueForKey:")) },
        "valueForKeyPath:": { r, a in
            try KeyPathResolver.value(of: r, keyPath: try string(a.first ?? nil, "valueForKeyPath:"))
        },
    ])

    private static func string(_ value: Any?, _ selector: String) throws -> String {
        guard let s = ValueComparison.normalize(value) as? String else {
            throw PredicateError(.invalidOperand, "FUNCTION \(selector) needs a string, got \(describeArgument(value))")
        }
        return s
    }

    /// Makes `FUNCTION(x, "selector", ...)` call `body`.
    public static func register(_ selector: String, _ body: @escaping Body) {
        storage.withLock { $0[selector] = body }
    }

    /// The function registered for a selector.
    static func function(for selector: String) -> Body? {
        storage.withLock { $0[selector] }
    }
}
