import Foundation

/// A typed property of a ManagedObject subclass, read and written through the object's
/// context (Core Data's `@NSManaged`).
///
/// ```swift
/// final class Book: ManagedObject {
///     @Managed("title") var title: String?
///     @Managed("salesRank") var salesRank: Int32          // a scalar: 0 (or the default) when nil
///     @Managed("publisher") var publisher: Publisher?     // a to-one, as its class
///     @Managed("authors") var authors: Set<Author>        // a to-many ([Author] when ordered)
/// }
/// ```
///
/// Every attribute type reads as its Swift type, optional or not: integers as `Int16`, `Int32`,
/// `Int64` or `Int` (and `Double`, `Float`, `NSNumber`), decimals as `Decimal`, and so on. A
/// non-optional scalar (an integer, `Double`, `Float`, `Bool`) reads the attribute's default
/// value, or zero, when the value is nil, as Core Data's scalar accessors read nil as zero; other
/// types have no such value, so declare them optional as Xcode does (`String?`, `Date?`).
///
/// A key the entity does not have, or a type that cannot hold the value (a `String` property of an
/// integer attribute, a nil read through a non-optional `String`), is a programming error: the
/// access stops the program with a message naming the class, key and type.
@propertyWrapper
public struct Managed<Value> {
    /// The property's key in the entity.
    public let key: String

    /// Declares the key this property reads and writes.
    public init(_ key: String) { self.key = key }

    /// Unavailable: the value is read through the enclosing object (see the static subscript).
    @available(*, unavailable, message: "@Managed works only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object: an attribute type's Swift type straight
    /// from the stored value (``ManagedAttributeValue``), every other type by key.
    ///
    /// Inlinable, and inlined into each property's accessors, so that it is specialized in the
    /// subclass's module for the property's type: there the type test and the cast fold away
    /// and reading the wrapper's key through its key path (a literal there) becomes a load, as
    /// a generated accessor has them compiled in. Unspecialized, they cost several times the
    /// read itself (about 840 instructions for the key path alone).
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        @inline(__always) get {
            // Inlined into the property's getter, where the key path is a literal: the
            // optimizer turns reading the wrapper's key into a load.
            typedValue(of: object, key: object[keyPath: storageKeyPath].key)
        }
        @inline(__always) set {
            setTypedValue(newValue, of: object, key: object[keyPath: storageKeyPath].key)
        }
    }

    /// Sets the property: straight into the stored case for an attribute type's Swift type,
    /// else by key.
    @inlinable
    static func setTypedValue(_ newValue: Value, of object: ManagedObject, key: String) {
        do {
            if let value = newValue as? any ManagedAttributeValue, let i = object.settableAttributeIndex(forKey: key),
                try value.setManagedValue(in: object, at: i, type: object.attributeType(at: i))
            {
                return
            }
            try object.checkedSetValue(newValue, forKey: key)
        } catch {
            fatalError("\(type(of: object)).\(key): \(error)")
        }
    }

    /// The property's value: straight from the stored case for an attribute type's Swift
    /// type, else by key.
    @inlinable
    static func typedValue(of object: ManagedObject, key: String) -> Value {
        if let attributeType = Value.self as? any ManagedAttributeValue.Type,
            let i = object.loadedAttributeIndex(forKey: key),
            let value = directValue(attributeType, of: object, at: i)
        {
            return value
        }
        return keyValueCodingValue(of: object, key: key)
    }

    /// The stored value read as `T`, which is `Value` (opened from `Value.self`), or nil for the
    /// key-value path.
    @inlinable
    static func directValue<T: ManagedAttributeValue>(_ type: T.Type, of object: ManagedObject, at i: Int) -> Value? {
        // `as? Value` would be a runtime cast between two equal types: about 475 instructions for a
        // `String?`, more than the read. The types are checked equal, so the value is a `Value`.
        guard T.self == Value.self, let value = T.managedValue(in: object, at: i) else { return nil }
        return unsafeBitCast(value, to: Value.self)
    }
}

extension Managed {
    /// The property's value read by key and converted to `Value`: every property type's path, and
    /// the fallback of the attribute types' direct one (``ManagedAttributeValue``).
    @usableFromInline
    static func keyValueCodingValue(of object: ManagedObject, key: String) -> Value {
        let value: Any?
        do {
            value = try object.checkedValue(forKey: key)
        } catch {
            fatalError("\(type(of: object)).\(key): \(error)")
        }
        // The common case: the stored value already has the declared type (a to-one's class).
        if let typed = value as? Value { return typed }
        if let typed = ManagedValueConversion.convert(value, to: Value.self, in: object, key: key) { return typed }
        if unwrapOptional(value) == nil {
            fatalError(
                "\(type(of: object)).\(key) is nil, which a \(Value.self) cannot hold: declare the property \(Value.self)? (Core Data reads nil as zero only for scalars: integers, Double, Float, Bool)"
            )
        }
        fatalError(
            "\(type(of: object)).\(key): the value \(ManagedObject.describe(value)) (\(type(of: unwrapOptional(value)!))) is not a \(Value.self)"
        )
    }
}

/// Converts stored values to the type a typed property declares: numbers between their Swift
/// types (as an NSNumber converts), nil to a scalar's default or zero, to-many sets and arrays to
/// sets and arrays of the destination class.
enum ManagedValueConversion {
    /// The value as a `Value`, or nil when a `Value` cannot hold it.
    static func convert<Value>(_ value: Any?, to type: Value.Type, in object: ManagedObject? = nil, key: String? = nil)
        -> Value?
    {
        if let v = value as? Value { return v }
        guard let unwrapped = unwrapOptional(value) else {
            if let none = Optional<Any>.none as? Value { return none }
            // A non-optional scalar reads the attribute's default value, else zero, when nil.
            if let object, let key,
                let defaultValue = object.entity.attribute(named: key)?.defaultConstant?.runtimeValue,
                let typed = number(defaultValue, as: type)
            {
                return typed
            }
            return zero(of: type)
        }
        if let typed = number(unwrapped, as: type) { return typed }
        // To-many relationships: a set of objects, an ordered one as an array, to either
        // collection of the destination class.
        if let set = unwrapped as? Set<ManagedObject> {
            if let typed = set as? Value { return typed }
            return Array(set) as? Value
        }
        if let array = unwrapped as? [ManagedObject] {
            return array as? Value ?? Set(array) as? Value
        }
        return nil
    }

    /// Zero of a scalar type (false for Bool), or nil for a type that is not a scalar.
    static func zero<Value>(of type: Value.Type) -> Value? {
        switch type {
        case is Int.Type: return 0 as Int as? Value
        case is Int16.Type: return 0 as Int16 as? Value
        case is Int32.Type: return 0 as Int32 as? Value
        case is Int64.Type: return 0 as Int64 as? Value
        case is Double.Type: return 0 as Double as? Value
        case is Float.Type: return 0 as Float as? Value
        case is Bool.Type: return false as? Value
        default: return nil
        }
    }

    /// A number as another numeric type, where it fits (what NSNumber's `as?` bridging allows).
    static func number<Value>(_ value: Any, as type: Value.Type) -> Value? {
        guard let n = Number(value) else { return nil }
        switch type {
        case is Int.Type, is Int?.Type: return n.exactInt as? Value
        case is Int16.Type, is Int16?.Type: return n.exactInt.flatMap { Int16(exactly: $0) } as? Value
        case is Int32.Type, is Int32?.Type: return n.exactInt.flatMap { Int32(exactly: $0) } as? Value
        case is Int64.Type, is Int64?.Type: return n.exactInt.map { Int64($0) } as? Value
        case is Double.Type, is Double?.Type: return n.doubleValue as? Value
        case is Float.Type, is Float?.Type: return Float(n.doubleValue) as? Value
        case is Bool.Type, is Bool?.Type:
            guard let i = n.exactInt, i == 0 || i == 1 else { return nil }
            return (i == 1) as? Value
        case is Decimal.Type, is Decimal?.Type: return n.exactDecimal as? Value
        case is NSNumber.Type, is NSNumber?.Type:
            switch n {
            case .int(let i): return (value is Bool ? NSNumber(value: i == 1) : NSNumber(value: i)) as? Value
            case .double(let d): return NSNumber(value: d) as? Value
            case .decimal(let d): return NSDecimalNumber(decimal: d) as? Value
            }
        default: return nil
        }
    }
}
