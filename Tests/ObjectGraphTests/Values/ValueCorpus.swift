import Foundation
import Testing

@testable import ObjectGraph

/// Values at the edges of what each attribute type takes, and a model with one attribute of
/// each type, shared by the value tests.
enum ValueCorpus {
    /// One attribute of every type, and an ordinal to find each object again.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Holder") {
                AttributeDescription("ordinal", .integer64)
                AttributeDescription("text", .string)
                AttributeDescription("bytes", .binaryData)
                AttributeDescription("amount", .decimal)
                AttributeDescription("big", .integer64)
                AttributeDescription("medium", .integer32)
                AttributeDescription("small", .integer16)
                AttributeDescription("real", .double)
                AttributeDescription("single", .float)
                AttributeDescription("when", .date)
                AttributeDescription("flag", .boolean)
                AttributeDescription("identifier", .uuid)
                AttributeDescription("link", .uri)
            }
        }
    }

    /// A ten-megabyte string with a NUL and control characters inside.
    static let tenMegabytes: String = {
        var s = String(repeating: "0123456789abcdef", count: 10 * 1024 * 1024 / 16)
        s += "\0\u{1}end"
        return s
    }()

    /// Data of every byte value, and a pseudo-random megabyte.
    static let arbitraryBytes: Data = {
        var bytes = (0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<(1 << 20) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return Data(bytes)
    }()

    /// Every value the stores must keep exactly, as (key, value, what it is). Never mutated
    /// (values of `Any` are not `Sendable`).
    nonisolated(unsafe) static let values: [(key: String, value: Any, label: String)] = {
        var v: [(String, Any, String)] = []
        for (s, label) in [
            ("", "empty string"), ("a", "a"), ("admin\0evil", "NUL inside"), ("\0", "a lone NUL"),
            ("\0\0x\0", "NULs around"),
            ("\u{1}\u{7}\u{8}\t\n\u{B}\u{C}\r\u{1B}\u{7F}", "control characters"), ("\u{FFFE}", "U+FFFE"),
            ("\u{FFFF}\u{FFFE}x", "U+FFFF U+FFFE"), ("\u{10FFFF}", "U+10FFFF"), ("e\u{301}", "decomposed é"),
            ("👩‍👩‍👧", "emoji sequence"), ("back\\slash 'quote' \"double\"", "quotes"), (tenMegabytes, "10 MB string"),
        ] {
            v.append(("text", s, "text: \(label)"))
        }
        for (d, label) in [
            (Data(), "empty data"), (Data([0]), "one NUL byte"), (Data([0xFF, 0xFE, 0, 0xC3]), "invalid UTF-8"),
            (arbitraryBytes, "every byte and a random megabyte"),
        ] {
            v.append(("bytes", d, "bytes: \(label)"))
        }
        for s in [
            "19.99", "0.1", "1e-20", "-123456789012345", "10.11", "3.3333333333", "0", "-0.5", "123456789012345678",
            "9223372036854775807", "-9223372036854775808", "1e20", "0.000001", "999999999999999",
        ] {
            v.append(("amount", Decimal(string: s)!, "decimal \(s)"))
        }
        for i in [0, 1, -1, 1 << 53, (1 << 53) + 1, Int.max, Int.min, Int.max - 1] {
            v.append(("big", i, "integer 64 \(i)"))
        }
        for i in [Int(Int32.max), Int(Int32.min)] { v.append(("medium", i, "integer 32 \(i)")) }
        for i in [Int(Int16.max), Int(Int16.min)] { v.append(("small", i, "integer 16 \(i)")) }
        for d in [
            0.1, -0.0, 1e300, -1e-300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, Double.infinity,
            -Double.infinity,
            9007199254740993.0, 1.0 / 3.0,
        ] {
            v.append(("real", d, "double \(d)"))
        }
        for f in [Double(Float(1.1)), Double(Float.greatestFiniteMagnitude), -Double.infinity] {
            v.append(("single", f, "float \(f)"))
        }
        for d in [
            Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -500.5),
            Date(timeIntervalSinceReferenceDate: 123456789.123456), Date.distantPast, Date.distantFuture,
        ] {
            v.append(("when", d, "date \(d.timeIntervalSinceReferenceDate)"))
        }
        v.append(("flag", true, "true"))
        v.append(("flag", false, "false"))
        v.append(("identifier", UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, "nil UUID"))
        v.append(("identifier", UUID(uuidString: "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")!, "a UUID"))
        v.append(("link", URL(string: "https://example.com/a%20b?q=1&r=%00#frag")!, "URL with escapes"))
        v.append(("link", URL(fileURLWithPath: "/tmp/some file"), "file URL"))
        return v
    }()

    /// Values only some stores keep: SQLite refuses them at save with 1550.
    nonisolated(unsafe) static let refusedBySQLite: [(key: String, value: Any, label: String)] = [
        ("amount", Decimal(string: "12345678901234567890.123456789012345678")!, "38-digit decimal"),
        ("amount", Decimal(string: "0.1000000000000000000001")!, "22-digit decimal"),
        ("amount", Decimal.nan, "decimal NaN"),
        ("real", Double.nan, "double NaN"),
    ]

    /// Whether two attribute values are the same value: Doubles bit for bit (NaN is NaN, -0.0
    /// is not 0.0), Decimals numerically, strings by their bytes.
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x as Double, let y as Double): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (let x as Decimal, let y as Decimal): return (x.isNaN && y.isNaN) || x == y
        case (let x as String, let y as String): return x.utf8.elementsEqual(y.utf8)
        case (let x as Int, let y as Int): return x == y
        case (let x as Data, let y as Data): return x == y
        case (let x as Date, let y as Date):
            return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case (let x as Bool, let y as Bool): return x == y
        case (let x as UUID, let y as UUID): return x == y
        case (let x as URL, let y as URL): return x.absoluteString == y.absoluteString
        default: return false
        }
    }

    /// A value for messages: long strings and data by their size.
    static func describe(_ value: Any?) -> String {
        switch value {
        case let s as String where s.utf8.count > 200: return "a string of \(s.utf8.count) bytes"
        case let d as Data where d.count > 64: return "\(d.count) bytes"
        case let s as String: return String(reflecting: s)
        case nil: return "nil"
        default: return "\(value!) (\(type(of: value!)))"
        }
    }

    /// A new store of the corpus model: its file in `directory` (none for the in-memory store).
    static func store(_ type: StoreType, in directory: TemporaryDirectory) throws -> (
        model: ManagedObjectModel, url: URL?, coordinator: PersistentStoreCoordinator
    ) {
        let model = try model()
        let url = type == .inMemory ? nil : directory.file("corpus.\(type.rawValue)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        return (model, url, coordinator)
    }

    /// Reads every corpus object back, through a new coordinator on the file (a new context on
    /// the same coordinator for the in-memory store), and expects each value exactly as it
    /// went in: what a save and a batch insert both promise.
    static func expectReadBack(
        model: ManagedObjectModel, type: StoreType, url: URL?, coordinator: PersistentStoreCoordinator,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var reader = ManagedObjectContext(coordinator: coordinator)
        if let url {
            let again = PersistentStoreCoordinator(managedObjectModel: model)
            try again.addPersistentStore(type: type, at: url)
            reader = ManagedObjectContext(coordinator: again)
        }
        let objects = try reader.fetch(FetchRequest(entityName: "Holder"))
        #expect(objects.count == values.count, sourceLocation: sourceLocation)
        var byOrdinal: [Int: ManagedObject] = [:]
        for object in objects { byOrdinal[try object.checkedValue(forKey: "ordinal") as? Int ?? -1] = object }
        for (ordinal, entry) in values.enumerated() {
            let object = try #require(
                byOrdinal[ordinal], "\(type): \(entry.label) is missing", sourceLocation: sourceLocation)
            let got = try object.checkedValue(forKey: entry.key)
            if type == .sqlite, let d = entry.value as? Double, d == 0, d.sign == .minus {
                // SQLite keeps a whole REAL as an INTEGER on disk, in Core Data's stores too:
                // -0.0 comes back 0.0, equal to it (DifferencesFromCoreData).
                #expect(
                    got as? Double == 0, "\(type): \(entry.label) came back as \(describe(got))",
                    sourceLocation: sourceLocation)
                continue
            }
            #expect(
                same(got, entry.value), "\(type): \(entry.label) came back as \(describe(got))",
                sourceLocation: sourceLocation)
        }
    }
}
