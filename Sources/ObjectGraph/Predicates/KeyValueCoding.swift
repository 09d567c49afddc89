import Foundation

/// Key-value coding for predicates: how a key path reaches into an object.
///
/// Linux has no Objective-C key-value coding, so predicates ask objects through this protocol.
/// Dictionaries, arrays and sets work without it; managed objects adopt it.
///
/// ```swift
/// struct Person: KeyValueCoding {
///     var name: String
///     func checkedValue(forKey key: String) throws -> Any? {
///         guard key == "name" else { throw PredicateError.unknownKey(key, on: self) }
///         return name
///     }
/// }
/// ```
public protocol KeyValueCoding {
    /// The value for one key (no dots). Throws ``PredicateError`` for a key the object does
    /// not have, as KVC raises NSUnknownKeyException.
    ///
    /// The `checked` name is the throwing form's, as ``ManagedObject/checkedValue(forKey:)``:
    /// a managed object's `value(forKey:)` is Apple's, which does not throw.
    func checkedValue(forKey key: String) throws -> Any?
}

/// A collection that predicates see through: `ANY`, `ALL`, `@count`, `IN` and SUBQUERY work on its
/// elements.
///
/// Managed objects' to-many relationships adopt it.
public protocol PredicateCollection {
    /// The elements, in a stable order.
    var predicateElements: [Any] { get }
}

extension PredicateError {
    /// NSUnknownKeyException's message, for a key an object does not have.
    public static func unknownKey(_ key: String, on object: Any) -> PredicateError {
        PredicateError(
            .unknownKey,
            "[<\(type(of: object))> valueForUndefinedKey:]: this class is not key value coding-compliant for the key \(key)."
        )
    }
}

/// Resolves key paths the way `valueForKeyPath:` does.
enum KeyPathResolver {
    /// The value at a dot-separated key path, with the collection operators `@count`, `@sum`,
    /// `@avg`, `@min`, `@max`, `@distinctUnionOfObjects` and `@unionOfObjects`.
    static func value(of object: Any?, keyPath: String) throws -> Any? {
        // Byte tests: with Foundation imported, `contains(".")` is NSString's range(of:),
        // which cost more than the rest of a key lookup.
        let utf8 = keyPath.utf8
        if utf8.first != UInt8(ascii: "@") && !utf8.contains(UInt8(ascii: ".")) {
            return try value(of: object, key: keyPath)
        }
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return try value(of: object, components: components[...])
    }

    private static func value(of object: Any?, components: ArraySlice<String>) throws -> Any? {
        var current = object
        var rest = components
        while let key = rest.first {
            rest = rest.dropFirst()
            if key.utf8.first == UInt8(ascii: "@") {
                return try collectionOperator(key, on: current, rest: rest)
            }
            current = try value(of: current, key: key)
        }
        return current
    }

    /// One key on one object.
    static func value(of object: Any?, key: String) throws -> Any? {
        guard let object = unwrapOptional(object), !isNSNull(object) else { return nil }
        switch object {
        case let d as [String: Any]:
            return unwrapOptional(d[key])
        case let kvc as KeyValueCoding:
            return unwrapOptional(try kvc.checkedValue(forKey: key))
        case let s as String:
            // NSString answers `length` through KVC.
            if key == "length" { return s.utf16.count }
            throw PredicateError.unknownKey(key, on: s)
        default:
            if let elements = collectionElements(object) {
                // KVC on a collection maps the key over its elements; nil becomes NSNull.
                return try elements.map { try value(of: $0, key: key) ?? NSNull() }
            }
            if let n = Number(object), let v = numberKey(key, of: n) { return v }
            if let d = object as? Date {
                // NSDate answers its accessors through KVC.
                if key == "timeIntervalSinceReferenceDate" { return d.timeIntervalSinceReferenceDate }
                if key == "timeIntervalSince1970" { return d.timeIntervalSince1970 }
            }
            throw PredicateError.unknownKey(key, on: object)
        }
    }

    /// NSNumber's accessors, which KVC answers, as in `expenses.@avg.doubleValue`.
    private static func numberKey(_ key: String, of n: Number) -> Any? {
        switch key {
        case "doubleValue", "floatValue": return n.doubleValue
        case "intValue", "integerValue", "longValue", "longLongValue", "shortValue":
            switch n {
            case .int(let i): return i
            default: return n.doubleValue.isFinite ? Int(exactly: n.doubleValue.rounded(.towardZero)) : nil
            }
        case "boolValue": return n.doubleValue != 0
        case "decimalValue": return n.decimalValue
        case "stringValue", "description":
            switch n {
            case .int(let i): return String(i)
            case .double(let d): return PredicatePrinter.format(ConstantValue.double(d))
            case .decimal(let d): return PredicatePrinter.format(ConstantValue.decimal(d))
            }
        default: return nil
        }
    }

    /// The elements of an array, a set or a ``PredicateCollection``; nil for anything else.
    static func collectionElements(_ value: Any?) -> [Any]? {
        guard let value = unwrapOptional(value) else { return nil }
        switch value {
        case let c as PredicateCollection: return c.predicateElements
        case is String, is [String: Any]: return nil
        case let a as [Any]: return a
        case let s as Set<AnyHashable>: return s.map(\.base)
        default: return nil
        }
    }

    private static func collectionOperator(_ op: String, on object: Any?, rest: ArraySlice<String>) throws -> Any? {
        guard let object = unwrapOptional(object) else { return nil }
        let elements: [Any]
        if let e = collectionElements(object) {
            elements = e
        } else if let d = object as? [String: Any] {
            elements = Array(d.values)
        } else {
            throw PredicateError(
                .invalidOperand,
                "The collection operator \(op) needs an array or a set, but the key path reached \(describeArgument(object))"
            )
        }
        switch op {
        case "@count":
            guard rest.isEmpty else {
                return try value(of: elements.count, components: rest)
            }
            return elements.count
        case "@sum", "@avg", "@min", "@max", "@distinctUnionOfObjects", "@unionOfObjects":
            let values = try elements.map { element -> Any? in
                rest.isEmpty ? element : try value(of: element, components: rest)
            }.compactMap { v -> Any? in
                guard let v = unwrapOptional(v), !isNSNull(v) else { return nil }
                return v
            }
            switch op {
            case "@sum": return try Aggregates.sum(values, operator: op)
            case "@avg": return values.isEmpty ? nil : try Aggregates.average(values, operator: op)
            case "@min": return try Aggregates.extreme(values, wantMaximum: false)
            case "@max": return try Aggregates.extreme(values, wantMaximum: true)
            case "@unionOfObjects": return values
            default:
                var seen: [Any] = []
                for v in values where !seen.contains(where: { ValueComparison.equal($0, v, []) }) { seen.append(v) }
                return seen
            }
        default:
            throw PredicateError(
                .unknownKey,
                "Unknown collection operator \(op); use @count, @sum, @avg, @min, @max, @distinctUnionOfObjects or @unionOfObjects"
            )
        }
    }
}
