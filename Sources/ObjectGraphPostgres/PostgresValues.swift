import Foundation
import GRDB
import ObjectGraph
import PostgresNIO

/// Values between ObjectGraph's `DatabaseValue`s and PostgreSQL's binary format: integers as
/// `int8`, doubles as `float8`, text as `text`, bytes as `bytea`; results the other way, with
/// booleans as 0 and 1 and `numeric` (what SUM of integers gives) as an integer when whole.
enum PostgresValues {
    /// Appends one value to a statement's bindings.
    static func bind(_ value: DatabaseValue, into binds: inout PostgresBindings) throws {
        switch value.storage {
        case .null: binds.appendNull()
        case .int64(let i): binds.append(i)
        case .double(let d): binds.append(d)
        case .string(let s): binds.append(s)
        case .blob(let data): try binds.append(data)
        }
    }

    /// A query's rows, flat, and its row count.
    static func result(_ result: PostgresQueryResult) throws -> PostgresWireResult {
        var values: [DatabaseValue] = []
        var columnCount = 0
        if let first = result.rows.first {
            columnCount = first.count
            values.reserveCapacity(columnCount * result.rows.count)
        }
        for row in result.rows {
            for cell in row { values.append(try value(of: cell)) }
        }
        return PostgresWireResult(
            columnCount: columnCount, values: values, affectedRows: result.metadata.rows ?? result.rows.count)
    }

    /// One cell as a `DatabaseValue`.
    static func value(of cell: PostgresCell) throws -> DatabaseValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int8: return try cell.decode(Int64.self).databaseValue
            case .int4: return Int64(try cell.decode(Int32.self)).databaseValue
            case .int2: return Int64(try cell.decode(Int16.self)).databaseValue
            case .float8: return try cell.decode(Double.self).databaseValue
            case .float4: return Double(try cell.decode(Float.self)).databaseValue
            case .bool: return (try cell.decode(Bool.self) ? 1 : 0).databaseValue
            case .bytea: return try cell.decode(Data.self).databaseValue
            case .numeric:
                let decimal = try cell.decode(Decimal.self)
                if decimal == decimal.rounded(),
                    let whole = Int64(exactly: NSDecimalNumber(decimal: decimal).int64Value),
                    Decimal(whole) == decimal
                {
                    return whole.databaseValue
                }
                return NSDecimalNumber(decimal: decimal).doubleValue.databaseValue
            default: return try cell.decode(String.self).databaseValue
            }
        } catch {
            throw PostgresWireError(
                sqlState: nil,
                message: "Column \(cell.columnName) holds a \(cell.dataType) the store cannot read: \(error)")
        }
    }
}

extension Decimal {
    /// The whole number nearest, halves away from zero.
    fileprivate func rounded() -> Decimal {
        var source = self
        var result = Decimal()
        NSDecimalRound(&result, &source, 0, .plain)
        return result
    }
}
