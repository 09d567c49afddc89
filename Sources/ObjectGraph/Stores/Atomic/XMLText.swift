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


extension XMLText {
    /// The offset of the first byte that is not UTF-8, or nil when all of `data` is.
    ///
    /// Read before handing a file to Foundation's XML parsers: swift-corelibs-foundation runs
    /// libxml2 in recover mode, which passes an element or attribute name that is not UTF-8 on
    /// to XMLParser's callbacks, and those force-unwrap its conversion to String: the process
    /// traps (found by Fuzz/run.sh model). Every file these readers take (Xcode's model and
    /// mapping files, Core Data's XML store) is UTF-8.
    static func firstNonUTF8Offset(_ data: Data) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

extension XMLText {
    /// The offset of the first processing instruction (`<?`) other than the XML declaration
    /// at the start, or nil.
    ///
    /// swift-corelibs-foundation's XMLParser crashes (strlen of NULL) on a processing
    /// instruction without data, such as `<?x?>` (found by Fuzz/run.sh xmlstore). No file these
    /// readers take holds one, so the readers refuse any; this may also refuse a `<?` inside a
    /// comment or CDATA section, which Xcode and Core Data do not write either.
    static func processingInstructionOffset(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // The declaration: `<?xml` and a space. `<?xml?>` is a processing instruction to
        // libxml2, and crashes XMLParser like any other without data.
        if bytes[start...].starts(with: Array("<?xml".utf8)), start + 5 < bytes.count,
           [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5]) {
            start += 5
        }
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == 0x3C && bytes[i + 1] == 0x3F { return i }
            i += 1
        }
        return nil
    }
}
