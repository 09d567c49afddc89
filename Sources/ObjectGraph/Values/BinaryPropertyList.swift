import Foundation

/// A binary property list (`bplist00`), read and written with its UID values, which keyed
/// archives are made of and which Foundation on Linux reads into a private type and cannot
/// write at all.
///
/// The format is Apple's (CFBinaryPList.c): a header, the objects, a table of their offsets and
/// a 32-byte trailer. Reading checks every offset, count and reference against the data, and
/// the depth of nesting, so damaged data (from a store's file) is an error, never a crash.
enum BinaryPropertyList {
    /// A value of a property list.
    indirect enum Value: Equatable, Sendable {
        case string(String)
        case integer(Int64)
        case real(Double)
        case boolean(Bool)
        case date(Double)
        case data(Data)
        /// A reference into a keyed archive's `$objects` (CF$UID).
        case uid(UInt64)
        case array([Value])
        case set([Value])
        /// Keys in the order the file has them.
        case dictionary([(key: String, value: Value)])
        case null

        static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case (.string(let x), .string(let y)): return x == y
            case (.integer(let x), .integer(let y)): return x == y
            case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
            case (.boolean(let x), .boolean(let y)): return x == y
            case (.date(let x), .date(let y)): return x == y
            case (.data(let x), .data(let y)): return x == y
            case (.uid(let x), .uid(let y)): return x == y
            case (.array(let x), .array(let y)), (.set(let x), .set(let y)): return x == y
            case (.dictionary(let x), .dictionary(let y)):
                return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            case (.null, .null): return true
            default: return false
            }
        }

        /// The value for a key of a dictionary; nil for other values and missing keys.
        subscript(key: String) -> Value? {
            guard case .dictionary(let pairs) = self else { return nil }
            return pairs.first { $0.key == key }?.value
        }
    }

    /// Why data is not a binary property list this reader takes.
    struct FormatError: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// The deepest nesting read: a keyed archive nests by reference, so real ones are shallow.
    static let maximumDepth = 512

    /// The most values reading `byteCount` bytes may make, counting an object once for each
    /// reference to it. Containers may share what they hold, so a few hundred bytes can refer
    /// to 2^40 values (each of 40 arrays holding the next one twice): every reader that follows
    /// references, Foundation's included, would run out of time and memory (found reading the
    /// reader while fuzzing it; 22 levels took the keyedarchive fuzz target 64 s and 570 MB).
    /// Real files hold each object about once.
    static func maximumValues(forByteCount byteCount: Int) -> Int { 4 * byteCount + 4096 }

    // MARK: Reading

    /// Refuses a binary property list that refers to more values than
    /// ``maximumValues(forByteCount:)`` allows, or has a container holding itself, before a
    /// reader follows its references: ours, or Foundation's `PropertyListSerialization`. It
    /// counts without making values, in time and memory linear in the data; data it cannot
    /// walk (not a binary property list, damaged) passes, for the reader to refuse.
    ///
    /// `asPropertyList` also refuses what a property list may not hold and Foundation's
    /// reader crashes on when it bridges the result to Swift (a SEGV, found by Fuzz/run.sh
    /// binarystore): a set, and a dictionary key that is not a string. Pass it for data handed
    /// to `PropertyListSerialization`.
    static func checkSharing(_ data: Data, asPropertyList: Bool = false) throws {
        let bytes = [UInt8](data)
        guard let found = trailer(of: bytes) else { return }
        let (offsetSize, referenceSize, objectCount, topObject, tableOffset) = found
        let count = Int(objectCount)
        let end = Int(tableOffset)
        /// The position of an object, or nil for damage.
        func place(_ index: Int) -> Int? {
            let offset = bigEndian(bytes, end + index * offsetSize, offsetSize)
            guard offset >= 8, offset < UInt64(end) else { return nil }
            return Int(offset)
        }
        /// The objects a container refers to; [] for other objects, nil for damage.
        func children(_ index: Int) throws -> [Int]? {
            guard let position = place(index) else { return nil }
            let marker = bytes[position]
            if asPropertyList && marker >> 4 == 0xC {
                throw FormatError(reason: "the binary property list holds a set, which a property list cannot")
            }
            guard [0xA, 0xB, 0xC, 0xD].contains(marker >> 4) else { return [] }
            var n = Int(marker & 0x0F)
            var start = position + 1
            if n == 0x0F {
                guard position + 2 <= end, bytes[position + 1] & 0xF0 == 0x10, bytes[position + 1] & 0x0F <= 3 else {
                    return nil
                }
                let size = 1 << Int(bytes[position + 1] & 0x0F)
                guard position + 2 + size <= end else { return nil }
                let value = bigEndian(bytes, position + 2, size)
                guard value <= UInt64(bytes.count) else { return nil }
                n = Int(value)
                start = position + 2 + size
            }
            if marker >> 4 == 0xD { n *= 2 }
            guard start + n * referenceSize <= end else { return nil }
            // Clamped: an eight-byte reference may not fit in an Int; past the objects, it is damage.
            let refs = (0..<n).map { Int(clamping: bigEndian(bytes, start + $0 * referenceSize, referenceSize)) }
            if asPropertyList && marker >> 4 == 0xD {
                for key in refs.prefix(n / 2) {
                    guard key < count, let at = place(key) else { return nil }
                    guard [0x5, 0x6].contains(bytes[at] >> 4) else {
                        throw FormatError(
                            reason:
                                "a dictionary key of the binary property list is not a string, which a property list requires"
                        )
                    }
                }
            }
            return refs
        }
        let limit = maximumValues(forByteCount: bytes.count)
        // Values under each object, each reference counted, found depth first without recursion.
        var values = [Int](repeating: 0, count: count)
        var state = [UInt8](repeating: 0, count: count) // 0 not met, 1 open, 2 counted
        var stack: [(object: Int, children: [Int], next: Int, values: Int)] = []
        guard let top = try children(Int(topObject)) else { return }
        state[Int(topObject)] = 1
        stack.append((Int(topObject), top, 0, 1))
        while let last = stack.last {
            if last.next < last.children.count {
                let child = last.children[last.next]
                stack[stack.count - 1].next += 1
                guard child < count else { return }
                switch state[child] {
                case 2: stack[stack.count - 1].values = min(limit + 1, last.values + values[child])
                case 1: throw FormatError(reason: "a container of the binary property list contains itself")
                default:
                    guard let grandchildren = try children(child) else { return }
                    state[child] = 1
                    stack.append((child, grandchildren, 0, 1))
                }
            } else {
                stack.removeLast()
                values[last.object] = last.values
                state[last.object] = 2
                if !stack.isEmpty {
                    stack[stack.count - 1].values = min(limit + 1, stack[stack.count - 1].values + last.values)
                }
            }
        }
        guard values[Int(topObject)] <= limit else {
            throw FormatError(
                reason:
                    "the binary property list refers to more than \(limit) values in its \(bytes.count) bytes (its containers hold the same objects over and over), which no real file does"
            )
        }
    }

    /// Reads the top object of a binary property list.
    static func read(_ data: Data) throws -> Value {
        try checkSharing(data)
        let bytes = [UInt8](data)
        guard bytes.count >= 40, bytes.starts(with: Array("bplist0".utf8)) else {
            throw FormatError(reason: "not a binary property list (it does not start with bplist0)")
        }
        guard let found = trailer(of: bytes) else {
            throw FormatError(reason: "the trailer of the binary property list is damaged")
        }
        let (offsetSize, referenceSize, objectCount, topObject, tableOffset) = found
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(objectCount))
        for i in 0..<Int(objectCount) {
            let offset = bigEndian(bytes, Int(tableOffset) + i * offsetSize, offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw FormatError(reason: "object \(i) of the binary property list lies outside its objects")
            }
            offsets.append(Int(offset))
        }
        var reader = Reader(bytes: bytes, offsets: offsets, referenceSize: referenceSize, end: Int(tableOffset))
        return try reader.object(Int(topObject), depth: 0)
    }

    /// The trailer's sizes, object count, top object and offset table, or nil when the bytes
    /// are not a binary property list or its trailer is damaged. The bounds are checked in
    /// this order: each before the sum that relies on it, which then cannot overflow.
    private static func trailer(of bytes: [UInt8])
        -> (offsetSize: Int, referenceSize: Int, objectCount: UInt64, topObject: UInt64, tableOffset: UInt64)?
    {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist0".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = bigEndian(bytes, trailer + 8, 8)
        let topObject = bigEndian(bytes, trailer + 16, 8)
        let tableOffset = bigEndian(bytes, trailer + 24, 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0,
            objectCount <= UInt64(bytes.count), topObject < objectCount, tableOffset >= 8,
            tableOffset <= UInt64(trailer), tableOffset + objectCount * UInt64(offsetSize) <= UInt64(trailer)
        else { return nil }
        return (offsetSize, referenceSize, objectCount, topObject, tableOffset)
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[at + i]) }
        return v
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsets: [Int]
        let referenceSize: Int
        /// Where the objects end (the offset table begins).
        let end: Int
        /// Objects being read, to refuse a container that contains itself.
        var open: Set<Int> = []

        func need(_ count: Int, at position: Int) throws {
            guard count >= 0, position + count <= end else {
                throw FormatError(reason: "an object of the binary property list runs past its end")
            }
        }

        func integer(at position: Int, size: Int) throws -> UInt64 {
            try need(size, at: position)
            return BinaryPropertyList.bigEndian(bytes, position, size)
        }

        /// The element count of a marker whose low nibble is a count, and where the elements start.
        func count(_ marker: UInt8, at position: Int) throws -> (count: Int, start: Int) {
            let low = Int(marker & 0x0F)
            guard low == 0x0F else { return (low, position + 1) }
            try need(1, at: position + 1)
            let intMarker = bytes[position + 1]
            guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
                throw FormatError(reason: "a count of the binary property list is not an integer")
            }
            let size = 1 << Int(intMarker & 0x0F)
            let value = try integer(at: position + 2, size: size)
            guard value <= UInt64(bytes.count) else {
                throw FormatError(reason: "a count of the binary property list is larger than the data")
            }
            return (Int(value), position + 2 + size)
        }

        func references(_ count: Int, at position: Int) throws -> [Int] {
            try need(count * referenceSize, at: position)
            // Clamped: an eight-byte reference past Int.max trapped here (found by Fuzz/run.sh
            // keyedarchive); object(_:depth:) refuses it as pointing at no object.
            return (0..<count).map {
                Int(clamping: BinaryPropertyList.bigEndian(bytes, position + $0 * referenceSize, referenceSize))
            }
        }

        mutating func object(_ index: Int, depth: Int) throws -> Value {
            guard index >= 0, index < offsets.count else {
                throw FormatError(reason: "a reference of the binary property list points at no object (\(index))")
            }
            guard depth < BinaryPropertyList.maximumDepth else {
                throw FormatError(
                    reason: "the binary property list nests deeper than \(BinaryPropertyList.maximumDepth) levels")
            }
            let position = offsets[index]
            let marker = bytes[position]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .boolean(false)
                case 0x09: return .boolean(true)
                default:
                    throw FormatError(
                        reason: "unknown marker 0x\(String(marker, radix: 16)) in the binary property list")
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                if size == 16 {
                    // A 128-bit integer: Apple writes unsigned 64-bit values this way.
                    let high = try integer(at: position + 1, size: 8)
                    let low = try integer(at: position + 9, size: 8)
                    guard high == 0, low <= UInt64(Int64.max) else {
                        throw FormatError(reason: "an integer of the binary property list does not fit in 64 bits")
                    }
                    return .integer(Int64(low))
                }
                guard size <= 8 else {
                    throw FormatError(reason: "an integer of the binary property list has \(size) bytes")
                }
                let raw = try integer(at: position + 1, size: size)
                // 8-byte integers are signed; shorter ones are unsigned.
                return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                let raw = try integer(at: position + 1, size: size)
                switch size {
                case 4: return .real(Double(Float(bitPattern: UInt32(raw))))
                case 8: return .real(Double(bitPattern: raw))
                default: throw FormatError(reason: "a real of the binary property list has \(size) bytes")
                }
            case 0x3:
                guard marker == 0x33 else {
                    throw FormatError(
                        reason: "unknown marker 0x\(String(marker, radix: 16)) in the binary property list")
                }
                return .date(Double(bitPattern: try integer(at: position + 1, size: 8)))
            case 0x4:
                let (n, start) = try count(marker, at: position)
                try need(n, at: start)
                return .data(Data(bytes[start..<start + n]))
            case 0x5:
                let (n, start) = try count(marker, at: position)
                try need(n, at: start)
                // ASCII; bytes above 127 are read as Latin-1 rather than refused.
                return .string(String(bytes[start..<start + n].map { Character(Unicode.Scalar($0)) }))
            case 0x6:
                let (n, start) = try count(marker, at: position)
                try need(2 * n, at: start)
                let units = (0..<n).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                return .uid(try integer(at: position + 1, size: Int(marker & 0x0F) + 1))
            case 0xA, 0xC:
                let (n, start) = try count(marker, at: position)
                let refs = try references(n, at: start)
                guard open.insert(index).inserted else {
                    throw FormatError(reason: "a container of the binary property list contains itself")
                }
                defer { open.remove(index) }
                var items: [Value] = []
                items.reserveCapacity(n)
                for ref in refs { items.append(try object(ref, depth: depth + 1)) }
                return marker >> 4 == 0xA ? .array(items) : .set(items)
            case 0xD:
                let (n, start) = try count(marker, at: position)
                let keys = try references(n, at: start)
                let values = try references(n, at: start + n * referenceSize)
                guard open.insert(index).inserted else {
                    throw FormatError(reason: "a container of the binary property list contains itself")
                }
                defer { open.remove(index) }
                var pairs: [(key: String, value: Value)] = []
                pairs.reserveCapacity(n)
                for (k, v) in zip(keys, values) {
                    guard case .string(let key) = try object(k, depth: depth + 1) else {
                        throw FormatError(reason: "a dictionary key of the binary property list is not a string")
                    }
                    pairs.append((key, try object(v, depth: depth + 1)))
                }
                return .dictionary(pairs)
            default:
                throw FormatError(reason: "unknown marker 0x\(String(marker, radix: 16)) in the binary property list")
            }
        }
    }

    // MARK: Writing

    /// Writes a value as a binary property list, each object once, in the order met.
    static func write(_ top: Value) -> Data {
        var objects: [[UInt8]] = []
        var writer = Writer()
        writer.flatten(top)
        let count = writer.encoded.count
        let referenceSize = count < 256 ? 1 : count < 65_536 ? 2 : 4
        for object in writer.encoded { objects.append(encode(object, referenceSize: referenceSize)) }
        return assemble(objects, top: 0, referenceSize: referenceSize)
    }

    /// A binary property list of objects already encoded with `referenceSize`-byte references:
    /// the header, the objects, their offset table and the trailer naming object `top`.
    static func assemble(_ objects: [[UInt8]], top: Int, referenceSize: Int) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let tableOffset = out.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65_536 ? 2 : tableOffset < 1 << 32 ? 4 : 8
        for offset in offsets { out += bigEndianBytes(UInt64(offset), offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        out +=
            bigEndianBytes(UInt64(objects.count), 8) + bigEndianBytes(UInt64(top), 8)
            + bigEndianBytes(UInt64(tableOffset), 8)
        return Data(out)
    }

    /// An object to write, its children replaced by their indexes.
    private enum Flat {
        case leaf(Value)
        case array([Int], isSet: Bool)
        case dictionary(keys: [Int], values: [Int])
    }

    private struct Writer {
        var encoded: [Flat] = []

        /// Appends a value and its children (after it); returns its index.
        @discardableResult
        mutating func flatten(_ value: Value) -> Int {
            let index = encoded.count
            switch value {
            case .array(let items), .set(let items):
                encoded.append(.leaf(.null))
                let refs = items.map { flatten($0) }
                if case .set = value {
                    encoded[index] = .array(refs, isSet: true)
                } else {
                    encoded[index] = .array(refs, isSet: false)
                }
            case .dictionary(let pairs):
                encoded.append(.leaf(.null))
                let keys = pairs.map { flatten(.string($0.key)) }
                let values = pairs.map { flatten($0.value) }
                encoded[index] = .dictionary(keys: keys, values: values)
            default:
                encoded.append(.leaf(value))
            }
            return index
        }
    }

    private static func bigEndianBytes(_ v: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64(size - 1 - $0))) }
    }

    private static func marker(_ type: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [type << 4 | UInt8(count)] }
        return [type << 4 | 0x0F] + integerBytes(Int64(count))
    }

    private static func integerBytes(_ v: Int64) -> [UInt8] {
        // Non-negative values take the fewest bytes; negative ones always 8 (signed).
        if v >= 0 && v <= 0xFF { return [0x10, UInt8(v)] }
        if v >= 0 && v <= 0xFFFF { return [0x11] + bigEndianBytes(UInt64(v), 2) }
        if v >= 0 && v <= 0xFFFF_FFFF { return [0x12] + bigEndianBytes(UInt64(v), 4) }
        return [0x13] + bigEndianBytes(UInt64(bitPattern: v), 8)
    }

    private static func encode(_ object: Flat, referenceSize: Int) -> [UInt8] {
        switch object {
        case .array(let refs, let isSet):
            return marker(isSet ? 0xC : 0xA, count: refs.count)
                + refs.flatMap { bigEndianBytes(UInt64($0), referenceSize) }
        case .dictionary(let keys, let values):
            return marker(0xD, count: keys.count)
                + (keys + values).flatMap { bigEndianBytes(UInt64($0), referenceSize) }
        case .leaf(let value):
            switch value {
            case .null: return [0x00]
            case .boolean(let b): return [b ? 0x09 : 0x08]
            case .integer(let i): return integerBytes(i)
            case .real(let d): return [0x23] + bigEndianBytes(d.bitPattern, 8)
            case .date(let d): return [0x33] + bigEndianBytes(d.bitPattern, 8)
            case .data(let d): return marker(0x4, count: d.count) + [UInt8](d)
            case .string(let s):
                if s.utf8.allSatisfy({ $0 < 0x80 }) { return marker(0x5, count: s.utf8.count) + Array(s.utf8) }
                let units = Array(s.utf16)
                return marker(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .uid(let u):
                let size = u <= 0xFF ? 1 : u <= 0xFFFF ? 2 : u <= 0xFFFF_FFFF ? 4 : 8
                return [0x80 | UInt8(size - 1)] + bigEndianBytes(u, size)
            case .array, .set, .dictionary:
                return [] // flattened by the Writer, never a leaf
            }
        }
    }
}
