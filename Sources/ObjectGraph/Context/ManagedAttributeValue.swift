import Foundation

/// A Swift type that a ``Managed`` property reads and writes straight from the object's stored
/// value, without `Any` and without a dynamic cast: the Swift types of the attribute types
/// (`String`, `Int`, `Int16`, `Int32`, `Int64`, `Double`, `Float`, `Bool`, `Decimal`, `Date`,
/// `Data`, `UUID`, `URL`) and their optionals.
///
/// This is what makes a typed property as fast as Core Data's generated accessors: reading
/// `book.title` switches on the stored case. Every other property type (a to-one's class, a
/// to-many's set, `NSNumber`, a transformable's type) goes through key-value coding, with the
/// same meaning. When a stored value is not of the property's type, or a non-optional scalar is
/// nil, the requirements answer nil or false and the key-value path decides, so the two paths
/// never disagree. Conforming a type outside ObjectGraph gains nothing.
public protocol ManagedAttributeValue {
    /// The loaded attribute's value as this type, or nil where key-value coding must decide.
    static func managedValue(in object: ManagedObject, at index: Int) -> Self?
    /// Stores the value into the attribute when it already is of the attribute's type, and says
    /// whether it did; false where key-value coding must convert or refuse it.
    func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool
}

extension ManagedObject {
    /// The index of the attribute a typed property reads, by key, while the object's values are
    /// loaded; nil (a fault, a relationship, an unknown key) for the key-value path.
    @usableFromInline
    func loadedAttributeIndex(forKey key: String) -> Int? {
        guard !isFault, let i = entity.shared.index(ofProperty: key), i < entity.shared.attributeCount else {
            return nil
        }
        return i
    }

    /// The index of an attribute a typed property may set directly, or nil for the key-value path.
    @usableFromInline
    func settableAttributeIndex(forKey key: String) -> Int? {
        guard managedObjectContext != nil, let i = entity.shared.index(ofProperty: key),
            i < entity.shared.attributeCount
        else { return nil }
        return i
    }

    /// The type of the attribute at an index.
    @usableFromInline
    func attributeType(at i: Int) -> AttributeType { entity.shared.attributeTypes[i] }

    /// Whether the stored value at an index is nil.
    @usableFromInline
    func storedValueIsNull(at i: Int) -> Bool { storage[i].isNull }

    /// Sets an attribute to nil, through the context's checks.
    @usableFromInline
    func setStoredNull(at i: Int) throws { try setStoredAttribute(.null, at: i) }

    /// Sets an attribute to a value of its case, through the context's checks.
    @inline(__always)
    func setStoredAttribute(_ value: AttributeValue, at i: Int) throws {
        guard let context = managedObjectContext else {
            throw CoreDataError(
                exception: .objectInaccessible,
                "Can't set \(entity.propertyNames[i]) on \(objectID.uriString): the object is not in a context (it was deleted or its context was reset)",
                objectURI: objectID.uriString, key: entity.propertyNames[i])
        }
        try context.setAttribute(value, of: self, at: i)
    }
}

// MARK: The attribute types' Swift types

extension String: ManagedAttributeValue {
    /// The stored string.
    public static func managedValue(in object: ManagedObject, at index: Int) -> String? {
        if case .string(let s) = object.storage[index] { return s }
        return nil
    }
    /// Stores into a String attribute.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .string else { return false }
        try object.setStoredAttribute(.string(self), at: index)
        return true
    }
}

extension Int: ManagedAttributeValue {
    /// The stored integer, where it fits.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Int? {
        if case .int(let i) = object.storage[index] { return Int(exactly: i) }
        return nil
    }
    /// Stores into an integer attribute whose size holds the value.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard let range = type.integerRange, let i = Int(exactly: self), range.contains(i) else { return false }
        try object.setStoredAttribute(.int(i), at: index)
        return true
    }
}

extension Int16: ManagedAttributeValue {
    /// The stored integer, where it fits.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Int16? {
        if case .int(let i) = object.storage[index] { return Int16(exactly: i) }
        return nil
    }
    /// Stores into an integer attribute whose size holds the value.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard let range = type.integerRange, let i = Int(exactly: self), range.contains(i) else { return false }
        try object.setStoredAttribute(.int(i), at: index)
        return true
    }
}

extension Int32: ManagedAttributeValue {
    /// The stored integer, where it fits.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Int32? {
        if case .int(let i) = object.storage[index] { return Int32(exactly: i) }
        return nil
    }
    /// Stores into an integer attribute whose size holds the value.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard let range = type.integerRange, let i = Int(exactly: self), range.contains(i) else { return false }
        try object.setStoredAttribute(.int(i), at: index)
        return true
    }
}

extension Int64: ManagedAttributeValue {
    /// The stored integer, where it fits.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Int64? {
        if case .int(let i) = object.storage[index] { return Int64(exactly: i) }
        return nil
    }
    /// Stores into an integer attribute whose size holds the value.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard let range = type.integerRange, let i = Int(exactly: self), range.contains(i) else { return false }
        try object.setStoredAttribute(.int(i), at: index)
        return true
    }
}

extension Double: ManagedAttributeValue {
    /// The stored Double (or Float, widened).
    public static func managedValue(in object: ManagedObject, at index: Int) -> Double? {
        if case .double(let d) = object.storage[index] { return d }
        return nil
    }
    /// Stores into a Double attribute (a Float attribute narrows through key-value coding).
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .double else { return false }
        try object.setStoredAttribute(.double(self), at: index)
        return true
    }
}

extension Float: ManagedAttributeValue {
    /// The stored value as a Float.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Float? {
        if case .double(let d) = object.storage[index] { return Float(d) }
        return nil
    }
    /// Stores into a Float or Double attribute (widening is exact).
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .float || type == .double else { return false }
        try object.setStoredAttribute(.double(Double(self)), at: index)
        return true
    }
}

extension Bool: ManagedAttributeValue {
    /// The stored Boolean.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Bool? {
        if case .bool(let b) = object.storage[index] { return b }
        return nil
    }
    /// Stores into a Boolean attribute.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .boolean else { return false }
        try object.setStoredAttribute(.bool(self), at: index)
        return true
    }
}

extension Decimal: ManagedAttributeValue {
    /// The stored Decimal.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Decimal? {
        if case .decimal(let d) = object.storage[index] { return d }
        return nil
    }
    /// Stores into a Decimal attribute.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .decimal else { return false }
        try object.setStoredAttribute(.decimal(self), at: index)
        return true
    }
}

extension Date: ManagedAttributeValue {
    /// The stored Date.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Date? {
        if case .date(let d) = object.storage[index] { return d }
        return nil
    }
    /// Stores into a Date attribute.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .date else { return false }
        try object.setStoredAttribute(.date(self), at: index)
        return true
    }
}

extension Data: ManagedAttributeValue {
    /// The stored data.
    public static func managedValue(in object: ManagedObject, at index: Int) -> Data? {
        if case .data(let d) = object.storage[index] { return d }
        return nil
    }
    /// Stores into a Binary attribute.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .binaryData else { return false }
        try object.setStoredAttribute(.data(self), at: index)
        return true
    }
}

extension UUID: ManagedAttributeValue {
    /// The stored UUID.
    public static func managedValue(in object: ManagedObject, at index: Int) -> UUID? {
        if case .uuid(let u) = object.storage[index] { return u }
        return nil
    }
    /// Stores into a UUID attribute.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .uuid else { return false }
        try object.setStoredAttribute(.uuid(self), at: index)
        return true
    }
}

extension URL: ManagedAttributeValue {
    /// The stored URL.
    public static func managedValue(in object: ManagedObject, at index: Int) -> URL? {
        if case .url(let u) = object.storage[index] { return u }
        return nil
    }
    /// Stores into a URI attribute.
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard type == .uri else { return false }
        try object.setStoredAttribute(.url(self), at: index)
        return true
    }
}

extension Optional: ManagedAttributeValue where Wrapped: ManagedAttributeValue {
    // Inlinable, so that a subclass's module specializes them for its property types: generic,
    // they would look up the metadata of `Wrapped??` on every read.

    /// nil for a stored nil, else the wrapped type's reading.
    @inlinable
    public static func managedValue(in object: ManagedObject, at index: Int) -> Wrapped?? {
        if object.storedValueIsNull(at: index) { return .some(nil) }
        guard let value = Wrapped.managedValue(in: object, at: index) else { return nil }
        return .some(value)
    }
    /// Stores nil as nil, else as the wrapped type stores.
    @inlinable
    public func setManagedValue(in object: ManagedObject, at index: Int, type: AttributeType) throws -> Bool {
        guard let wrapped = self else {
            try object.setStoredNull(at: index)
            return true
        }
        return try wrapped.setManagedValue(in: object, at: index, type: type)
    }
}
