import Foundation

/// NSKeyedArchiver's archives, read and written for the classes a transformable attribute's
/// default transformer (`NSSecureUnarchiveFromData`) allows: what Core Data stores in the
/// column of such an attribute.
///
/// An archive is a binary property list: `$archiver` = `NSKeyedArchiver`, `$version` =
/// 100000, `$top` = `{root: UID}`, and `$objects`, whose first element is `$null`. Strings,
/// numbers and plain `NSData` are stored as they are; other objects are dictionaries with a
/// `$class` reference to `{$classname, $classes}` and their fields (`NS.objects`, `NS.keys`,
/// `NS.time`, `NS.relative`, `NS.uuidbytes`...).
///
/// Values come back as Swift values: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `URL`,
/// `UUID`, `Decimal` (NSDecimalNumber), `NSNull`, `[Any]` (NSArray, NSOrderedSet),
/// `Set<AnyHashable>` (NSSet), `[String: Any]` (NSDictionary with string keys, else
/// `[AnyHashable: Any]`). An object of another class comes back as an ``ArchivedObject`` when
/// its class is allowed, so a custom ``ValueTransformer`` can build its own type from the
/// fields; Foundation on Linux has no Objective-C classes to instantiate.
public enum KeyedArchive {
    /// The classes NSSecureUnarchiveFromDataTransformer allows by default (Apple's
    /// `allowedTopLevelClasses`): NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate,
    /// NSData, NSURL, NSUUID and NSNull, with their subclasses.
    public static let secureCodingClassNames: Set<String> = [
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
        "NSString", "NSMutableString", "NSNumber", "NSDecimalNumber", "NSDate", "NSData", "NSMutableData",
        "NSURL", "NSUUID", "NSNull",
    ]

    /// Every class this reader builds a Swift value for (the secure ones and NSOrderedSet):
    /// what NSKeyedUnarchiveFromData, which checks no class, reads here.
    public static let foundationClassNames: Set<String> = secureCodingClassNames.union([
        "NSOrderedSet", "NSMutableOrderedSet",
    ])

    /// Why an archive could not be read or a value could not be archived.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What is wrong, in words.
        public let reason: String
        /// The reason.
        public var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// An archived object of a class this reader has no Swift value for: its class names
    /// (the class first, then its superclasses, as `$classes` lists them) and its fields,
    /// decoded.
    public struct ArchivedObject: @unchecked Sendable, CustomStringConvertible {
        /// The class and its superclasses, most specific first.
        public let classNames: [String]
        /// The encoded fields by key, as Swift values (nil for `$null`).
        public let fields: [String: Any?]

        /// The class the object was archived as.
        public var className: String { classNames.first ?? "" }

        /// An object to archive as `classNames.first`.
        public init(classNames: [String], fields: [String: Any?]) {
            self.classNames = classNames
            self.fields = fields
        }

        /// `<Class text = "...">`.
        public var description: String {
            "<\(className) "
                + fields.keys.sorted().map { "\($0) = \(fields[$0].map { $0.map { "\($0)" } ?? "nil" } ?? "nil")" }
                .joined(separator: ", ") + ">"
        }
    }

    // MARK: Reading

    /// The root value of an archive, reading only objects whose class is in `allowedClassNames`
    /// (nil: any class); nil for an archive of nil.
    public static func unarchivedValue(from data: Data, allowedClassNames: Set<String>? = secureCodingClassNames) throws
        -> Any?
    {
        let plist: BinaryPropertyList.Value
        do { plist = try BinaryPropertyList.read(data) } catch let error as BinaryPropertyList.FormatError {
            throw Failure("the data is not a keyed archive: \(error.reason)")
        }
        guard case .string("NSKeyedArchiver")? = plist["$archiver"] else {
            throw Failure("the data is a property list but not a keyed archive (no $archiver NSKeyedArchiver)")
        }
        guard case .array(let objects)? = plist["$objects"], case .uid(let root)? = plist["$top"]?["root"] else {
            throw Failure("the keyed archive has no $objects or no $top root")
        }
        var reader = Reader(
            objects: objects, allowed: allowedClassNames,
            remaining: BinaryPropertyList.maximumValues(forByteCount: data.count))
        return try reader.value(root, depth: 0)
    }

    private struct Reader {
        let objects: [BinaryPropertyList.Value]
        let allowed: Set<String>?
        var open: Set<UInt64> = []
        /// Values still to be made: objects refer to each other by UID, so sharing can blow up
        /// here as in the property list below (BinaryPropertyList.maximumValues(forByteCount:)).
        var remaining: Int

        func object(_ uid: UInt64) throws -> BinaryPropertyList.Value {
            guard uid < UInt64(objects.count) else {
                throw Failure("the keyed archive refers to object \(uid) of \(objects.count)")
            }
            return objects[Int(uid)]
        }

        func uids(_ value: BinaryPropertyList.Value?, _ key: String, of className: String) throws -> [UInt64] {
            guard case .array(let items)? = value else {
                throw Failure("the archived \(className) has no \(key) array")
            }
            return try items.map {
                guard case .uid(let u) = $0 else {
                    throw Failure("the \(key) of an archived \(className) holds something other than references")
                }
                return u
            }
        }

        mutating func value(_ uid: UInt64, depth: Int) throws -> Any? {
            guard depth < BinaryPropertyList.maximumDepth else {
                throw Failure("the keyed archive nests deeper than \(BinaryPropertyList.maximumDepth) levels")
            }
            remaining -= 1
            guard remaining >= 0 else {
                throw Failure(
                    "the keyed archive refers to its objects so many times over (objects holding the same objects, level after level) that reading it would make more values than its size allows, which no real archive does"
                )
            }
            let item = try object(uid)
            switch item {
            case .string(let s): return uid == 0 && s == "$null" ? nil : s
            case .integer(let i): return Int(i)
            case .real(let d): return d
            case .boolean(let b): return b
            case .data(let d): return d
            case .date(let d): return Date(timeIntervalSinceReferenceDate: d)
            case .uid(let u): return try value(u, depth: depth + 1)
            case .null: return nil
            case .array, .set:
                throw Failure("object \(uid) of the keyed archive is a bare array, which NSKeyedArchiver never writes")
            case .dictionary:
                guard open.insert(uid).inserted else {
                    throw Failure("the archived object \(uid) contains itself, which no Swift value can")
                }
                defer { open.remove(uid) }
                return try classObject(item, uid: uid, depth: depth)
            }
        }

        mutating func classObject(_ item: BinaryPropertyList.Value, uid: UInt64, depth: Int) throws -> Any? {
            guard case .uid(let classUID)? = item["$class"] else {
                throw Failure("the archived object \(uid) has no $class")
            }
            let classInfo = try object(classUID)
            guard case .string(let className)? = classInfo["$classname"] else {
                throw Failure("the class of archived object \(uid) has no $classname")
            }
            var classNames = [className]
            if case .array(let names)? = classInfo["$classes"] {
                let listed = names.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
                // $classes starts with the class itself; a list that does not (damage) would make
                // an ArchivedObject claim a class it was not decoded as, which archives as one
                // that does not read back (found by Fuzz/run.sh keyedarchive).
                classNames = listed.first == className ? listed : [className] + listed
            }
            if let allowed, !classNames.contains(where: allowed.contains) {
                throw Failure(
                    "the archive holds an object of class \(className), which is not allowed here (allowed: \(allowed.sorted().joined(separator: ", ")))"
                )
            }
            func field(_ key: String) throws -> Any? {
                guard let v = item[key] else { return nil }
                if case .uid(let u) = v { return try value(u, depth: depth + 1) }
                return try plain(v, key, className)
            }
            switch className {
            case "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet":
                return try uids(item["NS.objects"], "NS.objects", of: className).map {
                    try value($0, depth: depth + 1) ?? NSNull()
                }
            case "NSSet", "NSMutableSet":
                var set = Set<AnyHashable>()
                for u in try uids(item["NS.objects"], "NS.objects", of: className) {
                    guard let member = try value(u, depth: depth + 1) as? AnyHashable else {
                        throw Failure("an archived \(className) holds a member that no Swift set can hold")
                    }
                    set.insert(member)
                }
                return set
            case "NSDictionary", "NSMutableDictionary":
                let keys = try uids(item["NS.keys"], "NS.keys", of: className)
                let values = try uids(item["NS.objects"], "NS.objects", of: className)
                guard keys.count == values.count else {
                    throw Failure("an archived \(className) has \(keys.count) keys and \(values.count) values")
                }
                var pairs: [(AnyHashable, Any)] = []
                for (k, v) in zip(keys, values) {
                    guard let key = try value(k, depth: depth + 1) as? AnyHashable else {
                        throw Failure("an archived \(className) has a key that is not hashable")
                    }
                    pairs.append((key, try value(v, depth: depth + 1) ?? NSNull()))
                }
                if pairs.allSatisfy({ $0.0.base is String }) {
                    return Dictionary(
                        pairs.map { ($0.0.base as! String, $0.1) }, uniquingKeysWith: { first, _ in first })
                }
                return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
            case "NSString", "NSMutableString":
                if let s = try field("NS.string") as? String { return s }
                if let d = try field("NS.bytes") as? Data, let s = String(data: d, encoding: .utf8) { return s }
                throw Failure("an archived \(className) has no NS.string")
            case "NSDate":
                guard let t = try field("NS.time") as? Double ?? (try field("NS.time") as? Int).map(Double.init) else {
                    throw Failure("an archived NSDate has no NS.time")
                }
                return Date(timeIntervalSinceReferenceDate: t)
            case "NSData", "NSMutableData":
                guard let d = try field("NS.data") as? Data else {
                    throw Failure("an archived \(className) has no NS.data")
                }
                return d
            case "NSURL":
                guard let relative = try field("NS.relative") as? String else {
                    throw Failure("an archived NSURL has no NS.relative string")
                }
                let base = try field("NS.base") as? URL
                guard let url = URL(string: relative, relativeTo: base) else {
                    throw Failure("an archived NSURL holds \(relative), which is not a URL")
                }
                return base == nil ? url : url.absoluteURL
            case "NSUUID":
                guard let d = try field("NS.uuidbytes") as? Data, d.count == 16 else {
                    throw Failure("an archived NSUUID has no 16 NS.uuidbytes")
                }
                let b = [UInt8](d)
                return UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    ))
            case "NSNull":
                return NSNull()
            case "NSDecimalNumber":
                return try decimal(item, field: field)
            default:
                var fields: [String: Any?] = [:]
                for (key, v) in item.dictionaryPairs where key != "$class" {
                    if case .uid(let u) = v {
                        fields[key] = try value(u, depth: depth + 1)
                    } else {
                        fields[key] = try plain(v, key, className)
                    }
                }
                return ArchivedObject(classNames: classNames, fields: fields)
            }
        }

        /// A field stored inline (not by reference).
        func plain(_ v: BinaryPropertyList.Value, _ key: String, _ className: String) throws -> Any? {
            switch v {
            case .string(let s): return s
            case .integer(let i): return Int(i)
            case .real(let d): return d
            case .boolean(let b): return b
            case .data(let d): return d
            case .date(let d): return Date(timeIntervalSinceReferenceDate: d)
            case .null: return nil
            case .array(let items): return try items.map { try plain($0, key, className) ?? NSNull() }
            default: throw Failure("the field \(key) of an archived \(className) is not a value this reader takes")
            }
        }

        /// NSDecimalNumber's fields: a 128-bit mantissa in eight little-endian 16-bit words,
        /// an exponent and a sign (NSDecimal's layout).
        func decimal(_ item: BinaryPropertyList.Value, field: (String) throws -> Any?) throws -> Decimal {
            guard let exponent = try field("NS.exponent") as? Int, let negative = try field("NS.negative") as? Bool,
                let mantissa = try field("NS.mantissa") as? Data
            else {
                throw Failure("an archived NSDecimalNumber lacks NS.exponent, NS.negative or NS.mantissa")
            }
            let bytes = [UInt8](mantissa)
            var result = Decimal(0)
            // Most significant word first: result = result * 65536 + word.
            for w in stride(from: min(bytes.count / 2, 8) - 1, through: 0, by: -1) {
                let word = UInt16(bytes[2 * w]) | UInt16(bytes[2 * w + 1]) << 8
                result = result * 65_536 + Decimal(Int(word))
            }
            guard (-128...127).contains(exponent) else {
                throw Failure("an archived NSDecimalNumber has the exponent \(exponent), beyond a Decimal's")
            }
            var scaled = Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: result)
            if (try field("NS.length") as? Int) == 0, negative { scaled = .nan }
            return scaled
        }
    }

    // MARK: Writing

    /// An archive of `value`, as NSKeyedArchiver writes it; objects of a class not in
    /// `allowedClassNames` (nil: any) are refused.
    public static func archivedData(withRootValue value: Any, allowedClassNames: Set<String>? = secureCodingClassNames)
        throws -> Data
    {
        var writer = Writer(allowed: allowedClassNames)
        let root = try writer.encode(value, depth: 0)
        let top: BinaryPropertyList.Value = .dictionary([
            ("$version", .integer(100_000)),
            ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", .uid(root))])),
            ("$objects", .array(writer.objects)),
        ])
        return BinaryPropertyList.write(top)
    }

    private struct Writer {
        let allowed: Set<String>?
        var objects: [BinaryPropertyList.Value] = [.string("$null")]
        var classes: [String: UInt64] = [:]

        mutating func append(_ v: BinaryPropertyList.Value) -> UInt64 {
            objects.append(v)
            return UInt64(objects.count - 1)
        }

        mutating func classReference(_ names: [String]) throws -> UInt64 {
            if let allowed, !names.contains(where: allowed.contains) {
                throw Failure(
                    "a value of class \(names[0]) is not allowed here (allowed: \(allowed.sorted().joined(separator: ", ")))"
                )
            }
            if let known = classes[names[0]] { return known }
            let uid = append(
                .dictionary([("$classes", .array(names.map { .string($0) })), ("$classname", .string(names[0]))]))
            classes[names[0]] = uid
            return uid
        }

        /// An object dictionary: its slot is taken first and its fields encoded after it, then
        /// its class, in the order NSKeyedArchiver writes them.
        mutating func object(_ names: [String], _ fields: (inout Writer) throws -> [(String, BinaryPropertyList.Value)])
            throws -> UInt64
        {
            let uid = append(.null)
            var pairs = try fields(&self)
            pairs.append(("$class", .uid(try classReference(names))))
            objects[Int(uid)] = .dictionary(pairs)
            return uid
        }

        mutating func encode(_ value: Any?, depth: Int) throws -> UInt64 {
            guard depth < BinaryPropertyList.maximumDepth else {
                throw Failure("the value nests deeper than \(BinaryPropertyList.maximumDepth) levels")
            }
            guard let value = unwrapOptional(value) else { return 0 }
            switch value {
            case let s as String:
                // Strings, numbers and plain data are stored without a class, so no class check
                // applies to them, reading or writing.
                return append(.string(s))
            case let b as Bool:
                return append(.boolean(b))
            case let d as Double:
                return append(.real(d))
            case let f as Float:
                return append(.real(Double(f)))
            case let d as Date:
                return try object(["NSDate", "NSObject"]) { _ in [("NS.time", .real(d.timeIntervalSinceReferenceDate))]
                }
            case let d as Data:
                return append(.data(d))
            case let u as URL:
                return try object(["NSURL", "NSObject"]) { w in
                    [("NS.base", .uid(0)), ("NS.relative", .uid(w.append(.string(u.absoluteString))))]
                }
            case let u as UUID:
                return try object(["NSUUID", "NSObject"]) { _ in
                    [("NS.uuidbytes", .data(withUnsafeBytes(of: u.uuid) { Data($0) }))]
                }
            case is NSNull:
                return try object(["NSNull", "NSObject"]) { _ in [] }
            case let o as ArchivedObject:
                return try object(o.classNames.isEmpty ? ["NSObject"] : o.classNames) { w in
                    try o.fields.keys.sorted().map { key in
                        (key, .uid(try w.encode(o.fields[key] ?? nil, depth: depth + 1)))
                    }
                }
            case let array as [Any]:
                return try object(["NSArray", "NSObject"]) { w in
                    [("NS.objects", .array(try array.map { .uid(try w.encode($0, depth: depth + 1)) }))]
                }
            case let set as Set<AnyHashable>:
                // Members in a stable order, so the same set archives to the same bytes.
                let members = set.map(\.base).sorted { "\($0)" < "\($1)" }
                return try object(["NSSet", "NSObject"]) { w in
                    [("NS.objects", .array(try members.map { .uid(try w.encode($0, depth: depth + 1)) }))]
                }
            case let dictionary as [String: Any]:
                let keys = dictionary.keys.sorted()
                return try object(["NSDictionary", "NSObject"]) { w in
                    let k = try keys.map { BinaryPropertyList.Value.uid(try w.encode($0, depth: depth + 1)) }
                    let v = try keys.map {
                        BinaryPropertyList.Value.uid(try w.encode(dictionary[$0], depth: depth + 1))
                    }
                    return [("NS.keys", .array(k)), ("NS.objects", .array(v))]
                }
            case let dictionary as [AnyHashable: Any]:
                let keys = dictionary.keys.sorted { "\($0.base)" < "\($1.base)" }
                return try object(["NSDictionary", "NSObject"]) { w in
                    let k = try keys.map { BinaryPropertyList.Value.uid(try w.encode($0.base, depth: depth + 1)) }
                    let v = try keys.map {
                        BinaryPropertyList.Value.uid(try w.encode(dictionary[$0], depth: depth + 1))
                    }
                    return [("NS.keys", .array(k)), ("NS.objects", .array(v))]
                }
            default:
                if let n = Number(value), case .int(let i) = n { return append(.integer(Int64(i))) }
                throw Failure(
                    "a value of type \(type(of: value)) has no keyed archive here (archivable: String, numbers, Bool, Date, Data, URL, UUID, NSNull, arrays, sets and dictionaries of them, and KeyedArchive.ArchivedObject)"
                )
            }
        }
    }
}

extension BinaryPropertyList.Value {
    /// A dictionary's pairs; empty for other values.
    var dictionaryPairs: [(key: String, value: BinaryPropertyList.Value)] {
        if case .dictionary(let pairs) = self { return pairs }
        return []
    }
}
