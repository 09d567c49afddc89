import Foundation

/// The type of an attribute's values: NSAttributeType, with Apple's raw values.
public enum AttributeType: Int, Hashable, Sendable, CaseIterable {
    /// No type: allowed only for transient attributes, whose values never reach a store.
    case undefined = 0
    /// A 16-bit integer.
    case integer16 = 100
    /// A 32-bit integer.
    case integer32 = 200
    /// A 64-bit integer.
    case integer64 = 300
    /// A decimal number (Foundation's Decimal).
    case decimal = 400
    /// A double.
    case double = 500
    /// A float.
    case float = 600
    /// A string.
    case string = 700
    /// A boolean.
    case boolean = 800
    /// A date.
    case date = 900
    /// Binary data.
    case binaryData = 1000
    /// A UUID.
    case uuid = 1100
    /// A URL.
    case uri = 1200
    /// A value a value transformer turns into data for the store (``AttributeDescription/valueTransformerName``).
    case transformable = 1800
    /// An object ID: the type of expression descriptions' results only, never of an entity's attribute.
    case objectID = 2000
    /// A composite of other attributes (NSCompositeAttributeDescription, ``AttributeDescription/elements``).
    case composite = 2100

    /// The name Xcode's model files use (`Integer 16`, `String`, ...).
    public var xcodeName: String {
        switch self {
        case .integer16: return "Integer 16"
        case .integer32: return "Integer 32"
        case .integer64: return "Integer 64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Boolean"
        case .date: return "Date"
        case .binaryData: return "Binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .undefined: return "Undefined"
        case .transformable: return "Transformable"
        case .objectID: return "ObjectID"
        case .composite: return "Composite"
        }
    }

    /// Whether values are numbers (booleans included).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: return true
        default: return false
        }
    }

    /// Whether values are whole numbers.
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// The range an integer type holds.
    var integerRange: ClosedRange<Int>? {
        switch self {
        case .integer16: return Int(Int16.min)...Int(Int16.max)
        case .integer32: return Int(Int32.min)...Int(Int32.max)
        case .integer64: return Int.min...Int.max
        default: return nil
        }
    }
}

/// An attribute of an entity: NSAttributeDescription.
///
/// ```swift
/// AttributeDescription("title", .string, optional: false, maxValue: 200)
/// ```
///
/// or, as Apple's documentation builds one:
///
/// ```swift
/// let title = NSAttributeDescription()
/// title.name = "title"
/// title.attributeType = .stringAttributeType
/// title.isOptional = false
/// ```
public class AttributeDescription: PropertyDescription, @unchecked Sendable {
    /// The type of its values.
    public var attributeType: AttributeType { willSet { willMutate() } }
    /// The value a new object starts with, as a constant (what ``defaultValue`` gives and takes).
    public var defaultConstant: ConstantValue? { willSet { willMutate() } }
    /// The smallest value (numbers), length (strings) or time since 2001 (dates) allowed.
    public var minValue: Double? { willSet { willMutate() } }
    /// The largest value, length or date allowed.
    public var maxValue: Double? { willSet { willMutate() } }
    /// A regular expression every string value must match as a whole.
    public var regularExpression: String? { willSet { willMutate() } }
    /// Whether the store keeps an index on it.
    public var isIndexed: Bool { willSet { willMutate() } }
    /// For a derived attribute (NSDerivedAttributeDescription), the expression its value is
    /// computed from (Xcode: `derived="YES" derivationExpression="…"`); nil for other attributes.
    public var derivationExpression: Expression? { willSet { willMutate() } }
    /// Whether a binary value may be kept in a file beside the store rather than in it.
    public var allowsExternalBinaryDataStorage: Bool { willSet { willMutate() } }
    /// Whether persistent history keeps the value of a deleted object (Xcode: `preserveAfterDeletion`).
    public var preservesValueInHistoryOnDeletion: Bool { willSet { willMutate() } }
    /// For a transformable attribute, the name of the ValueTransformer that turns values into data.
    public var valueTransformerName: String? { willSet { willMutate() } }
    /// For a transformable attribute, the class of its values (Xcode: `customClassName`).
    public var attributeValueClassName: String? { willSet { willMutate() } }
    /// For a composite attribute (NSCompositeAttributeDescription), the attributes it is made of.
    public var elements: [AttributeDescription] { willSet { willMutate() } }
    /// For a composite attribute, the name of the composite type Xcode declares it with
    /// (`<composite name="…">` in the model file); nil elsewhere.
    public var compositeTypeName: String? { willSet { willMutate() } }
    /// Whether CloudKit encrypts the value (Xcode: `allowsCloudEncryption`).
    public var allowsCloudEncryption: Bool { willSet { willMutate() } }
    /// Whether Spotlight indexes the value (Xcode: `spotlightIndexingEnabled`).
    public var isIndexedBySpotlight: Bool { willSet { willMutate() } }

    /// The value a new object starts with (NSAttributeDescription.defaultValue): a string,
    /// number, date, data, UUID or URL; a value a predicate cannot hold is dropped (nil).
    public var defaultValue: Any? {
        get { defaultConstant?.runtimeValue }
        set { defaultConstant = newValue.flatMap { try? ConstantValue(argument: $0) } }
    }

    /// Whether it is a derived attribute: its value computed from ``derivationExpression``.
    public var isDerived: Bool { derivationExpression != nil }

    /// The attribute's version hash, as Core Data computes it (<doc:OpeningStoresThatCoreDataWrote>):
    /// from its name, flags, type and the two storage flags; for a derived attribute from its
    /// expression only; for a composite from its elements' hashes.
    public override var versionHash: Data { Data(VersionHash.attribute(self)) }

    /// An empty attribute, as Apple's `init()` makes it: no name, type Undefined, optional.
    public convenience init() { self.init("", .undefined) }

    /// Describes an attribute.
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = true, defaultValue: Any? = nil,
        transient: Bool = false, indexed: Bool = false, minValue: Double? = nil, maxValue: Double? = nil,
        regularExpression: String? = nil, renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        derivationExpression: Expression? = nil, allowsExternalBinaryDataStorage: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false, valueTransformerName: String? = nil,
        attributeValueClassName: String? = nil, elements: [AttributeDescription] = [],
        compositeTypeName: String? = nil
    ) {
        self.attributeType = type
        self.defaultConstant = defaultValue.flatMap { try? ConstantValue(argument: $0) }
        self.isIndexed = indexed
        self.minValue = minValue
        self.maxValue = maxValue
        self.regularExpression = regularExpression
        self.derivationExpression = derivationExpression
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.valueTransformerName = valueTransformerName
        self.attributeValueClassName = attributeValueClassName
        self.elements = elements
        self.compositeTypeName = compositeTypeName
        self.allowsCloudEncryption = false
        self.isIndexedBySpotlight = false
        super.init(
            name: name, isOptional: optional, isTransient: transient, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, userInfo: userInfo)
    }

    /// A copy that belongs to no entity or model (its composite elements copied too).
    public override func copy() -> AttributeDescription {
        let c = AttributeDescription(
            name, attributeType, optional: isOptional, transient: isTransient, indexed: isIndexed,
            minValue: minValue, maxValue: maxValue, regularExpression: regularExpression,
            renamingIdentifier: renamingIdentifier, versionHashModifier: versionHashModifier,
            userInfo: userInfo, derivationExpression: derivationExpression,
            allowsExternalBinaryDataStorage: allowsExternalBinaryDataStorage,
            preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion,
            valueTransformerName: valueTransformerName,
            attributeValueClassName: attributeValueClassName,
            elements: elements.map { $0.copy() }, compositeTypeName: compositeTypeName)
        c.defaultConstant = defaultConstant
        c.allowsCloudEncryption = allowsCloudEncryption
        c.isIndexedBySpotlight = isIndexedBySpotlight
        return c
    }

    override func isEqual(to other: PropertyDescription) -> Bool {
        guard let o = other as? AttributeDescription, super.isEqual(to: other) else { return false }
        return attributeType == o.attributeType && defaultConstant == o.defaultConstant && minValue == o.minValue
            && maxValue == o.maxValue && regularExpression == o.regularExpression && isIndexed == o.isIndexed
            && derivationExpression == o.derivationExpression
            && allowsExternalBinaryDataStorage == o.allowsExternalBinaryDataStorage
            && preservesValueInHistoryOnDeletion == o.preservesValueInHistoryOnDeletion
            && valueTransformerName == o.valueTransformerName && attributeValueClassName == o.attributeValueClassName
            && elements == o.elements && compositeTypeName == o.compositeTypeName
            && allowsCloudEncryption == o.allowsCloudEncryption && isIndexedBySpotlight == o.isIndexedBySpotlight
    }

    /// Freezes the attribute and its composite elements.
    func freeze() {
        isFrozen = true
        for e in elements { e.freeze() }
    }
}
