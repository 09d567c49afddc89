import Foundation
import GRDB
import GRDBSQLite

/// Reads columns of the current row straight from the SQLite statement: the fetch hot path,
/// where going through GRDB's `DatabaseValue` for each column would cost an allocation and a
/// switch per value.
enum SQLiteColumns {
    /// The value of column `i`, decoded for an attribute type.
    @inline(__always)
    static func value(_ statement: OpaquePointer, _ i: Int32, type: AttributeType) -> Any? {
        switch sqlite3_column_type(statement, i) {
        case SQLITE_NULL:
            return nil
        case SQLITE_INTEGER:
            let v = sqlite3_column_int64(statement, i)
            switch type {
            case .integer16, .integer32, .integer64: return Int(v)
            case .boolean: return v != 0
            case .double, .float: return Double(v)
            case .date: return Date(timeIntervalSinceReferenceDate: Double(v))
            case .decimal: return Decimal(v)
            case .string: return String(v)
            default: return Int(v)
            }
        case SQLITE_FLOAT:
            let v = sqlite3_column_double(statement, i)
            switch type {
            case .double, .float: return v
            case .date: return Date(timeIntervalSinceReferenceDate: v)
            case .integer16, .integer32, .integer64: return Int(exactly: v) ?? Int(v)
            case .boolean: return v != 0
            case .decimal: return Decimal(v)
            default: return v
            }
        case SQLITE_TEXT:
            let length = Int(sqlite3_column_bytes(statement, i))
            guard let bytes = sqlite3_column_text(statement, i) else { return "" }
            let text = String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
            switch type {
            case .string: return text
            default: return SQLiteValues.value(text.databaseValue, type: type)
            }
        default:
            let length = Int(sqlite3_column_bytes(statement, i))
            let data = sqlite3_column_blob(statement, i).map { Data(bytes: $0, count: length) } ?? Data()
            return SQLiteValues.value(data.databaseValue, type: type)
        }
    }

    /// The integer in column `i`, or nil for NULL.
    @inline(__always)
    static func int64(_ statement: OpaquePointer, _ i: Int32) -> Int64? {
        sqlite3_column_type(statement, i) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, i)
    }
}
