import Foundation
import Testing

@testable import ObjectGraph

// NSKeyedArchiver's archives, read and written here for what a transformable attribute's
// default transformer allows: checked against Foundation's own NSKeyedArchiver and
// NSKeyedUnarchiver (which read and write NSArray, NSDictionary, NSString... on Linux), never
// against this module's reader alone.
@Suite struct KeyedArchiveTests {
    /// Values of every class NSSecureUnarchiveFromData allows, nested.
    nonisolated(unsafe) static let samples: [(String, Any)] = [
        ("string", "Pay rent — 家賃"),
        ("integer", 42),
        ("negative integer", -7_000_000_000),
        ("double", 19.99),
        ("bool", true),
        ("date", Date(timeIntervalSinceReferenceDate: 700_000_000.5)),
        ("data", Data([0, 1, 2, 255])),
        ("url", URL(string: "https://example.com/a?b=c")!),
        ("uuid", UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!),
        ("array of strings", ["richard@richardpiazza.com", "b"]),
        (
            "dictionary",
            ["name": "Dune", "pages": 412, "tags": ["sf", "classic"], "nested": ["a": 1.5]] as [String: Any]
        ),
        ("set", Set<AnyHashable>(["x", "y"])),
        ("empty array", [Any]()),
    ]

    /// Foundation's reading of an archive: the test's own decoder.
    static func foundationDecode(_ data: Data) throws -> Any? {
        try NSKeyedUnarchiver.unarchivedObject(
            ofClasses: [
                NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self,
                NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self,
            ], from: data)
    }

    /// Whether two decoded values are the same, comparing as Foundation's objects do.
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?):
            if let x = x as? [Any], let y = y as? [Any] {
                return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
            }
            if let x = x as? NSArray, let y = y as? [Any] { return same(x as? [Any] ?? x.map { $0 }, y) }
            if let x = x as? [String: Any], let y = y as? [String: Any] {
                return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { same(x[$0], y[$0]) }
            }
            if let x = x as? NSDictionary, let y = y as? [String: Any] {
                var converted: [String: Any] = [:]
                for (k, v) in x { converted["\(k)"] = v }
                return same(converted, y)
            }
            if let x = x as? Set<AnyHashable>, let y = y as? Set<AnyHashable> { return x == y }
            if let x = x as? NSSet, let y = y as? Set<AnyHashable> {
                return Set(x.map { "\($0)" }) == Set(y.map { "\($0.base)" })
            }
            if let x = x as? NSUUID, let y = y as? UUID { return x.uuidString == y.uuidString }
            if let x = x as? NSURL, let y = y as? URL { return x.absoluteString == y.absoluteString }
            if let x = x as? NSDate, let y = y as? Date {
                return x.timeIntervalSinceReferenceDate == y.timeIntervalSinceReferenceDate
            }
            if let x = x as? NSNumber, let y = y as? Bool { return x.boolValue == y }
            if let x = x as? NSNumber, let y = y as? Int { return x.int64Value == Int64(y) }
            if let x = x as? NSNumber, let y = y as? Double { return x.doubleValue == y }
            if let x = x as? AnyHashable, let y = y as? AnyHashable { return x == y || "\(x.base)" == "\(y.base)" }
            return "\(x)" == "\(y)"
        default: return false
        }
    }

    @Test func everyAllowedValueRoundTrips() throws {
        for (name, value) in Self.samples {
            let data = try KeyedArchive.archivedData(withRootValue: value)
            let back = try KeyedArchive.unarchivedValue(from: data)
            #expect(Self.same(back, value), "\(name): \(String(describing: back))")
            // Foundation reads what this module writes: the archive is NSKeyedArchiver's.
            #expect(Self.same(try Self.foundationDecode(data), value), "\(name), read by Foundation")
        }
    }

    @Test func archivesFoundationWroteReadBack() throws {
        let values: [(String, Any)] = [
            ("array", NSArray(array: [NSString(string: "a"), NSNumber(value: 3), NSNumber(value: 2.5)])),
            (
                "dictionary",
                NSDictionary(dictionary: [
                    "k": NSNumber(value: true), "d": NSDate(timeIntervalSinceReferenceDate: 5),
                    "u": NSURL(string: "http://x")!,
                ])
            ),
            ("uuid", NSUUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!),
        ]
        for (name, value) in values {
            let data = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
            let mine = try KeyedArchive.unarchivedValue(from: data)
            #expect(Self.same(value, mine), "\(name): \(String(describing: mine))")
        }
        let dictionary = try #require(
            try KeyedArchive.unarchivedValue(
                from: NSKeyedArchiver.archivedData(
                    withRootObject: NSDictionary(dictionary: ["k": NSNumber(value: 3)]), requiringSecureCoding: true))
                as? [String: Any])
        #expect(dictionary["k"] as? Int == 3)
    }

    @Test func aClassNotAllowedIsAnErrorNamingIt() throws {
        let cover = KeyedArchive.ArchivedObject(
            classNames: ["App.Cover", "NSObject"], fields: ["text": "default cover"])
        // Written only where the class is allowed, as NSSecureUnarchiveFromData checks.
        #expect(throws: KeyedArchive.Failure.self) { try KeyedArchive.archivedData(withRootValue: cover) }
        let data = try KeyedArchive.archivedData(withRootValue: cover, allowedClassNames: ["App.Cover"])
        let error = #expect(throws: KeyedArchive.Failure.self) { try KeyedArchive.unarchivedValue(from: data) }
        #expect(error?.reason.contains("class App.Cover, which is not allowed") == true, "\(error?.reason ?? "")")
        // Allowed, it comes back as its class names and fields.
        let back = try #require(
            try KeyedArchive.unarchivedValue(from: data, allowedClassNames: ["App.Cover"])
                as? KeyedArchive.ArchivedObject)
        #expect(back.className == "App.Cover")
        #expect(back.fields["text"] as? String == "default cover")
    }

    @Test func damagedArchivesAreErrorsNeverCrashes() throws {
        let valid = try KeyedArchive.archivedData(
            withRootValue: ["name": "Dune", "tags": ["a", "b"], "when": Date(timeIntervalSinceReferenceDate: 1)]
                as [String: Any])
        #expect(throws: KeyedArchive.Failure.self) { try KeyedArchive.unarchivedValue(from: Data()) }
        #expect(throws: KeyedArchive.Failure.self) { try KeyedArchive.unarchivedValue(from: Data("bplist00".utf8)) }
        #expect(throws: KeyedArchive.Failure.self) {
            try KeyedArchive.unarchivedValue(from: valid.prefix(valid.count - 1))
        }
        // Every single-byte change and every truncation: an error or a value, never a trap.
        var generator = SystemRandomNumberGenerator()
        var failures = 0
        for position in 0..<valid.count {
            var damaged = valid
            damaged[position] = UInt8.random(in: 0...255, using: &generator)
            do { _ = try KeyedArchive.unarchivedValue(from: damaged) } catch { failures += 1 }
            do { _ = try KeyedArchive.unarchivedValue(from: valid.prefix(position)) } catch { failures += 1 }
        }
        #expect(failures >= valid.count, "every truncation at least is an error")
    }

    @Test func aBinaryPropertyListIsWhatFoundationReads() throws {
        let value: BinaryPropertyList.Value = .dictionary([
            ("string", .string("ascii")), ("unicode", .string("é 家")), ("int", .integer(-5)),
            ("big", .integer(1 << 40)),
            ("real", .real(2.5)), ("yes", .boolean(true)), ("data", .data(Data(repeating: 7, count: 20))),
            ("array", .array((0..<300).map { .integer(Int64($0)) })),
        ])
        let data = BinaryPropertyList.write(value)
        #expect(try BinaryPropertyList.read(data) == value)
        let foundation = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(foundation["unicode"] as? String == "é 家")
        #expect(foundation["int"] as? Int == -5)
        #expect(foundation["big"] as? Int == 1 << 40)
        #expect((foundation["array"] as? [Any])?.count == 300)
        // And this reader reads what Foundation writes.
        let written = try PropertyListSerialization.data(
            fromPropertyList: ["k": ["v", 1, 2.5, true]], format: .binary, options: 0)
        #expect(
            try BinaryPropertyList.read(written)
                == .dictionary([("k", .array([.string("v"), .integer(1), .real(2.5), .boolean(true)]))]))
    }
}
