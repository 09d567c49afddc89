import Foundation
import Testing

@testable import ObjectGraph

// Every value an attribute accepts comes back equal from the XML and the binary store, read by
// a new coordinator; a value a store cannot hold is refused at save (1550) and never written.
@Suite struct AtomicValueRoundTripTests {
    static let fileTypes: [StoreType] = [.xml, .binary]

    func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Value") {
                AttributeDescription("label", .string, optional: false)
                AttributeDescription("text", .string)
                AttributeDescription("bytes", .binaryData)
                AttributeDescription("decimal", .decimal)
                AttributeDescription("integer", .integer64)
                AttributeDescription("real", .double)
            }
        }
    }

    /// Every C0 control character, the scalars XML 1.0 forbids, and the text around them.
    static let strings: [String] = {
        var corpus = [
            "", " ", "  two spaces  ", "\n", "\t\n\r", "\r\n", "beep\u{7}then", "nul\u{0}inside", "\u{0}",
            "\u{FFFE}", "\u{FFFF}", "a\u{FFFE}b\u{FFFF}c", "\u{D7FF}\u{E000}\u{FFFD}\u{10000}\u{10FFFF}",
            "<tag attr=\"x\">&amp;</tag>", "]]>", "é e\u{301} 😀 𝄞", "\u{7F}\u{80}\u{9F}", "\u{85}\u{2028}\u{2029}",
        ]
        corpus.append(String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }))
        for c in 0..<32 { corpus.append("C0 \(c): [\(Character(Unicode.Scalar(UInt8(c))))]") }
        return corpus
    }()

    static let decimals: [Decimal] = [
        Decimal(string: "12345678901234567890123456789012345678")!,
        Decimal(string: "-12345678901234567890123456789012345678")!,
        Decimal(string: "-0.5")!, Decimal(0), Decimal(string: "3.14159265358979323846264338327950288")!,
        Decimal(sign: .plus, exponent: -100, significand: 1),
        Decimal(sign: .minus, exponent: -60, significand: 123_456_789),
        Decimal(sign: .plus, exponent: 100, significand: 7), .greatestFiniteMagnitude, .leastNonzeroMagnitude,
        -.greatestFiniteMagnitude,
    ]

    static let integers: [Int] = [
        0, 1, -1, 1 << 53, (1 << 53) + 1, -(1 << 53), Int(Int64.max), Int(Int64.min), Int(Int32.max) + 1,
    ]

    static let reals: [Double] = [
        0.0, -0.0, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .leastNormalMagnitude / 3, .greatestFiniteMagnitude, 0.1, 1.0 / 3.0, 9_007_199_254_740_992, 4503599627370497.5,
    ]

    /// Writes one object per value, reads them back in a new coordinator, by label.
    func roundTrip(_ type: StoreType, _ values: [(label: String, key: String, value: Any)]) throws -> [String: Any?] {
        let directory = try TemporaryDirectory()
        let url = directory.file("Values.\(type.rawValue)")
        let writer = PersistentStoreCoordinator(managedObjectModel: try model())
        try writer.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: writer)
        for (label, key, value) in values {
            let object = try context.insertNewObject(forEntityName: "Value")
            try object.checkedSetValue(label, forKey: "label")
            try object.checkedSetValue(value, forKey: key)
        }
        try context.save()
        let reader = PersistentStoreCoordinator(managedObjectModel: try model())
        try reader.addPersistentStore(type: type, at: url)
        var result: [String: Any?] = [:]
        for object in try ManagedObjectContext(coordinator: reader).fetch(FetchRequest(entityName: "Value")) {
            let label = try #require(try object.checkedValue(forKey: "label") as? String)
            let key = try #require(values.first { $0.label == label }?.key)
            result[label] = try object.checkedValue(forKey: key)
        }
        #expect(result.count == values.count)
        return result
    }

    @Test(arguments: fileTypes)
    func everyStringComesBack(_ type: StoreType) throws {
        let read = try roundTrip(type, Self.strings.enumerated().map { ("s\($0.offset)", "text", $0.element) })
        for (n, string) in Self.strings.enumerated() {
            let back = read["s\(n)"] as? String
            #expect(
                back.map { Array($0.unicodeScalars) } == Array(string.unicodeScalars),
                "\(type): \(string.debugDescription) came back as \(back.debugDescription)")
        }
    }

    @Test(arguments: fileTypes)
    func tenMegabyteValuesComeBack(_ type: StoreType) throws {
        // 12 MB, with characters XML cannot carry
        let big = String(repeating: "0123456789abcdef<&>\u{1}", count: 600_000)
        let plain = String(repeating: "plain text ", count: 1_000_000) // 11 MB of ordinary text
        let bytes = Data((0..<(11 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        let read = try roundTrip(type, [("big", "text", big), ("plain", "text", plain), ("bytes", "bytes", bytes)])
        #expect(read["big"] as? String == big)
        #expect(read["plain"] as? String == plain)
        #expect(read["bytes"] as? Data == bytes)
    }

    @Test(arguments: fileTypes)
    func arbitraryBytesComeBack(_ type: StoreType) throws {
        let samples = [
            Data(), Data([0]), Data((0...255).map { UInt8($0) }), Data([0xED, 0xA0, 0x80]), Data("\u{FFFE}".utf8),
            Data([0xFF, 0xFE, 0x00, 0xD8]),
        ]
        let read = try roundTrip(type, samples.enumerated().map { ("d\($0.offset)", "bytes", $0.element) })
        for (n, data) in samples.enumerated() { #expect(read["d\(n)"] as? Data == data, "\(type): bytes \(n)") }
    }

    @Test(arguments: fileTypes)
    func numbersAtTheEdgesComeBack(_ type: StoreType) throws {
        var values: [(String, String, Any)] = []
        values += Self.decimals.enumerated().map { ("dec\($0.offset)", "decimal", $0.element) }
        values += Self.integers.enumerated().map { ("int\($0.offset)", "integer", $0.element) }
        values += Self.reals.enumerated().map { ("real\($0.offset)", "real", $0.element) }
        let read = try roundTrip(type, values)
        for (n, decimal) in Self.decimals.enumerated() {
            #expect(
                read["dec\(n)"] as? Decimal == decimal,
                "\(type): \(decimal) came back as \(String(describing: read["dec\(n)"] ?? nil))")
        }
        for (n, integer) in Self.integers.enumerated() {
            #expect(read["int\(n)"] as? Int == integer, "\(type): \(integer)")
        }
        for (n, real) in Self.reals.enumerated() {
            let back = try #require(read["real\(n)"] as? Double, "\(type): \(real)")
            // Bit for bit: -0.0 stays negative, a NaN stays a NaN.
            #expect(
                back.bitPattern == real.bitPattern || (back.isNaN && real.isNaN),
                "\(type): \(real) came back as \(back)")
        }
    }

    @Test(arguments: fileTypes)
    func aDecimalNaNIsRefusedAtSaveNamingObjectAndKey(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Values.\(type.rawValue)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let fine = try context.insertNewObject(forEntityName: "Value")
        try fine.checkedSetValue("fine", forKey: "label")
        try context.save()
        let before = try Data(contentsOf: url)
        let object = try context.insertNewObject(forEntityName: "Value")
        try object.checkedSetValue("nan", forKey: "label")
        try object.checkedSetValue(Decimal.nan, forKey: "decimal")
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.key == "decimal")
        #expect(error?.objectURI?.contains("/Value/p") == true, "\(error?.objectURI ?? "no URI")")
        #expect(try Data(contentsOf: url) == before, "nothing was written")
        // The store still opens, and the change can be fixed and saved.
        try object.checkedSetValue(Decimal(1), forKey: "decimal")
        try context.save()
        let reader = PersistentStoreCoordinator(managedObjectModel: try model())
        try reader.addPersistentStore(type: type, at: url)
        #expect(try ManagedObjectContext(coordinator: reader).count(for: FetchRequest(entityName: "Value")) == 2)
    }
}
