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

/// An attribute of an entity: NSAttributeDescription, as a value type.
///
/// ```swift
/// AttributeDescription("title", .string, optional: false, maxValue: 200)
/// ```
public struct AttributeDescription: Hashable, Sendable {
    /// The attribute's name, a key of the entity.
    public var name: String
    /// The type of its values.
    public var attributeType: AttributeType
    /// Whether it may be nil when saved (Core Data's default is true).
    public var isOptional: Bool
    /// The value a new object starts with.
    public var defaultValue: ConstantValue?
    /// A transient attribute lives in memory only: never stored, never fetched by in SQL.
    public var isTransient: Bool
    /// Whether the store keeps an index on it.
    public var isIndexed: Bool
    /// The smallest value (numbers), length (strings) or time since 2001 (dates) allowed.
    public var minValue: Double?
    /// The largest value, length or date allowed.
    public var maxValue: Double?
    /// A regular expression every string value must match as a whole.
    public var regularExpression: String?
    /// The name this attribute had in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// Free-form information for the application.
    public var userInfo: [String: String]
    /// For a derived attribute (NSDerivedAttributeDescription), the expression its value is
    /// computed from (Xcode: `derived="YES" derivationExpression="…"`); nil for other attributes.
    public var derivationExpression: Expression?
    /// Whether a binary value may be kept in a file beside the store rather than in it.
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether persistent history keeps the value of a deleted object (Xcode: `preserveAfterDeletion`).
    public var preservesValueInHistoryOnDeletion: Bool
    /// For a transformable attribute, the name of the ValueTransformer that turns values into data.
    public var valueTransformerName: String?
    /// For a transformable attribute, the class of its values (Xcode: `customClassName`).
    public var attributeValueClassName: String?
    /// For a composite attribute (NSCompositeAttributeDescription), the attributes it is made of.
    public var elements: [AttributeDescription]
    /// For a composite attribute, the name of the composite type Xcode declares it with
    /// (`<composite name="…">` in the model file); nil elsewhere.
    public var compositeTypeName: String?
    /// Whether CloudKit encrypts the value (Xcode: `allowsCloudEncryption`).
    public var allowsCloudEncryption: Bool
    /// Whether Spotlight indexes the value (Xcode: `spotlightIndexingEnabled`).
    public var isIndexedBySpotlight: Bool

    /// Whether it is a derived attribute: its value computed from ``derivationExpression``.
    public var isDerived: Bool { derivationExpression != nil }

    /// The attribute's version hash, as Core Data computes it (<doc:OpeningStoresThatCoreDataWrote>):
    /// from its name, flags, type and the two storage flags; for a derived attribute from its
    /// expression only; for a composite from its elements' hashes.
    public var versionHash: Data { Data(VersionHash.attribute(self)) }

    /// Describes an attribute.
    public init(_ name: String, _ type: AttributeType, optional: Bool = true, defaultValue: Any? = nil,
                transient: Bool = false, indexed: Bool = false, minValue: Double? = nil, maxValue: Double? = nil,
                regularExpression: String? = nil, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, userInfo: [String: String] = [:],
                derivationExpression: Expression? = nil, allowsExternalBinaryDataStorage: Bool = false,
                preservesValueInHistoryOnDeletion: Bool = false, valueTransformerName: String? = nil,
                attributeValueClassName: String? = nil, elements: [AttributeDescription] = [],
                compositeTypeName: String? = nil) {
        self.name = name
        self.attributeType = type
        self.isOptional = optional
        self.defaultValue = defaultValue.flatMap { try? ConstantValue(argument: $0) }
        self.isTransient = transient
        self.isIndexed = indexed
        self.minValue = minValue
        self.maxValue = maxValue
        self.regularExpression = regularExpression
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.derivationExpression = derivationExpression
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.valueTransformerName = valueTransformerName
        self.attributeValueClassName = attributeValueClassName
        self.elements = elements
        self.compositeTypeName = compositeTypeName
        self.allowsCloudEncryption = false
        self.isIndexedBySpotlight = false
    }
}
