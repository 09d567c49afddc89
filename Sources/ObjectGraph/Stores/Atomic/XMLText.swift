import Foundation

/// What text XML 1.0 can carry (its `Char` production): tab, line feed, carriage return,
/// U+0020...U+D7FF, U+E000...U+FFFD and U+10000...U+10FFFF. Anything else, escaped or not,
/// makes a document that no parser accepts.
enum XMLText {
    /// Whether every scalar of `text` may appear in an XML 1.0 document.
    static func canCarry(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
            default: return false
            }
        }
    }
}

