import Foundation

/// A number as predicates see it: NSNumber's kinds, compared numerically across kinds.
enum Number {
    case int(Int)
    case double(Double)
    case decimal(Decimal)

    /// The number in a Swift value, if it is one (booleans count, as NSNumber's do).
    init?(_ value: Any) {
        switch value {
        case let i as Int: self = .int(i)
        case let d as Double: self = .double(d)
        case let b as Bool: self = .int(b ? 1 : 0)
        case let d as Decimal: self = .decimal(d)
        case let f as Float: self = .double(Double(f))
        case let i as Int64: self = .int(Int(i))
        case let i as Int32: self = .int(Int(i))
        case let i as Int16: self = .int(Int(i))
        case let i as Int8: self = .int(Int(i))
        case let i as UInt8: self = .int(Int(i))
        case let i as UInt16: self = .int(Int(i))
        case let i as UInt32: self = .int(Int(i))
        case let i as UInt: self = Int(exactly: i).map(Number.int) ?? .double(Double(i))
        case let i as UInt64: self = Int(exactly: i).map(Number.int) ?? .double(Double(i))
        default:
            guard let n = asNSNumber(value) else { return nil }
            switch ConstantValue.fromNSNumber(n) {
            case .int(let i): self = .int(i)
            case .bool(let b): self = .int(b ? 1 : 0)
            default: self = .double(n.doubleValue)
            }
        }
    }

    /// The nearest Double (a decimal correctly rounded through its digits, not through
    /// NSDecimalNumber's `doubleValue`, which turns 19.99 into 19.98999999999999488).
    var doubleValue: Double {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return DecimalConversion.double(d)
        }
    }

    /// The number as a Decimal: a Double by its shortest representation (19.99 is 19.99);
    /// NaN for NaN, the infinities and magnitudes a Decimal cannot hold (never a trap).
    var decimalValue: Decimal { exactDecimal ?? .nan }

    /// The number as a Decimal, nil when it cannot be one (NaN, the infinities, magnitudes
    /// beyond Decimal's range).
    var exactDecimal: Decimal? {
        switch self {
        case .int(let i): return Decimal(i)
        case .double(let d): return DecimalConversion.decimal(d)
        case .decimal(let d): return d.isNaN ? nil : d
        }
    }

    /// The number as an Int when it is whole and fits.
    var exactInt: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d): return Int(exactly: d)
        case .decimal(let d): return DecimalConversion.int(d)
        }
    }

    /// Whether the number is NaN, which is neither equal to nor ordered with any number.
    var isNaN: Bool {
        switch self {
        case .int: return false
        case .double(let d): return d.isNaN
        case .decimal(let d): return d.isNaN
        }
    }

    /// Orders two numbers exactly, as SQLite compares an INTEGER with a REAL: an Int with an
    /// Int or a Double without rounding either (2^53 + 1 > 2^53 as a Double), a Decimal with a
    /// Double through the Double's shortest representation (19.99 == 19.99). nil when either
    /// is NaN: NaN is unordered, so every comparison with it is false.
    static func compare(_ a: Number, _ b: Number) -> ComparisonResult? {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            return order(x, y)
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return nil }
            return order(x, y)
        case (.int(let x), .double(let y)):
            return compare(x, y)
        case (.double(let x), .int(let y)):
            return compare(y, x).map(reversed)
        case (.decimal(let x), .decimal(let y)):
            if x.isNaN || y.isNaN { return nil }
            return order(x, y)
        case (.decimal(let x), .int(let y)):
            if x.isNaN { return nil }
            return order(x, Decimal(y))
        case (.int(let x), .decimal(let y)):
            if y.isNaN { return nil }
            return order(Decimal(x), y)
        case (.decimal(let x), .double(let y)):
            return compare(x, y)
        case (.double(let x), .decimal(let y)):
            return compare(y, x).map(reversed)
        }
    }

    @inline(__always)
    private static func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
        x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
    }

    private static func reversed(_ r: ComparisonResult) -> ComparisonResult {
        r == .orderedAscending ? .orderedDescending : (r == .orderedDescending ? .orderedAscending : .orderedSame)
    }

    /// An Int against a Double, exactly: the Double's whole part as an Int, then its fraction.
    static func compare(_ x: Int, _ y: Double) -> ComparisonResult? {
        if y.isNaN { return nil }
        // 2^63 is a Double; every Double at or beyond it is beyond every Int.
        if y >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if y < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = y.rounded(.towardZero)
        let w = Int(whole)
        if x != w { return order(x, w) }
        let fraction = y - whole
        return fraction > 0 ? .orderedAscending : (fraction < 0 ? .orderedDescending : .orderedSame)
    }

    /// A Decimal against a Double: by their nearest Doubles when those differ (rounding keeps
    /// order), else by the decimal against the Double's shortest representation.
    static func compare(_ x: Decimal, _ y: Double) -> ComparisonResult? {
        if x.isNaN || y.isNaN { return nil }
        let rounded = DecimalConversion.double(x)
        if rounded != y { return order(rounded, y) }
        guard let shortest = DecimalConversion.decimal(y) else { return order(rounded, y) }
        return order(x, shortest)
    }

    /// The value as a Swift value: Int, Double or Decimal.
    var any: Any {
        switch self {
        case .int(let i): return i
        case .double(let d): return d
        case .decimal(let d): return d
        }
    }
}

enum NumberComparison {
    /// Numeric equality of two numeric constants.
    static func equal(_ a: ConstantValue, _ b: ConstantValue) -> Bool {
        guard let x = a.runtimeValue.flatMap(Number.init), let y = b.runtimeValue.flatMap(Number.init) else {
            return false
        }
        // A constant equals itself even when it is NaN: this is the equality of predicates
        // (a predicate equals its copy), not of values, where NaN equals nothing.
        if x.isNaN && y.isNaN { return true }
        return Number.compare(x, y) == .orderedSame
    }
}

/// Equality and order between the values an evaluation produces.
enum ValueComparison {
    /// Turns values from other layers (managed objects, object IDs) into what they compare as.
    @inline(__always)
    static func normalize(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if isPlainValue(value) { return value }
        guard let value = unwrapOptional(value) else { return nil }
        if isNSNull(value) { return nil }
        if let c = value as? PredicateArgumentConvertible { return c.predicateConstant.runtimeValue }
        // A Substring is a string, as it is when given as an argument.
        if let s = value as? Substring { return String(s) }
        return value
    }

    /// `isEqual:` with the string options of `==[cd]`: numbers numerically, strings by scalars,
    /// dates, data, collections element by element, anything else Hashable by equality.
    static func equal(_ a: Any?, _ b: Any?, _ options: ComparisonPredicate.Options) -> Bool {
        let a = normalize(a)
        let b = normalize(b)
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let x as String, let y as String):
            return options.isEmpty ? x.utf8.elementsEqual(y.utf8) : StringComparison.equal(x, y, options)
        case (let x as Date, let y as Date): return x == y
        case (let x as Data, let y as Data): return x == y
        case (let x as ObjectReference, let y as ObjectReference): return x == y
        default: break
        }
        if let x = Number(a!), let y = Number(b!) { return Number.compare(x, y) == .orderedSame }
        if let x = KeyPathResolver.collectionElements(a), let y = KeyPathResolver.collectionElements(b) {
            guard x.count == y.count else { return false }
            // Sets are equal whatever their order; a set never equals an array (NSSet isEqual:).
            switch (a is Set<AnyHashable>, b is Set<AnyHashable>) {
            case (true, true):
                return x.allSatisfy { e in y.contains { equal(e, $0, options) } }
                    && y.allSatisfy { e in x.contains { equal(e, $0, options) } }
            case (false, false):
                return zip(x, y).allSatisfy { equal($0, $1, options) }
            default:
                return false
            }
        }
        if let x = a as? [String: Any], let y = b as? [String: Any] {
            return x.count == y.count
                && x.allSatisfy { key, value in y[key].map { equal(value, $0, options) } ?? false }
        }
        if let x = hashable(a!), let y = hashable(b!) { return x == y }
        return false
    }

    /// The value as AnyHashable; a reference held in a constant compares as the value it wraps.
    private static func hashable(_ value: Any) -> AnyHashable? {
        if let r = value as? ObjectReference { return AnyHashable(r.base) }
        return value as? AnyHashable
    }

    /// `compare:` for the ordering operators: numbers, strings and dates. nil when the two
    /// cannot be ordered (different kinds, or kinds with no order).
    static func order(_ a: Any, _ b: Any, _ options: ComparisonPredicate.Options) -> ComparisonResult? {
        switch (a, b) {
        case (let x as String, let y as String): return StringComparison.compare(x, y, options)
        case (let x as Date, let y as Date): return x.compare(y)
        default: break
        }
        if let x = Number(a), let y = Number(b) { return Number.compare(x, y) ?? .orderedSame }
        return nil
    }

    /// Whether two values are numbers of which one is NaN: every ordering between them is
    /// false (IEEE 754), as in SQL, where a NaN is never stored and a NaN constant matches
    /// nothing.
    static func isUnordered(_ a: Any, _ b: Any) -> Bool {
        guard let x = Number(a), let y = Number(b) else { return false }
        return x.isNaN || y.isNaN
    }
}
/// Exact conversions between Decimal and Double, shared by the predicates and the stores.
///
/// A Double stands for the decimal of its shortest representation (`"\(0.1)"` is `0.1`),
/// and a Decimal becomes the Double nearest to it (correctly rounded, through its digits).
/// Every decimal of up to 15 significant digits survives the trip there and back.
enum DecimalConversion {
    /// The Double nearest to a decimal; NaN for NaN.
    static func double(_ d: Decimal) -> Double {
        if d.isNaN { return .nan }
        return Double(d.description) ?? NSDecimalNumber(decimal: d).doubleValue
    }

    /// The decimal a Double stands for: its shortest representation. nil for NaN, the
    /// infinities, and magnitudes outside Decimal's range (beyond about 1e165 or below 1e-128).
    static func decimal(_ x: Double) -> Decimal? {
        guard x.isFinite else { return nil }
        // -0.0 is 0: a negative Decimal without digits would be NaN.
        if x == 0 { return Decimal(0) }
        guard let d = Decimal(string: "\(x)"), !d.isNaN, d != 0 else { return nil }
        return d
    }

    /// Whether a decimal is exactly the Double nearest to it read back through its shortest
    /// representation: whether a REAL column keeps it exactly.
    static func survivesDouble(_ d: Decimal) -> Bool {
        guard !d.isNaN else { return false }
        let x = double(d)
        return x.isFinite && decimal(x) == d
    }

    /// The decimal as an Int when it is whole and fits, without going through a Double
    /// (2^53 + 1 stays 2^53 + 1).
    static func int(_ d: Decimal) -> Int? {
        guard !d.isNaN else { return nil }
        var value = d
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        guard rounded == d else { return nil }
        return Int(rounded.description)
    }
}
