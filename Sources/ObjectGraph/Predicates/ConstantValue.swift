import Foundation

/// A constant in a predicate: what a literal in the format string or a `%@` argument becomes.
///
/// NSExpression holds constants as Objective-C objects (NSNumber, NSString, NSDate, NSArray,
/// NSNull...). Here they are a value type, so a predicate is `Hashable` and `Sendable`.
///
/// Equality follows NSNumber's `isEqual:`: numbers compare numerically across their kinds,
/// so `1`, `1.0` and `TRUE` are equal constants. That is also what makes a predicate equal
/// to the one parsed back from its `predicateFormat`, where `TRUE` prints as `1`.
public enum ConstantValue: Hashable, Sendable {
    /// `nil`, `NULL` or `NIL`: no value. Prints `nil`.
    case null
    /// Foundation's `NSNull`, the placeholder for nil inside collections. Prints `<null>`.
    case nsNull
    /// A boolean (`TRUE`, `YES`, `FALSE`, `NO`). Prints `1` or `0`, as NSNumber does.
    case bool(Bool)
    /// An integer literal or integer argument.
    case int(Int)
    /// A floating-point literal or argument.
    case double(Double)
    /// A `Decimal` argument (NSDecimalNumber).
    case decimal(Decimal)
    /// A string. Prints in double quotes, whatever quotes the format string used.
    case string(String)
    /// A date. Prints as `CAST(<seconds since 2001-01-01>, "NSDate")`.
    case date(Date)
    /// Binary data.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// A URL.
    case url(URL)
    /// An array (an aggregate of constants, or an array argument). Prints `{a, b}`.
    case array([ConstantValue])
    /// A set argument. Prints like an array.
    case set(Set<ConstantValue>)
    /// A dictionary argument. `IN` looks at its values.
    case dictionary([String: ConstantValue])
    /// A reference to something the predicate language knows nothing about, such as a managed
    /// object ID.
    ///
    /// It compares by equality of the wrapped value.
    case reference(ObjectReference)

    /// Whether this constant is a number (booleans included, as in NSNumber).
    public var isNumber: Bool {
        switch self {
        case .bool, .int, .double, .decimal: return true
        default: return false
        }
    }

    /// The numeric value as a Double, for numbers.
    public var doubleValue: Double? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return DecimalConversion.double(d)
        default: return nil
        }
    }

    public static func == (lhs: ConstantValue, rhs: ConstantValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null), (.nsNull, .nsNull): return true
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.url(let a), .url(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.set(let a), .set(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)): return a == b
        case (.reference(let a), .reference(let b)): return a == b
        default:
            if lhs.isNumber && rhs.isNumber { return NumberComparison.equal(lhs, rhs) }
            return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .nsNull: hasher.combine(1)
        case .bool, .int, .double, .decimal:
            // Equal numbers must hash alike whatever their kind.
            hasher.combine(2)
            hasher.combine(doubleValue ?? 0)
        case .string(let s):
            hasher.combine(3)
            hasher.combine(Array(s.utf8))
        case .date(let d):
            hasher.combine(4)
            hasher.combine(d)
        case .data(let d):
            hasher.combine(5)
            hasher.combine(d)
        case .uuid(let u):
            hasher.combine(6)
            hasher.combine(u)
        case .url(let u):
            hasher.combine(7)
            hasher.combine(u)
        case .array(let a):
            hasher.combine(8)
            hasher.combine(a)
        case .set(let s):
            hasher.combine(9)
            hasher.combine(s)
        case .dictionary(let d):
            hasher.combine(10)
            hasher.combine(d)
        case .reference(let r):
            hasher.combine(11)
            hasher.combine(r)
        }
    }
}

/// A value from outside the predicate language held in a predicate, such as a managed object ID
/// passed for `self == %@`.
///
/// It is compared and hashed through the wrapped value.
public struct ObjectReference: Hashable, Sendable, CustomStringConvertible {
    /// The wrapped value.
    public let base: any Hashable & Sendable
    /// How the reference prints inside a `predicateFormat`.
    public let description: String

    /// Wraps a hashable value, with the text it prints as in a predicate format.
    public init(_ base: any Hashable & Sendable, description: String) {
        self.base = base
        self.description = description
    }

    public static func == (lhs: ObjectReference, rhs: ObjectReference) -> Bool {
        AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(base))
    }
}

/// A type that can stand for a `%@` argument or a substitution variable in a predicate.
///
/// Strings, numbers, dates, data, UUIDs, URLs, arrays, sets and dictionaries of them convert
/// on their own; a type from another layer (a managed object, an object ID) adopts this
/// protocol to say what constant it becomes.
public protocol PredicateArgumentConvertible {
    /// The constant this value becomes inside a predicate.
    var predicateConstant: ConstantValue { get }
}

extension ConstantValue {
    /// Converts a Swift value given as a `%@` argument or substitution value into a constant.
    ///
    /// Throws ``PredicateError`` when the value has no meaning in a predicate; `argument`
    /// names it in the message (for example "argument 2").
    public init(argument value: Any?, describedAs argument: String = "the value") throws {
        guard let value = unwrapOptional(value) else {
            self = .null
            return
        }
        // The usual arguments, recognised by type identity before the chain of casts below.
        switch type(of: value) {
        case is String.Type:
            self = .string(value as! String)
            return
        case is Int.Type:
            self = .int(value as! Int)
            return
        case is Double.Type:
            self = .double(value as! Double)
            return
        case is Bool.Type:
            self = .bool(value as! Bool)
            return
        case is Date.Type:
            self = .date(value as! Date)
            return
        default: break
        }
        if isNSNull(value) {
            self = .nsNull
            return
        }
        if let n = asNSNumber(value) {
            self = ConstantValue.fromNSNumber(n)
            return
        }
        switch value {
        case let c as ConstantValue: self = c
        case let c as PredicateArgumentConvertible: self = c.predicateConstant
        case let s as String: self = .string(s)
        case let s as Substring: self = .string(String(s))
        case let b as Bool: self = .bool(b)
        case let i as Int: self = .int(i)
        case let i as Int8: self = .int(Int(i))
        case let i as Int16: self = .int(Int(i))
        case let i as Int32: self = .int(Int(i))
        case let i as Int64: self = .int(Int(i))
        case let i as UInt8: self = .int(Int(i))
        case let i as UInt16: self = .int(Int(i))
        case let i as UInt32: self = .int(Int(i))
        case let i as UInt:
            guard let v = Int(exactly: i) else {
                self = .double(Double(i))
                return
            }
            self = .int(v)
        case let i as UInt64:
            guard let v = Int(exactly: i) else {
                self = .double(Double(i))
                return
            }
            self = .int(v)
        case let d as Double: self = .double(d)
        case let f as Float: self = .double(Double(f))
        case let d as Decimal: self = .decimal(d)
        case let d as Date: self = .date(d)
        case let d as Data: self = .data(d)
        case let u as UUID: self = .uuid(u)
        case let u as URL: self = .url(u)
        case let p as Predicate:
            throw PredicateError(
                .invalidArgument,
                "\(argument) is a predicate (\(p.predicateFormat)); %@ stands for a value, never a whole predicate. Combine predicates with Predicate.and, .or or .not instead"
            )
        case let a as [Any?]:
            self = .array(try a.map { try ConstantValue(argument: $0, describedAs: argument) })
        case let a as [Any]:
            self = .array(try a.map { try ConstantValue(argument: $0, describedAs: argument) })
        case let s as Set<AnyHashable>:
            self = .set(Set(try s.map { try ConstantValue(argument: $0.base, describedAs: argument) }))
        case let d as [String: Any?]:
            self = .dictionary(try d.mapValues { try ConstantValue(argument: $0, describedAs: argument) })
        case let d as [String: Any]:
            self = .dictionary(try d.mapValues { try ConstantValue(argument: $0, describedAs: argument) })
        case let h as any (Hashable & Sendable):
            self = .reference(ObjectReference(h, description: String(describing: h)))
        default:
            throw PredicateError(
                .invalidArgument,
                "\(argument) has type \(type(of: value)), which a predicate cannot hold; pass a string, number, date, data, UUID, URL, array, set or dictionary, or adopt PredicateArgumentConvertible"
            )
        }
    }

    static func fromNSNumber(_ n: NSNumber) -> ConstantValue {
        let type = String(cString: n.objCType)
        switch type {
        case "c", "B": return .bool(n.boolValue)
        case "f", "d": return .double(n.doubleValue)
        case "Q", "L":
            if let v = Int(exactly: n.uint64Value) { return .int(v) }
            return .double(n.doubleValue)
        default: return .int(n.intValue)
        }
    }

    /// The Swift value an evaluation works with.
    var runtimeValue: Any? {
        switch self {
        case .null: return nil
        case .nsNull: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .decimal(let d): return d
        case .string(let s): return s
        case .date(let d): return d
        case .data(let d): return d
        case .uuid(let u): return u
        case .url(let u): return u
        case .array(let a): return a.map { $0.runtimeValue ?? NSNull() }
        case .set(let s):
            // A set stays a set, so that it compares without regard to order.
            let elements = s.map { $0.runtimeValue ?? NSNull() }
            let hashable = elements.compactMap { $0 as? AnyHashable }
            return hashable.count == elements.count ? Set(hashable) : elements
        case .dictionary(let d): return d.mapValues { $0.runtimeValue ?? NSNull() }
        case .reference(let r): return r
        }
    }
}

/// Whether a value is of one of the common types that are neither optional, nor NSNull, nor
/// ``PredicateArgumentConvertible``: a test of the type's identity, much cheaper than a cast.
@inline(__always)
func isPlainValue(_ value: Any) -> Bool {
    let t = type(of: value)
    return t == String.self || t == Int.self || t == Double.self || t == Bool.self || t == Date.self
        || t == [String: Any].self || t == [Any].self || t == Decimal.self
}

/// Whether a value is Foundation's NSNull.
///
/// Written as a type test because `value is NSNull` bridges a Swift value (a dictionary, a
/// string, a number) to a new Foundation object before it can answer, which made it the most
/// expensive step of evaluating a predicate.
@inline(__always)
func isNSNull(_ value: Any) -> Bool {
    type(of: value) == NSNull.self
}

/// The value as an NSNumber when it is one, without bridging Swift values to find out.
@inline(__always)
func asNSNumber(_ value: Any) -> NSNumber? {
    guard type(of: value) is NSNumber.Type else { return nil }
    return value as? NSNumber
}

/// Unwraps `Optional<Any>` boxed inside an `Any`, so `Optional(nil)` reads as nil.
func unwrapOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    // The protocol test below is a conformance lookup; most values are of a few plain types
    // that a pointer comparison recognises first.
    if isPlainValue(value) { return value }
    if let optional = value as? OptionalProtocol { return optional.wrappedAny }
    return value
}

protocol OptionalProtocol { var wrappedAny: Any? { get } }
extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return unwrapOptional(wrapped)
        }
    }
}
