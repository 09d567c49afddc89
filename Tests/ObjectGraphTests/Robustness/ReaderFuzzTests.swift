import Foundation
import ObjectGraph
import ReaderFuzzing
import Testing

// The bounded fuzz of every reader of outside bytes, for CI: each reader's seeds
// (Fuzz/<reader>/seed) and a fixed number of deterministic mutations of them (a fixed-seed
// PRNG: bit flips, bytes set to edge values, cuts, inserts, copies, splices of two seeds,
// truncations, deep nesting, huge runs, edge numbers), judged by the same checks as the
// libFuzzer targets (Fuzz/Readers). The full run is `bash Fuzz/run.sh all 1000000`
// (Fuzz/README.md), which builds the package again with libFuzzer: too slow for CI.

/// The mutations draw from SeededGenerator (SplitMix64, Support/SQLTestSupport.swift): its
/// sequence depends only on its seed, so a failure names an input that the next run makes again.
extension SeededGenerator {
    /// 0..<n (n > 0).
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

    /// One of `items`.
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
}

/// Byte-level mutations, as libFuzzer's are, plus the structured ones a reader of nested
/// text or counted binary must bound: nesting, size and numbers.
enum ByteMutator {
    static let edgeBytes: [UInt8] = [
        0x00, 0xFF, 0x7F, 0x80, 0x01, 0x0A, 0x3C, 0x3E, 0x22, 0x26, 0x25, 0x28, 0x5B, 0x7B, 0x2F, 0x3F,
    ]
    static let edgeNumbers = [
        "0", "-1", "99999999999999999999", "18446744073709551615", "9223372036854775808", "2147483648",
        "-9223372036854775809", "-9223372036854775808", "9223372036854775807", "1e400", "nan", "0x7fffffff", "65536",
        "4294967296",
    ]
    static let edgeIntegers: [UInt64] = [0, 1, 0x7F, 0xFF, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x7FFF_FFFF_FFFF_FFFF, .max]

    /// One to three mutations of `data`; `other` is another seed to splice with.
    static func mutate(_ data: Data, other: Data, random: inout SeededGenerator) -> Data {
        var bytes = [UInt8](data)
        for _ in 0...random.int(3) { mutateOnce(&bytes, other: [UInt8](other), random: &random) }
        return Data(bytes)
    }

    private static func mutateOnce(_ bytes: inout [UInt8], other: [UInt8], random: inout SeededGenerator) {
        let at = random.int(bytes.count + 1)
        switch random.int(12) {
        case 0 where at < bytes.count: bytes[at] ^= UInt8(1) << UInt8(random.int(8))
        case 1 where at < bytes.count: bytes[at] = random.pick(edgeBytes)
        case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.int(16)))
        case 3:
            bytes.insert(contentsOf: (0...random.int(8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
        case 4 where !bytes.isEmpty:
            let start = random.int(bytes.count)
            let chunk = bytes[start..<min(bytes.count, start + 1 + random.int(64))]
            bytes.insert(contentsOf: chunk, at: random.int(bytes.count + 1))
        case 5: bytes = Array(bytes.prefix(at)) + other.suffix(random.int(other.count + 1))
        case 6: bytes = Array(bytes.prefix(at))
        case 7 where !bytes.isEmpty:
            // Deep nesting: a piece (an element's start tag, a parenthesis, an array marker)
            // repeated thousands of times in place.
            let start = random.int(bytes.count)
            let piece = Array(bytes[start..<min(bytes.count, start + 1 + random.int(24))])
            let times = 500 + random.int(2000)
            bytes.insert(contentsOf: (0..<times).flatMap { _ in piece }, at: start)
        case 8:
            // A huge run: an attribute, a string or a count of 64 KB (four times the largest
            // input the libFuzzer runs try, and larger than any seed).
            bytes.insert(
                contentsOf: [UInt8](repeating: random.pick([0x41, 0x20, 0x30, 0x3C, 0xFF] as [UInt8]), count: 65_536),
                at: at)
        case 9:
            // An edge number in place of the next run of digits.
            guard let start = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) else { return }
            let end = bytes[start...].firstIndex { !(0x30...0x39).contains($0) } ?? bytes.count
            bytes.replaceSubrange(start..<end, with: Array(random.pick(edgeNumbers).utf8))
        case 10 where at < bytes.count:
            // An edge integer over up to eight bytes (a binary plist's counts, offsets, sizes).
            let size = 1 + random.int(8)
            let value = random.pick(edgeIntegers)
            for i in 0..<size where at + i < bytes.count {
                bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - i)))
            }
        default:
            if bytes.count > 1 { bytes.swapAt(random.int(bytes.count), random.int(bytes.count)) }
        }
    }
}

@Suite("Readers of outside bytes: bounded fuzz")
struct ReaderFuzzTests {
    /// Mutations per reader, 2,630 in all: each reader's share costs 0.5 to 3 seconds in a debug
    /// build on 2 cores (a migration per mapping that still loads, a save per store that opens,
    /// 64 KB inputs for the file readers); about 12 seconds of CPU for all.
    static let mutations: [String: Int] = [
        "predicate": 300, "model": 150, "currentversion": 500, "mapping": 80, "cdm": 200,
        "xmlstore": 100, "binarystore": 300, "keyedarchive": 1000,
    ]
    /// Inputs cut to this size for a reader: format strings are short (libFuzzer tries 256
    /// bytes, and FuzzTests the language itself); a 64 KB one only costs time in a debug build.
    static let maximumSize: [String: Int] = ["predicate": 4096]
    /// Longer than this for one input is a hang or a blow-up in the making.
    static let slowInput: TimeInterval = 5

    @Test(arguments: FuzzedReaders.all.map(\.name))
    func seedsAndMutations(reader name: String) throws {
        let reader = try #require(FuzzedReaders.named(name))
        let seeds = try FuzzedReaders.seeds(of: name)
        #expect(!seeds.isEmpty, "Fuzz/\(name)/seed has no seeds")
        let directory = try TemporaryDirectory()
        let scratch = FuzzScratch(directory: directory.url)
        var findings: [String] = []
        func run(_ data: Data, _ what: String) {
            let start = Date()
            if let finding = reader.check(data, scratch) {
                findings.append("\(what): \(finding)\n  input: \(describeInput(data))")
            }
            let seconds = Date().timeIntervalSince(start)
            if seconds > Self.slowInput { findings.append("\(what) took \(Int(seconds)) s (\(data.count) bytes)") }
        }
        for seed in seeds { run(seed.data, "seed \(seed.name)") }
        var random = SeededGenerator(seed: 0x0B7E_C76A_F00D ^ UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        for n in 0..<(Self.mutations[name] ?? 300) where findings.count < 5 {
            let seed = random.pick(seeds)
            let input = ByteMutator.mutate(seed.data, other: random.pick(seeds).data, random: &random).prefix(
                Self.maximumSize[name] ?? .max)
            run(input, "mutation \(n) of \(seed.name)")
        }
        #expect(findings.isEmpty, "\(name): \(findings.joined(separator: "\n"))")
    }

    // Package.swift's list of libFuzzer targets, the checks and the folders agree.
    @Test func everyReaderHasATargetAndSeeds() throws {
        let fuzz = FuzzedReaders.fuzzDirectory
        let manifest = try String(
            contentsOf: fuzz.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        // The list, from its `let fuzzedReaders = [` to its `]` (on one line or several).
        let start = try #require(manifest.range(of: "let fuzzedReaders = ["))
        let end = try #require(manifest[start.upperBound...].firstIndex(of: "]"))
        let list = manifest[start.upperBound..<end]
        let listed = list.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(listed == FuzzedReaders.all.map(\.name))
        let targets = try FileManager.default.contentsOfDirectory(atPath: fuzz.appendingPathComponent("Targets").path)
        #expect(Set(targets) == Set(listed))
        for name in listed {
            #expect(try !FuzzedReaders.seeds(of: name).isEmpty, "Fuzz/\(name)/seed")
        }
    }
}

/// The input as text for a finding: short inputs whole, long ones cut.
private func describeInput(_ data: Data) -> String {
    let text = String(decoding: data.prefix(300), as: UTF8.self)
    return text.debugDescription + (data.count > 300 ? " (\(data.count) bytes in all)" : "")
}
