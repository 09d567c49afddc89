import Foundation
import GRDBSQLite

// The three value representations the prototype of issue 17 compares, each on the Book
// entity's shape: values decoded with `sqlite3_column_*` straight into the representation,
// kept per object, read back by property index as `Any` (the key-value-coding boundary) or
// typed, and bound with `sqlite3_bind_*` straight from it. Benchmark-only: nothing here is
// used by the module. See Benchmarks/VALUE-REPRESENTATION.md for the results.

/// An attribute type of the prototype (the Book entity needs these five).
enum ProtoKind: Sendable {
    case string, integer, double, date, boolean
}

/// The Book entity's attributes in column order: title, author, salesRank, price, published, inPrint.
let protoBookKinds: [ProtoKind] = [.string, .string, .integer, .double, .date, .boolean]

/// A value read from a column that its attribute cannot take, or set with the wrong type.
struct ProtoMismatch: Error, CustomStringConvertible {
    let description: String
}

// MARK: Today's representation: [Any?] per object

/// Today's storage: one `[Any?]` per object, values as Swift values in existentials.
final class ProtoAnyObject {
    let primaryKey: Int64
    var storage: [Any?]

    init(primaryKey: Int64, storage: [Any?]) {
        self.primaryKey = primaryKey
        self.storage = storage
    }

    /// Decodes the current row (columns from `first` on), as SQLiteColumns does today.
    static func decode(_ s: OpaquePointer, first: Int32) throws -> ProtoAnyObject {
        let values = try [Any?](unsafeUninitializedCapacity: protoBookKinds.count) { buffer, initialized in
            for i in 0..<protoBookKinds.count {
                let column = first + Int32(i)
                let value: Any?
                switch sqlite3_column_type(s, column) {
                case SQLITE_NULL: value = nil
                case SQLITE_INTEGER:
                    let v = sqlite3_column_int64(s, column)
                    switch protoBookKinds[i] {
                    case .integer: value = Int(v)
                    case .boolean: value = v != 0
                    case .double: value = Double(v)
                    case .date: value = Date(timeIntervalSinceReferenceDate: Double(v))
                    case .string:
                        initialized = i
                        throw ProtoMismatch(description: "INTEGER in a string column")
                    }
                case SQLITE_FLOAT:
                    let v = sqlite3_column_double(s, column)
                    switch protoBookKinds[i] {
                    case .double: value = v
                    case .date: value = Date(timeIntervalSinceReferenceDate: v)
                    default:
                        initialized = i
                        throw ProtoMismatch(description: "REAL in a non-real column")
                    }
                case SQLITE_TEXT:
                    guard protoBookKinds[i] == .string else {
                        initialized = i
                        throw ProtoMismatch(description: "TEXT in a non-string column")
                    }
                    value = RawBooks.text(s, column)
                default:
                    initialized = i
                    throw ProtoMismatch(description: "BLOB in the Book table")
                }
                buffer.baseAddress!.advanced(by: i).initialize(to: value)
            }
            initialized = protoBookKinds.count
        }
        return ProtoAnyObject(primaryKey: sqlite3_column_int64(s, 0), storage: values)
    }

    /// The KVC read: the stored existential as it is.
    @inline(never)
    func value(at i: Int) -> Any? { storage[i] }

    /// The KVC write: the value's type checked against the attribute's, then stored.
    @inline(never)
    func setValue(_ value: Any?, at i: Int) throws {
        if let value {
            let fits: Bool
            switch protoBookKinds[i] {
            case .string: fits = value is String
            case .integer: fits = value is Int
            case .double: fits = value is Double
            case .date: fits = value is Date
            case .boolean: fits = value is Bool
            }
            guard fits else { throw ProtoMismatch(description: "\(type(of: value)) for attribute \(i)") }
        }
        storage[i] = value
    }

    /// Binds the values to parameters from `first` on, casting each existential as today.
    func bind(_ s: OpaquePointer, first: Int32) throws {
        for i in 0..<protoBookKinds.count {
            let p = first + Int32(i)
            guard let value = storage[i] else { sqlite3_bind_null(s, p); continue }
            switch protoBookKinds[i] {
            case .string:
                guard let v = value as? String else { throw ProtoMismatch(description: "not a String") }
                RawBooks.bind(s, p, v)
            case .integer:
                guard let v = value as? Int else { throw ProtoMismatch(description: "not an Int") }
                sqlite3_bind_int64(s, p, Int64(v))
            case .double:
                guard let v = value as? Double else { throw ProtoMismatch(description: "not a Double") }
                sqlite3_bind_double(s, p, v)
            case .date:
                guard let v = value as? Date else { throw ProtoMismatch(description: "not a Date") }
                sqlite3_bind_double(s, p, v.timeIntervalSinceReferenceDate)
            case .boolean:
                guard let v = value as? Bool else { throw ProtoMismatch(description: "not a Bool") }
                sqlite3_bind_int64(s, p, v ? 1 : 0)
            }
        }
    }
}

// MARK: Candidate 1: an enum with a payload per attribute type

/// One attribute value: the enum candidate. Strings are held as themselves, numbers unboxed.
enum ProtoValue {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case boolean(Bool)

    /// The value as `Any`, bridged at the KVC boundary (an integer as `Int`).
    @inline(__always)
    var any: Any? {
        switch self {
        case .null: return nil
        case .integer(let v): return Int(v)
        case .double(let v): return v
        case .string(let v): return v
        case .date(let v): return v
        case .boolean(let v): return v
        }
    }
}

/// An object whose storage is one `[ProtoValue]`.
final class ProtoEnumObject {
    let primaryKey: Int64
    var storage: [ProtoValue]

    init(primaryKey: Int64, storage: [ProtoValue]) {
        self.primaryKey = primaryKey
        self.storage = storage
    }

    /// Decodes the current row straight into enum values.
    static func decode(_ s: OpaquePointer, first: Int32) throws -> ProtoEnumObject {
        let values = try [ProtoValue](unsafeUninitializedCapacity: protoBookKinds.count) { buffer, initialized in
            for i in 0..<protoBookKinds.count {
                let column = first + Int32(i)
                let value: ProtoValue
                switch sqlite3_column_type(s, column) {
                case SQLITE_NULL: value = .null
                case SQLITE_INTEGER:
                    let v = sqlite3_column_int64(s, column)
                    switch protoBookKinds[i] {
                    case .integer: value = .integer(v)
                    case .boolean: value = .boolean(v != 0)
                    case .double: value = .double(Double(v))
                    case .date: value = .date(Date(timeIntervalSinceReferenceDate: Double(v)))
                    case .string:
                        initialized = i
                        throw ProtoMismatch(description: "INTEGER in a string column")
                    }
                case SQLITE_FLOAT:
                    let v = sqlite3_column_double(s, column)
                    switch protoBookKinds[i] {
                    case .double: value = .double(v)
                    case .date: value = .date(Date(timeIntervalSinceReferenceDate: v))
                    default:
                        initialized = i
                        throw ProtoMismatch(description: "REAL in a non-real column")
                    }
                case SQLITE_TEXT:
                    guard protoBookKinds[i] == .string else {
                        initialized = i
                        throw ProtoMismatch(description: "TEXT in a non-string column")
                    }
                    value = .string(RawBooks.text(s, column))
                default:
                    initialized = i
                    throw ProtoMismatch(description: "BLOB in the Book table")
                }
                buffer.baseAddress!.advanced(by: i).initialize(to: value)
            }
            initialized = protoBookKinds.count
        }
        return ProtoEnumObject(primaryKey: sqlite3_column_int64(s, 0), storage: values)
    }

    /// The KVC read: the enum bridged to `Any`.
    @inline(never)
    func value(at i: Int) -> Any? { storage[i].any }

    /// Typed reads, as generated accessors would make them.
    @inline(never)
    func string(at i: Int) -> String? { if case .string(let v) = storage[i] { return v } else { return nil } }
    @inline(never)
    func integer(at i: Int) -> Int64? { if case .integer(let v) = storage[i] { return v } else { return nil } }
    @inline(never)
    func double(at i: Int) -> Double? { if case .double(let v) = storage[i] { return v } else { return nil } }
    @inline(never)
    func date(at i: Int) -> Date? { if case .date(let v) = storage[i] { return v } else { return nil } }
    @inline(never)
    func boolean(at i: Int) -> Bool? { if case .boolean(let v) = storage[i] { return v } else { return nil } }

    /// The KVC write: the `Any` cast once, here, into the attribute's case.
    @inline(never)
    func setValue(_ value: Any?, at i: Int) throws {
        guard let value else { storage[i] = .null; return }
        let converted: ProtoValue?
        switch protoBookKinds[i] {
        case .string: converted = (value as? String).map(ProtoValue.string)
        case .integer: converted = (value as? Int).map { .integer(Int64($0)) }
        case .double: converted = (value as? Double).map(ProtoValue.double)
        case .date: converted = (value as? Date).map(ProtoValue.date)
        case .boolean: converted = (value as? Bool).map(ProtoValue.boolean)
        }
        guard let converted else { throw ProtoMismatch(description: "\(type(of: value)) for attribute \(i)") }
        storage[i] = converted
    }

    /// Binds the values from parameter `first` on, one switch per value, no cast.
    func bind(_ s: OpaquePointer, first: Int32) {
        storage.withUnsafeBufferPointer { values in
            for i in 0..<values.count {
                let p = first + Int32(i)
                switch values[i] {
                case .null: sqlite3_bind_null(s, p)
                case .integer(let v): sqlite3_bind_int64(s, p, v)
                case .double(let v): sqlite3_bind_double(s, p, v)
                case .string(let v): RawBooks.bind(s, p, v)
                case .date(let v): sqlite3_bind_double(s, p, v.timeIntervalSinceReferenceDate)
                case .boolean(let v): sqlite3_bind_int64(s, p, v ? 1 : 0)
                }
            }
        }
    }
}

// MARK: Candidate 2: typed column storage per entity

/// The values of every object of one entity, one typed array per attribute: the column
/// candidate. An object is a row number into it.
final class ProtoColumnTable {
    /// Each attribute's array: which kind, and its index among the arrays of that kind.
    let slots: [(kind: ProtoKind, index: Int)]
    var strings: [[String?]]
    var integers: [[Int64?]]
    var doubles: [[Double?]]
    var booleans: [[Bool?]]
    private(set) var count = 0

    init(kinds: [ProtoKind]) {
        var slots: [(ProtoKind, Int)] = []
        var s = 0, n = 0, d = 0, b = 0
        for kind in kinds {
            switch kind {
            case .string: slots.append((kind, s)); s += 1
            case .integer: slots.append((kind, n)); n += 1
            case .double, .date: slots.append((kind, d)); d += 1
            case .boolean: slots.append((kind, b)); b += 1
            }
        }
        self.slots = slots
        strings = Array(repeating: [], count: s)
        integers = Array(repeating: [], count: n)
        doubles = Array(repeating: [], count: d)
        booleans = Array(repeating: [], count: b)
    }

    /// Reserves room for `n` more rows in every array.
    func reserve(_ n: Int) {
        for k in strings.indices { strings[k].reserveCapacity(count + n) }
        for k in integers.indices { integers[k].reserveCapacity(count + n) }
        for k in doubles.indices { doubles[k].reserveCapacity(count + n) }
        for k in booleans.indices { booleans[k].reserveCapacity(count + n) }
    }

    /// A new row of nils; its number.
    func appendEmptyRow() -> Int {
        for k in strings.indices { strings[k].append(nil) }
        for k in integers.indices { integers[k].append(nil) }
        for k in doubles.indices { doubles[k].append(nil) }
        for k in booleans.indices { booleans[k].append(nil) }
        count += 1
        return count - 1
    }

    /// Appends the current row of a statement (columns from `first` on); its number.
    func appendRow(_ s: OpaquePointer, first: Int32) throws -> Int {
        for (i, slot) in slots.enumerated() {
            let column = first + Int32(i)
            let type = sqlite3_column_type(s, column)
            switch slot.kind {
            case .string:
                guard type == SQLITE_TEXT || type == SQLITE_NULL else { throw ProtoMismatch(description: "non-TEXT in a string column") }
                strings[slot.index].append(type == SQLITE_NULL ? nil : RawBooks.text(s, column))
            case .integer:
                guard type == SQLITE_INTEGER || type == SQLITE_NULL else { throw ProtoMismatch(description: "non-INTEGER in an integer column") }
                integers[slot.index].append(type == SQLITE_NULL ? nil : sqlite3_column_int64(s, column))
            case .double, .date:
                guard type == SQLITE_FLOAT || type == SQLITE_INTEGER || type == SQLITE_NULL else { throw ProtoMismatch(description: "non-number in a real column") }
                doubles[slot.index].append(type == SQLITE_NULL ? nil : sqlite3_column_double(s, column))
            case .boolean:
                guard type == SQLITE_INTEGER || type == SQLITE_NULL else { throw ProtoMismatch(description: "non-INTEGER in a boolean column") }
                booleans[slot.index].append(type == SQLITE_NULL ? nil : sqlite3_column_int64(s, column) != 0)
            }
        }
        count += 1
        return count - 1
    }

    /// The KVC read of row `row`, attribute `i`.
    @inline(never)
    func value(row: Int, at i: Int) -> Any? {
        let slot = slots[i]
        switch slot.kind {
        case .string: return strings[slot.index][row]
        case .integer: return integers[slot.index][row].map { Int($0) }
        case .double: return doubles[slot.index][row]
        case .date: return doubles[slot.index][row].map { Date(timeIntervalSinceReferenceDate: $0) }
        case .boolean: return booleans[slot.index][row]
        }
    }

    /// The KVC write: the `Any` cast into the attribute's array.
    @inline(never)
    func setValue(_ value: Any?, row: Int, at i: Int) throws {
        let slot = slots[i]
        switch slot.kind {
        case .string:
            guard value == nil || value is String else { throw ProtoMismatch(description: "not a String") }
            strings[slot.index][row] = value as? String
        case .integer:
            guard value == nil || value is Int else { throw ProtoMismatch(description: "not an Int") }
            integers[slot.index][row] = (value as? Int).map { Int64($0) }
        case .double:
            guard value == nil || value is Double else { throw ProtoMismatch(description: "not a Double") }
            doubles[slot.index][row] = value as? Double
        case .date:
            guard value == nil || value is Date else { throw ProtoMismatch(description: "not a Date") }
            doubles[slot.index][row] = (value as? Date)?.timeIntervalSinceReferenceDate
        case .boolean:
            guard value == nil || value is Bool else { throw ProtoMismatch(description: "not a Bool") }
            booleans[slot.index][row] = value as? Bool
        }
    }

    /// Binds row `row` from parameter `first` on.
    func bind(_ s: OpaquePointer, row: Int, first: Int32) {
        for (i, slot) in slots.enumerated() {
            let p = first + Int32(i)
            switch slot.kind {
            case .string:
                if let v = strings[slot.index][row] { RawBooks.bind(s, p, v) } else { sqlite3_bind_null(s, p) }
            case .integer:
                if let v = integers[slot.index][row] { sqlite3_bind_int64(s, p, v) } else { sqlite3_bind_null(s, p) }
            case .double, .date:
                if let v = doubles[slot.index][row] { sqlite3_bind_double(s, p, v) } else { sqlite3_bind_null(s, p) }
            case .boolean:
                if let v = booleans[slot.index][row] { sqlite3_bind_int64(s, p, v ? 1 : 0) } else { sqlite3_bind_null(s, p) }
            }
        }
    }
}

/// An object of the column candidate: its table and its row in it.
final class ProtoColumnObject {
    let primaryKey: Int64
    let table: ProtoColumnTable
    let row: Int

    init(primaryKey: Int64, table: ProtoColumnTable, row: Int) {
        self.primaryKey = primaryKey
        self.table = table
        self.row = row
    }

    /// The KVC read.
    func value(at i: Int) -> Any? { table.value(row: row, at: i) }
    /// The KVC write.
    func setValue(_ value: Any?, at i: Int) throws { try table.setValue(value, row: row, at: i) }

    /// Typed reads, as generated accessors would make them.
    @inline(never)
    func string(at i: Int) -> String? { table.strings[table.slots[i].index][row] }
    @inline(never)
    func integer(at i: Int) -> Int64? { table.integers[table.slots[i].index][row] }
    @inline(never)
    func double(at i: Int) -> Double? { table.doubles[table.slots[i].index][row] }
    @inline(never)
    func date(at i: Int) -> Date? { table.doubles[table.slots[i].index][row].map { Date(timeIntervalSinceReferenceDate: $0) } }
    @inline(never)
    func boolean(at i: Int) -> Bool? { table.booleans[table.slots[i].index][row] }
}

// MARK: Candidate 1b: the enum, stored inline in the object

/// The enum candidate with the values in the object's own allocation (tail-allocated), so an
/// object costs one allocation, not two (the object and its array).
final class ProtoInlineObject: ManagedBuffer<Int64, ProtoValue> {
    /// A new object of `primaryKey` whose values `initialize` writes (every one of them).
    static func make(primaryKey: Int64, _ initialize: (UnsafeMutablePointer<ProtoValue>) throws -> Void) rethrows -> ProtoInlineObject {
        let buffer = ProtoInlineObject.create(minimumCapacity: protoBookKinds.count) { _ in primaryKey }
        let object = unsafeDowncast(buffer, to: ProtoInlineObject.self)
        try object.withUnsafeMutablePointerToElements { values in
            // Nulls first, so a throw part-way leaves every value initialized for deinit.
            values.initialize(repeating: .null, count: protoBookKinds.count)
            try initialize(values)
        }
        return object
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: protoBookKinds.count) }
    }

    /// Decodes the current row straight into the object's values.
    static func decode(_ s: OpaquePointer, first: Int32) throws -> ProtoInlineObject {
        try make(primaryKey: sqlite3_column_int64(s, 0)) { values in
            for i in 0..<protoBookKinds.count {
                let column = first + Int32(i)
                switch sqlite3_column_type(s, column) {
                case SQLITE_NULL: values[i] = .null
                case SQLITE_INTEGER:
                    let v = sqlite3_column_int64(s, column)
                    switch protoBookKinds[i] {
                    case .integer: values[i] = .integer(v)
                    case .boolean: values[i] = .boolean(v != 0)
                    case .double: values[i] = .double(Double(v))
                    case .date: values[i] = .date(Date(timeIntervalSinceReferenceDate: Double(v)))
                    case .string: throw ProtoMismatch(description: "INTEGER in a string column")
                    }
                case SQLITE_FLOAT:
                    let v = sqlite3_column_double(s, column)
                    switch protoBookKinds[i] {
                    case .double: values[i] = .double(v)
                    case .date: values[i] = .date(Date(timeIntervalSinceReferenceDate: v))
                    default: throw ProtoMismatch(description: "REAL in a non-real column")
                    }
                case SQLITE_TEXT:
                    guard protoBookKinds[i] == .string else { throw ProtoMismatch(description: "TEXT in a non-string column") }
                    values[i] = .string(RawBooks.text(s, column))
                default:
                    throw ProtoMismatch(description: "BLOB in the Book table")
                }
            }
        }
    }

    var primaryKey: Int64 { header }

    /// The value at `i`.
    @inline(__always)
    private func stored(_ i: Int) -> ProtoValue { withUnsafeMutablePointerToElements { $0[i] } }

    /// The KVC read: the enum bridged to `Any`.
    @inline(never)
    func value(at i: Int) -> Any? { stored(i).any }

    /// Typed reads, as generated accessors would make them.
    @inline(never)
    func string(at i: Int) -> String? { if case .string(let v) = stored(i) { return v } else { return nil } }
    @inline(never)
    func integer(at i: Int) -> Int64? { if case .integer(let v) = stored(i) { return v } else { return nil } }
    @inline(never)
    func double(at i: Int) -> Double? { if case .double(let v) = stored(i) { return v } else { return nil } }
    @inline(never)
    func date(at i: Int) -> Date? { if case .date(let v) = stored(i) { return v } else { return nil } }
    @inline(never)
    func boolean(at i: Int) -> Bool? { if case .boolean(let v) = stored(i) { return v } else { return nil } }

    /// The KVC write: the `Any` cast once into the attribute's case.
    @inline(never)
    func setValue(_ value: Any?, at i: Int) throws {
        guard let value else { withUnsafeMutablePointerToElements { $0[i] = .null }; return }
        let converted: ProtoValue?
        switch protoBookKinds[i] {
        case .string: converted = (value as? String).map(ProtoValue.string)
        case .integer: converted = (value as? Int).map { .integer(Int64($0)) }
        case .double: converted = (value as? Double).map(ProtoValue.double)
        case .date: converted = (value as? Date).map(ProtoValue.date)
        case .boolean: converted = (value as? Bool).map(ProtoValue.boolean)
        }
        guard let converted else { throw ProtoMismatch(description: "\(type(of: value)) for attribute \(i)") }
        withUnsafeMutablePointerToElements { $0[i] = converted }
    }

    /// Binds the values from parameter `first` on.
    func bind(_ s: OpaquePointer, first: Int32) {
        withUnsafeMutablePointerToElements { values in
            for i in 0..<protoBookKinds.count {
                let p = first + Int32(i)
                switch values[i] {
                case .null: sqlite3_bind_null(s, p)
                case .integer(let v): sqlite3_bind_int64(s, p, v)
                case .double(let v): sqlite3_bind_double(s, p, v)
                case .string(let v): RawBooks.bind(s, p, v)
                case .date(let v): sqlite3_bind_double(s, p, v.timeIntervalSinceReferenceDate)
                case .boolean(let v): sqlite3_bind_int64(s, p, v ? 1 : 0)
                }
            }
        }
    }
}
