import Foundation

/// Converts a value set on an attribute to the type the attribute stores, or explains why not.
extension AttributeValue {
    /// The common case, decided by the attribute's type alone: nil stays nil, and a value that
    /// already has the stored type is kept as is. Returns nil (no answer) for anything else,
    /// which ``convert(_:for:entity:)`` then converts or refuses. Every value an application
    /// sets goes through here, so it tests type identity, without a cast or the description.
    @inline(__always)
    static func storedAsIs(_ value: Any?, type: AttributeType) -> AttributeValue? {
        guard let value else { return .null }
        // payload(_:as:) compares type pointers and takes the value out of the existential
        // without the runtime's general cast.
        switch type {
        case .string: if let s = payload(value, as: String.self) { return .string(s) }
        case .integer64: if let i = payload(value, as: Int.self) { return .int(i) }
        case .double: if let d = payload(value, as: Double.self) { return .double(d) }
        case .boolean: if let b = payload(value, as: Bool.self) { return .bool(b) }
        case .date: if let d = payload(value, as: Date.self) { return .date(d) }
        case .integer16, .integer32:
            if let i = payload(value, as: Int.self), type.integerRange!.contains(i) { return .int(i) }
        default: break
        }
        return nil
    }

    /// Whether a value is already of the type an attribute stores (or nil), by type identity
    /// alone, without casting it: what validation asks of every stored value.
    @inline(__always)
    static func isStoredAsIs(_ value: Any?, type: AttributeType) -> Bool {
        guard let value else { return true }
        let t = Swift.type(of: value)
        switch type {
        case .string: return t == String.self
        case .integer64: return t == Int.self
        case .integer16, .integer32:
            guard t == Int.self, let i = payload(value, as: Int.self) else { return false }
            return type.integerRange!.contains(i)
        case .double, .float: return t == Double.self
        case .boolean: return t == Bool.self
        case .date: return t == Date.self
        case .decimal: return t == Decimal.self
        case .binaryData: return t == Data.self
        case .uuid: return t == UUID.self
        case .uri: return t == URL.self
        default: return false
        }
    }

    /// The value as a `T` when its dynamic type is exactly `T`, else nil.
    ///
    /// Kept for the numbers: `value as? T` is the runtime's general cast, and every value set by
    /// key goes through here (Benchmarks/PROFILES.md, "exact cast"). The existential is
    /// opened (SE-0352, not `_openExistential`), its dynamic type compared with `T`, and only
    /// then are the bits reinterpreted, as the same type.
    @inline(__always)
    private static func payload<T>(_ value: Any, as type: T.Type) -> T? {
        func open<V>(_ v: V) -> T? {
            guard V.self == T.self else { return nil }
            return unsafeBitCast(v, to: T.self)
        }
        return open(value)
    }

    /// A value set on an attribute, converted to the attribute's case (see ``convert(_:for:entity:)``).
    static func converted(_ value: Any?, for a: AttributeDescription, entity: String) throws -> AttributeValue {
        AttributeValue(try convert(value, for: a, entity: entity))
    }

    /// A value set on an attribute as the Swift type the attribute stores, or an error naming the
    /// entity, the key and the types.
    static func convert(_ value: Any?, for a: AttributeDescription, entity: String) throws -> Any? {
        guard let value = unwrapOptional(value) else { return nil }
        // A value that already has the stored type, the common case, is kept as is.
        switch (a.attributeType, Swift.type(of: value)) {
        case (.string, is String.Type), (.integer64, is Int.Type), (.double, is Double.Type), (.boolean, is Bool.Type),
            (.date, is Date.Type):
            return value
        case (.integer16, is Int.Type), (.integer32, is Int.Type):
            if a.attributeType.integerRange!.contains(value as! Int) { return value }
        default:
            break
        }
        guard !(value is NSNull) else { return nil }
        func wrongType() -> CoreDataError {
            CoreDataError(
                exception: .invalidArgument,
                "Unacceptable type of value for attribute: property = \"\(a.name)\"; desired type = \(a.attributeType.xcodeName); given = \(describeArgument(value)) (entity \(entity))",
                key: a.name)
        }
        switch a.attributeType {
        case .integer16, .integer32, .integer64:
            guard !(value is Bool), let n = Number(value), let i = n.exactInt else { throw wrongType() }
            guard a.attributeType.integerRange!.contains(i) else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "\(i) does not fit in \(entity).\(a.name), an \(a.attributeType.xcodeName) attribute", key: a.name)
            }
            return i
        case .double, .float:
            guard !(value is Bool), let n = Number(value) else { throw wrongType() }
            let d = n.doubleValue
            guard a.attributeType == .float else { return d }
            let f = Float(d)
            // A finite Double beyond Float's range would become an infinity.
            guard f.isFinite || !d.isFinite else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "\(d) does not fit in \(entity).\(a.name), a Float attribute (largest magnitude \(Float.greatestFiniteMagnitude))",
                    key: a.name)
            }
            return Double(f)
        case .decimal:
            // A Decimal is kept as it is, NaN included (a store that cannot keep it says so).
            if let d = value as? Decimal { return d }
            guard !(value is Bool), let n = Number(value) else { throw wrongType() }
            // A Double becomes the decimal of its shortest representation (19.99, not
            // 19.98999999999999488); NaN, the infinities and magnitudes beyond Decimal's
            // range have no Decimal, and Foundation's Decimal(Double) traps on them.
            guard let d = n.exactDecimal else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "\(describeArgument(value)) cannot be the value of \(entity).\(a.name), a Decimal attribute: a Decimal holds finite numbers of at most 38 digits, with exponents from -128 to 127; use a Double attribute for infinities",
                    key: a.name)
            }
            return d
        case .boolean:
            if let b = value as? Bool { return b }
            if let n = Number(value), let i = n.exactInt, i == 0 || i == 1 { return i == 1 }
            throw wrongType()
        case .string:
            guard let s = value as? String else { throw wrongType() }
            return s
        case .date:
            guard let d = value as? Date else { throw wrongType() }
            return d
        case .binaryData:
            guard let d = value as? Data else { throw wrongType() }
            return d
        case .uuid:
            guard let u = value as? UUID else { throw wrongType() }
            return u
        case .uri:
            guard let u = value as? URL else { throw wrongType() }
            return u
        case .undefined, .transformable:
            // Any value: a transient Undefined attribute holds what the application puts in it,
            // and a transformable one any value its transformer takes.
            return value
        case .composite:
            guard let d = value as? [String: Any] else { throw wrongType() }
            return d
        case .objectID:
            guard let id = value as? ManagedObjectID else { throw wrongType() }
            return id
        }
    }
}
