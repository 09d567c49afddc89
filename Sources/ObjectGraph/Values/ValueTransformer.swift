import Foundation

/// The name a ``ValueTransformer`` is registered under (NSValueTransformerName): what a
/// transformable attribute's ``AttributeDescription/valueTransformerName`` names.
public struct ValueTransformerName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The name as a string.
    public let rawValue: String
    /// A name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A name.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The name.
    public var description: String { rawValue }

    /// `NSSecureUnarchiveFromData`: unarchives data into the Foundation classes secure coding
    /// allows, and archives them; Core Data's default for a transformable attribute.
    public static let secureUnarchiveFromDataTransformerName: ValueTransformerName = "NSSecureUnarchiveFromData"
    /// `NSKeyedUnarchiveFromData`: the same without checking classes; the default before
    /// macOS 10.14 and iOS 12, which many stores were written with.
    public static let keyedUnarchiveFromDataTransformerName: ValueTransformerName = "NSKeyedUnarchiveFromData"
    /// `NSUnarchiveFromData`: NSArchiver's old non-keyed format, which Foundation on Linux cannot
    /// read; registered so that the error names it.
    public static let unarchiveFromDataTransformerName: ValueTransformerName = "NSUnarchiveFromData"
    /// `NSNegateBoolean`: true for false and the reverse.
    public static let negateBooleanTransformerName: ValueTransformerName = "NSNegateBoolean"
    /// `NSIsNil`: whether the value is nil.
    public static let isNilTransformerName: ValueTransformerName = "NSIsNil"
    /// `NSIsNotNil`: whether the value is not nil.
    public static let isNotNilTransformerName: ValueTransformerName = "NSIsNotNil"
}

/// Turns values into other values and, where it allows, back (NSValueTransformer): Core Data
/// stores a transformable attribute's value as the data its transformer makes.
///
/// Subclass it and override ``transformedValue(_:)`` (value to data) and
/// ``reverseTransformedValue(_:)`` (data to value), then register an instance under the name the
/// model gives:
///
/// ```swift
/// final class ColorTransformer: ValueTransformer {
///     override func transformedValue(_ value: Any?) -> Any? { (value as? Color)?.data }
///     override func reverseTransformedValue(_ value: Any?) -> Any? { (value as? Data).flatMap(Color.init) }
/// }
/// ValueTransformer.setValueTransformer(ColorTransformer(), forName: ValueTransformerName("ColorTransformer"))
/// ```
///
/// Foundation on Linux has no `ValueTransformer`; this one has Apple's API and registry, and
/// the transformers Foundation registers (``ValueTransformerName``). Registered transformers are
/// shared between threads: keep them free of mutable state.
open class ValueTransformer: @unchecked Sendable {
    /// A transformer.
    public init() {}

    /// Whether ``reverseTransformedValue(_:)`` is supported; true unless overridden.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The value transformed; this implementation returns it unchanged.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The transformation undone; this implementation calls ``transformedValue(_:)``, as
    /// Apple's does, when the transformer allows reverse transformation, and is nil otherwise.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        Self.allowsReverseTransformation() ? transformedValue(value) : nil
    }

    /// Registers `transformer` under `name`, replacing what was there; nil removes it.
    public static func setValueTransformer(_ transformer: ValueTransformer?, forName name: ValueTransformerName) {
        Registry.shared.set(transformer, name)
    }

    /// The transformer registered under `name`, or nil (NSValueTransformer valueTransformerForName:).
    public static func valueTransformer(forName name: ValueTransformerName) -> ValueTransformer? {
        Registry.shared.get(name)
    }

    /// The names transformers are registered under, in name order.
    public static func valueTransformerNames() -> [ValueTransformerName] {
        Registry.shared.names().sorted { $0.rawValue < $1.rawValue }
    }

    /// The shared table of transformers by name, with Foundation's own registered.
    final class Registry: @unchecked Sendable {
        static let shared = Registry()
        private let lock = NSLock()
        private var transformers: [ValueTransformerName: ValueTransformer] = [
            .secureUnarchiveFromDataTransformerName: SecureUnarchiveFromDataTransformer(),
            .keyedUnarchiveFromDataTransformerName: KeyedUnarchiveFromDataTransformer(),
            .unarchiveFromDataTransformerName: UnarchiveFromDataTransformer(),
            .negateBooleanTransformerName: NegateBooleanTransformer(),
            .isNilTransformerName: IsNilTransformer(isNil: true),
            .isNotNilTransformerName: IsNilTransformer(isNil: false),
        ]

        func set(_ transformer: ValueTransformer?, _ name: ValueTransformerName) {
            lock.lock()
            defer { lock.unlock() }
            transformers[name] = transformer
        }

        func get(_ name: ValueTransformerName) -> ValueTransformer? {
            lock.lock()
            defer { lock.unlock() }
            if let found = transformers[name] { return found }
            // Apple: a name nothing is registered under is tried as the name of a
            // NSValueTransformer subclass, which is made and registered under it. Xcode's model
            // editor writes the class name NSSecureUnarchiveFromDataTransformer this way.
            guard name.rawValue == "NSSecureUnarchiveFromDataTransformer" else { return nil }
            let made = SecureUnarchiveFromDataTransformer()
            transformers[name] = made
            return made
        }

        func names() -> [ValueTransformerName] {
            lock.lock()
            defer { lock.unlock() }
            return Array(transformers.keys)
        }
    }
}

/// The transformers whose forward direction turns data into a value (Foundation's
/// "unarchive from data" family): Core Data runs them backwards, reverse-transforming a value
/// into data to save it and transforming data to read it, where it runs any other transformer
/// forwards to save.
open class UnarchivingValueTransformer: ValueTransformer, @unchecked Sendable {
    /// Data to the value it archives, or why not (the store's error says it).
    func unarchive(_ data: Data) throws -> Any? {
        guard let value = transformedValue(data) else {
            throw KeyedArchive.Failure("\(type(of: self)) gave no value for the data")
        }
        return value
    }

    /// A value to its archive, or why not.
    func archive(_ value: Any) throws -> Data {
        guard let data = reverseTransformedValue(value) as? Data else {
            throw KeyedArchive.Failure("\(type(of: self)) gave no data for the value")
        }
        return data
    }

    /// Data to the value it archives; nil when it cannot be read.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? unarchive(data)
    }

    /// A value to its archive; nil when it cannot be archived.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value = unwrapOptional(value) else { return nil }
        return try? archive(value)
    }
}

/// NSSecureUnarchiveFromDataTransformer: data to a value of the classes
/// ``allowedTopLevelClassNames`` allows (Apple's default list, ``KeyedArchive/secureCodingClassNames``),
/// and back. Subclass it and override that list to allow more, as Apple's documentation says
/// to do with `allowedTopLevelClasses` (a custom class comes back as a
/// ``KeyedArchive/ArchivedObject``).
open class SecureUnarchiveFromDataTransformer: UnarchivingValueTransformer, @unchecked Sendable {
    /// The class names an archive may hold (NSSecureUnarchiveFromDataTransformer allowedTopLevelClasses).
    open class var allowedTopLevelClassNames: Set<String> { KeyedArchive.secureCodingClassNames }

    override func unarchive(_ data: Data) throws -> Any? {
        try KeyedArchive.unarchivedValue(from: data, allowedClassNames: Self.allowedTopLevelClassNames)
    }

    override func archive(_ value: Any) throws -> Data {
        try KeyedArchive.archivedData(withRootValue: value, allowedClassNames: Self.allowedTopLevelClassNames)
    }
}

/// NSKeyedUnarchiveFromData: the keyed archive of any class this reader knows, unchecked.
final class KeyedUnarchiveFromDataTransformer: SecureUnarchiveFromDataTransformer, @unchecked Sendable {
    override class var allowedTopLevelClassNames: Set<String> { KeyedArchive.foundationClassNames }
}

/// NSUnarchiveFromData: NSArchiver's non-keyed "typedstream" format, which only Apple's
/// Foundation reads; a keyed archive (what newer writers put there) is read as the keyed one.
final class UnarchiveFromDataTransformer: UnarchivingValueTransformer, @unchecked Sendable {
    override func unarchive(_ data: Data) throws -> Any? {
        guard data.starts(with: Array("bplist".utf8)) else {
            throw KeyedArchive.Failure(
                "the data is an NSArchiver (typedstream) archive, which ObjectGraph cannot read; register a ValueTransformer for NSUnarchiveFromData that can"
            )
        }
        return try KeyedArchive.unarchivedValue(from: data, allowedClassNames: KeyedArchive.foundationClassNames)
    }

    override func archive(_ value: Any) throws -> Data {
        throw KeyedArchive.Failure(
            "NSUnarchiveFromData writes NSArchiver's typedstream format, which ObjectGraph cannot write; use NSSecureUnarchiveFromData"
        )
    }
}

/// NSNegateBoolean.
final class NegateBooleanTransformer: ValueTransformer, @unchecked Sendable {
    override func transformedValue(_ value: Any?) -> Any? { (value as? Bool).map { !$0 } }
}

/// NSIsNil and NSIsNotNil: one-way.
final class IsNilTransformer: ValueTransformer, @unchecked Sendable {
    let isNil: Bool
    init(isNil: Bool) { self.isNil = isNil }
    override class func allowsReverseTransformation() -> Bool { false }
    override func transformedValue(_ value: Any?) -> Any? { (unwrapOptional(value) == nil) == isNil }
}
