import Foundation
import GRDB

/// How attribute values are written to and read from the columns of Core Data's layout, as Core
/// Data stores them in SQLite (a PostgreSQL column has the type these values have): integers
/// and booleans as INTEGER, doubles as REAL, dates as seconds since 2001-01-01 (REAL), UUIDs as
/// 16 bytes, URLs as their absolute string, strings and data with every byte (a NUL included).
///
/// Decimals. Core Data keeps a Decimal attribute as a REAL in a `DECIMAL` column (its own
/// stores hold 10.11 and 3.3333333333 there), and SQLite (3.40) turns decimal text bound
/// into such a column (NUMERIC affinity) into a REAL of about 15 digits, so text does not
/// survive either. This store therefore writes a Decimal as
/// - an INTEGER when it is a whole number that fits in 64 bits (exact, and a NUMERIC column
///   keeps it so);
/// - otherwise the REAL nearest to it, when that REAL's shortest representation gives back
///   the same decimal (19.99, 10.11, 1e-20: every decimal of up to 15 significant digits);
/// and reads a REAL back through its shortest representation (`"\(double)"`), so 19.99
/// comes back 19.99, not 19.98999999999999488. A Decimal no REAL keeps exactly (more digits
/// than a REAL holds, such as a 38-digit decimal) and NaN are refused at save with a
/// validation error (1550) naming the object and the key, and never written
/// (``SQLiteWriter``). A Double NaN is refused the same way (SQLite would store NULL);
/// the infinities are REALs and come back as they went.
///
/// Reading is strict: a value of a storage class the attribute type does not take, which
/// another writer may have stored, converts where Core Data converts it (an INTEGER into a
/// Double, a REAL that is a whole number in range into an integer) and is otherwise a
/// ``StoredValueMismatch``, which the store reports as an error naming the entity, the key
/// and the row, never nil and never a crash.
enum RelationalValues {
    /// The database value for an attribute value (already converted by the context).
    static func databaseValue(_ value: Any?, type: AttributeType) -> DatabaseValue {
        guard let value = unwrapOptional(value), !(value is NSNull) else { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            if let n = Number(value), let i = n.exactInt { return Int64(i).databaseValue }
        case .boolean:
            if let b = value as? Bool { return (b ? 1 : 0).databaseValue }
            if let n = Number(value), let i = n.exactInt { return i.databaseValue }
        case .double, .float:
            if let n = Number(value) { return n.doubleValue.databaseValue }
        case .decimal:
            if let n = Number(value) { return numberValue(n) }
        case .string:
            if let s = value as? String { return s.databaseValue }
        case .date:
            if let d = value as? Date { return d.timeIntervalSinceReferenceDate.databaseValue }
        case .binaryData:
            if let d = value as? Data { return d.databaseValue }
        case .uuid:
            if let u = value as? UUID { return withUnsafeBytes(of: u.uuid) { Data($0) }.databaseValue }
        case .uri:
            if let u = value as? URL { return u.absoluteString.databaseValue }
        case .undefined, .transformable, .objectID, .composite:
            break // refused at save (UnstorableModelParts); nothing to convert
        }
        return genericDatabaseValue(value)
    }

    /// A number as SQLite compares it exactly with the values of a column: an Int as an
    /// INTEGER, a Double as a REAL, a Decimal as an INTEGER when it is a whole 64-bit number,
    /// else as the REAL nearest to it (see the type's documentation). NaN becomes NULL, as
    /// SQLite makes it: callers decide what a NaN means first.
    static func numberValue(_ n: Number) -> DatabaseValue {
        switch n {
        case .int(let i): return Int64(i).databaseValue
        case .double(let d): return d.isNaN ? .null : d.databaseValue
        case .decimal(let d):
            if let i = DecimalConversion.int(d) { return Int64(i).databaseValue }
            let x = DecimalConversion.double(d)
            return x.isNaN ? .null : x.databaseValue
        }
    }

    /// Why an attribute value cannot be written to SQLite exactly, or nil when it can: a
    /// Decimal that no INTEGER or REAL keeps (NaN, more digits than a REAL holds) and a
    /// Double NaN (SQLite would store NULL).
    static func unstorableReason(_ value: Any?, type: AttributeType) -> String? {
        guard let value else { return nil }
        switch type {
        case .decimal:
            guard let d = value as? Decimal else { return nil }
            if d.isNaN { return "NaN is not a number SQLite can store (it would become NULL)" }
            if DecimalConversion.int(d) != nil || DecimalConversion.survivesDouble(d) { return nil }
            return
                "\(d) has more significant digits than the REAL of a SQLite store keeps exactly (up to 15 always survive; this one would come back as \(DecimalConversion.decimal(DecimalConversion.double(d)).map { "\($0)" } ?? "another number"))"
        case .double, .float:
            guard let d = value as? Double, d.isNaN else { return nil }
            return "NaN is not a number SQLite can store (it would become NULL)"
        default:
            return nil
        }
    }

    /// The database value for a predicate constant whose column type is not known.
    static func genericDatabaseValue(_ value: Any?) -> DatabaseValue {
        guard let value = unwrapOptional(value), !(value is NSNull) else { return .null }
        switch value {
        case let b as Bool: return (b ? 1 : 0).databaseValue
        case let s as String: return s.databaseValue
        case let d as Date: return d.timeIntervalSinceReferenceDate.databaseValue
        case let d as Data: return d.databaseValue
        case let u as UUID: return withUnsafeBytes(of: u.uuid) { Data($0) }.databaseValue
        case let u as URL: return u.absoluteString.databaseValue
        case let d as Decimal: return numberValue(.decimal(d))
        case let id as ManagedObjectID: return id.primaryKey.databaseValue
        case let r as ObjectReference:
            if let id = r.base as? ManagedObjectID { return id.primaryKey.databaseValue }
            return r.description.databaseValue
        default:
            if let n = Number(value) { return numberValue(n) }
            return String(describing: value).databaseValue
        }
    }

    /// A database value as the plain Swift value of its storage class.
    static func rawValue(_ dbValue: DatabaseValue) -> Any? {
        switch dbValue.storage {
        case .null: return nil
        case .int64(let i): return Int(i)
        case .double(let d): return d
        case .string(let s): return s
        case .blob(let d): return d
        }
    }

    /// The attribute value for a database value; throws ``StoredValueMismatch`` for a value
    /// the attribute type cannot take (see the type's documentation).
    static func value(_ dbValue: DatabaseValue, type: AttributeType) throws -> Any? {
        switch dbValue.storage {
        case .null: return nil
        case .int64(let i): return try integer(i, type: type)
        case .double(let d): return try real(d, type: type)
        case .string(let s): return try text(s, type: type)
        case .blob(let data): return try blob(data, type: type)
        }
    }

    /// An INTEGER read for an attribute type.
    @inline(__always)
    static func integer(_ v: Int64, type: AttributeType) throws -> Any {
        switch type {
        case .integer64: return Int(v)
        case .integer16, .integer32:
            let i = Int(v)
            guard type.integerRange!.contains(i) else {
                throw StoredValueMismatch("the INTEGER \(v), beyond the range of \(type.xcodeName)")
            }
            return i
        case .boolean: return v != 0
        case .double, .float: return Double(v)
        case .date: return Date(timeIntervalSinceReferenceDate: Double(v))
        case .decimal: return Decimal(Int(v))
        case .string: return String(v)
        case .binaryData, .uuid, .uri, .undefined, .transformable, .objectID, .composite:
            throw StoredValueMismatch("the INTEGER \(v)")
        }
    }

    /// A REAL read for an attribute type: a whole number in range for integers, the
    /// shortest representation for decimals.
    @inline(__always)
    static func real(_ v: Double, type: AttributeType) throws -> Any {
        switch type {
        case .double, .float: return v
        case .date: return Date(timeIntervalSinceReferenceDate: v)
        case .integer16, .integer32, .integer64:
            guard let i = Int(exactly: v), type.integerRange!.contains(i) else {
                throw StoredValueMismatch(
                    "the REAL \(v), which is not a whole number in the range of \(type.xcodeName)")
            }
            return i
        case .boolean:
            guard let i = Int(exactly: v) else {
                throw StoredValueMismatch("the REAL \(v), which is not a whole number")
            }
            return i != 0
        case .decimal:
            guard let d = DecimalConversion.decimal(v) else {
                throw StoredValueMismatch("the REAL \(v), which a Decimal cannot hold")
            }
            return d
        case .string: return "\(v)"
        case .binaryData, .uuid, .uri, .undefined, .transformable, .objectID, .composite:
            throw StoredValueMismatch("the REAL \(v)")
        }
    }

    /// TEXT read for an attribute type.
    static func text(_ s: String, type: AttributeType) throws -> Any {
        switch type {
        case .string: return s
        case .uri:
            guard let url = URL(string: s) else {
                throw StoredValueMismatch("the TEXT \(quoted(s)), which is not a URL")
            }
            return url
        case .uuid:
            guard let uuid = UUID(uuidString: s) else {
                throw StoredValueMismatch("the TEXT \(quoted(s)), which is not a UUID")
            }
            return uuid
        case .decimal:
            // Decimal(string:) reads "12abc" as 12: the text must be a whole number literal.
            guard Double(s) != nil, let d = Decimal(string: s), !d.isNaN else {
                throw StoredValueMismatch("the TEXT \(quoted(s)), which is not a number")
            }
            return d
        case .binaryData: return Data(s.utf8)
        default: throw StoredValueMismatch("the TEXT \(quoted(s))")
        }
    }

    /// A BLOB read for an attribute type.
    static func blob(_ data: Data, type: AttributeType) throws -> Any {
        switch type {
        case .binaryData: return data
        case .uuid:
            guard data.count == 16 else {
                throw StoredValueMismatch("a BLOB of \(data.count) bytes, not the 16 of a UUID")
            }
            let b = [UInt8](data)
            return UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
                ))
        case .string:
            guard let s = String(validating: data, as: UTF8.self) else {
                throw StoredValueMismatch("a BLOB of \(data.count) bytes that is not UTF-8 text")
            }
            return s
        default: throw StoredValueMismatch("a BLOB of \(data.count) bytes")
        }
    }

    private static func quoted(_ s: String) -> String {
        let head = s.count > 40 ? String(s.prefix(40)) + "..." : s
        return "\""
            + head.unicodeScalars.map {
                $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0)
            }.joined() + "\""
    }
}

/// A value stored in a column that its attribute's type cannot take: what was found, for a
/// message the store completes with the entity, key and row.
struct StoredValueMismatch: Error {
    /// The value found, in words ("the REAL 1e+300").
    let found: String
    init(_ found: String) { self.found = found }
}
