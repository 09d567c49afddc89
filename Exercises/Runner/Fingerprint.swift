import Foundation

/// A 64-bit FNV-1a hash, for telling whether an exercise's inputs changed since its last check.
/// Not for security: a cache key in the learner's own build folder.
struct Fingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Mixes in bytes.
    mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        value ^= 0xff
        value = value &* 0x0000_0100_0000_01b3
    }

    /// Mixes in a string's UTF-8.
    mutating func add(_ text: String) { add(Array(text.utf8)) }

    /// The hash as 16 hexadecimal digits.
    var hex: String { String(value, radix: 16).leftPadded(to: 16) }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
