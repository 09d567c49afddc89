import Foundation
import GRDB

/// How attribute values are written to and read from SQLite columns, as Core Data stores
/// them: integers and booleans as INTEGER, dates as seconds since 2001-01-01, UUIDs as 16
/// bytes, URLs as their absolute string, decimals as text a NUMERIC column reads as a number.
enum SQLiteValues {
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
            if let d = value as? Decimal { return d.description.databaseValue }
            if let n = Number(value) { return n.doubleValue.databaseValue }
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
        }
        return genericDatabaseValue(value)
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
        case let d as Decimal: return NSDecimalNumber(decimal: d).doubleValue.databaseValue
        case let id as ManagedObjectID: return id.primaryKey.databaseValue
        case let r as ObjectReference:
            if let id = r.base as? ManagedObjectID { return id.primaryKey.databaseValue }
            return r.description.databaseValue
        default:
            if let n = Number(value) {
                if case .int(let i) = n { return Int64(i).databaseValue }
                return n.doubleValue.databaseValue
            }
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

    /// The attribute value for a database value.
    static func value(_ dbValue: DatabaseValue, type: AttributeType) -> Any? {
        switch dbValue.storage {
        case .null:
            return nil
        case .int64(let i):
            switch type {
            case .boolean: return i != 0
            case .double, .float: return Double(i)
            case .decimal: return Decimal(i)
            case .date: return Date(timeIntervalSinceReferenceDate: Double(i))
            case .string: return String(i)
            default: return Int(i)
            }
        case .double(let d):
            switch type {
            case .integer16, .integer32, .integer64: return Int(exactly: d) ?? Int(d)
            case .boolean: return d != 0
            case .decimal: return Decimal(d)
            case .date: return Date(timeIntervalSinceReferenceDate: d)
            default: return d
            }
        case .string(let s):
            switch type {
            case .decimal: return Decimal(string: s)
            case .uri: return URL(string: s)
            case .integer16, .integer32, .integer64: return Int(s)
            case .double, .float: return Double(s)
            default: return s
            }
        case .blob(let data):
            if type == .uuid, data.count == 16 {
                let b = [UInt8](data)
                return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            }
            return data
        }
    }
}
