import Foundation

/// A property's value as a managed object, a store row and a save hold it: one case for each
/// kind of value an attribute type stores, and the object IDs of relationships.
///
/// This is the module's one value representation, from the SQLite statement
/// (`sqlite3_column_*` straight into a case, ``SQLiteColumns``) through the object's storage to
/// binding (``SQLiteWriter`` switches on the case): no existential box, no dynamic cast. `Any`
/// appears only at key-value coding (``ManagedObject/value(forKey:)`` reads ``any``,
/// `setValue(_:forKey:)` converts once with ``convert(_:for:entity:)``). Why an enum and not typed
/// columns per entity: Benchmarks/VALUE-REPRESENTATION.md.
///
/// Each attribute type has one case (the context converts every value it is given), so two
/// values of one property compare case by case:
///
/// | attribute type | case |
/// |---|---|
/// | Integer 16, 32, 64 | `int` |
/// | Double, Float (a Float's value, widened) | `double` |
/// | Decimal | `decimal` |
/// | Boolean | `bool` |
/// | String, Date, Binary, UUID, URI | `string`, `date`, `data`, `uuid`, `url` |
/// | ObjectID, and a to-one relationship | `objectID` |
/// | a to-many relationship | `objectIDs` (`null` while not loaded) |
/// | Transformable, Undefined, Composite | `other` |
enum AttributeValue {
    /// No value (nil), or a relationship not loaded yet.
    case null
    /// An integer attribute's value (any of the three sizes).
    case int(Int)
    /// A Boolean attribute's value.
    case bool(Bool)
    /// A Double or Float attribute's value.
    case double(Double)
    /// A Decimal attribute's value.
    case decimal(Decimal)
    /// A String attribute's value.
    case string(String)
    /// A Date attribute's value.
    case date(Date)
    /// A Binary attribute's value.
    case data(Data)
    /// A UUID attribute's value.
    case uuid(UUID)
    /// A URI attribute's value.
    case url(URL)
    /// A to-one relationship's destination, or an ObjectID attribute's value.
    case objectID(ManagedObjectID)
    /// A to-many relationship's destinations.
    case objectIDs(Set<ManagedObjectID>)
    /// Any other value: what a transformable, undefined or composite attribute holds. Boxed, so
    /// that the common cases keep the enum small (32 bytes, as an `Any?` was).
    indirect case other(Any)

    /// The value as key-value coding gives it: the Swift value of the case, nil for `null`.
    var any: Any? {
        switch self {
        case .null: return nil
        case .string(let s): return s
        case .int(let i): return i
        case .double(let d): return d
        case .bool(let b): return b
        case .date(let d): return d
        case .decimal(let d): return d
        case .data(let d): return d
        case .uuid(let u): return u
        case .url(let u): return u
        case .objectID(let id): return id
        case .objectIDs(let ids): return ids
        case .other(let v): return v
        }
    }

    /// The case for a value the module already holds in its stored type (a converted
    /// attribute value, an object ID, a set of them), by the value's exact type: what
    /// ``any`` gives back is the same value. Anything else is `other`.
    init(_ value: Any?) {
        guard let value else {
            self = .null
            return
        }
        let t = type(of: value)
        if t == String.self {
            self = .string(value as! String)
        } else if t == Int.self {
            self = .int(value as! Int)
        } else if t == Double.self {
            self = .double(value as! Double)
        } else if t == Bool.self {
            self = .bool(value as! Bool)
        } else if t == Date.self {
            self = .date(value as! Date)
        } else if t == ManagedObjectID.self {
            self = .objectID(value as! ManagedObjectID)
        } else if t == Set<ManagedObjectID>.self {
            self = .objectIDs(value as! Set<ManagedObjectID>)
        } else if t == Decimal.self {
            self = .decimal(value as! Decimal)
        } else if t == Data.self {
            self = .data(value as! Data)
        } else if t == UUID.self {
            self = .uuid(value as! UUID)
        } else if t == URL.self {
            self = .url(value as! URL)
        } else if let nested = value as? AttributeValue {
            self = nested
        } else if let unwrapped = unwrapOptional(value) {
            if unwrapped is NSNull {
                self = .null
            }
            // An optional inside the `Any`: its payload decides the case.
            else if Swift.type(of: unwrapped) != t {
                self = AttributeValue(unwrapped)
            } else {
                self = .other(value)
            }
        } else {
            self = .null
        }
    }

    /// Whether there is no value.
    @inline(__always)
    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The destination of a to-one (or an ObjectID attribute's value), else nil.
    @inline(__always)
    var objectID: ManagedObjectID? { if case .objectID(let id) = self { return id } else { return nil } }

    /// The destinations of a loaded to-many, else nil.
    @inline(__always)
    var objectIDs: Set<ManagedObjectID>? { if case .objectIDs(let ids) = self { return ids } else { return nil } }

    /// Whether two values of one property are the same value, as change tracking asks: strings
    /// byte for byte (not by Unicode equivalence: "é" composed and decomposed are a change),
    /// numbers by value, sets of IDs as sets; what the cases cannot say, as predicates'
    /// `isEqual:` says (``ValueComparison``).
    static func same(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.int(let x), .int(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.uuid(let x), .uuid(let y)): return x == y
        case (.objectID(let x), .objectID(let y)): return x == y
        case (.objectIDs(let x), .objectIDs(let y)): return x == y
        case (.null, _), (_, .null): return false
        default: return ValueComparison.equal(a.any, b.any, [])
        }
    }
}

extension AttributeValue: ExpressibleByNilLiteral {
    /// `nil` is `null`, so storage slots clear as optionals did.
    init(nilLiteral: ()) { self = .null }
}

extension AttributeValue {
    /// A to-one's value: its destination's ID, or `null`.
    @inline(__always)
    static func toOne(_ id: ManagedObjectID?) -> AttributeValue { id.map { .objectID($0) } ?? .null }
}
