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

    var doubleValue: Double {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        }
    }

    var decimalValue: Decimal {
        switch self {
        case .int(let i): return Decimal(i)
        case .double(let d): return Decimal(d)
        case .decimal(let d): return d
        }
    }

    /// The number as an Int when it is whole and fits.
    var exactInt: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d): return Int(exactly: d)
        case .decimal(let d): return Int(exactly: NSDecimalNumber(decimal: d).doubleValue)
        }
    }

    static func compare(_ a: Number, _ b: Number) -> ComparisonResult {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        case (.decimal, _), (_, .decimal):
            let x = a.decimalValue, y = b.decimalValue
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        default:
            let x = a.doubleValue, y = b.doubleValue
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
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
        guard let x = a.runtimeValue.flatMap(Number.init), let y = b.runtimeValue.flatMap(Number.init) else { return false }
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
        let a = normalize(a), b = normalize(b)
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
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0, options) } ?? false }
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
        if let x = Number(a), let y = Number(b) { return Number.compare(x, y) }
        return nil
    }
}
