import Foundation
import GRDB
import GRDBSQLite

/// Reads columns of the current row straight from the SQLite statement: the fetch hot path,
/// where going through GRDB's `DatabaseValue` for each column would cost an allocation and a
/// switch per value.
enum SQLiteColumns {
    /// The value of column `i`, decoded for an attribute type as ``RelationalValues`` decodes it,
    /// straight into its case; throws ``StoredValueMismatch`` for a value the type cannot take.
    @inline(__always)
    static func value(_ statement: OpaquePointer, _ i: Int32, type: AttributeType) throws -> AttributeValue {
        switch sqlite3_column_type(statement, i) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            let v = sqlite3_column_int64(statement, i)
            switch type {
            case .integer64: return .int(Int(v))
            // Out of range is a mismatch, which RelationalValues.integer reports.
            case .integer16 where Int16(exactly: v) != nil, .integer32 where Int32(exactly: v) != nil:
                return .int(Int(v))
            case .boolean: return .bool(v != 0)
            // A whole number of seconds, or a whole Double, in a column of NUMERIC affinity
            // (TIMESTAMP, FLOAT) is stored as an INTEGER.
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(v)))
            case .double, .float: return .double(Double(v))
            default: return AttributeValue(try RelationalValues.integer(v, type: type))
            }
        case SQLITE_FLOAT:
            let v = sqlite3_column_double(statement, i)
            switch type {
            case .double, .float: return .double(v)
            case .date: return .date(Date(timeIntervalSinceReferenceDate: v))
            default: return AttributeValue(try RelationalValues.real(v, type: type))
            }
        case SQLITE_TEXT:
            // The byte count, not the C string: a NUL inside the text is part of it.
            let length = Int(sqlite3_column_bytes(statement, i))
            guard let bytes = sqlite3_column_text(statement, i) else {
                return AttributeValue(try RelationalValues.text("", type: type))
            }
            let text = String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
            if type == .string { return .string(text) }
            return AttributeValue(try RelationalValues.text(text, type: type))
        default:
            let length = Int(sqlite3_column_bytes(statement, i))
            let data = sqlite3_column_blob(statement, i).map { Data(bytes: $0, count: length) } ?? Data()
            return AttributeValue(try RelationalValues.blob(data, type: type))
        }
    }

    /// The integer in column `i`, or nil for NULL.
    @inline(__always)
    static func int64(_ statement: OpaquePointer, _ i: Int32) -> Int64? {
        sqlite3_column_type(statement, i) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, i)
    }
}
