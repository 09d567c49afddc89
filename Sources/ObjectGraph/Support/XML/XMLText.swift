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
    /// `text` escaped for XML: `&`, `<`, `>`, `"` and a carriage return (which parsers would
    /// turn into a line feed) as references. In an attribute value, line feeds and tabs too,
    /// which a parser would otherwise read back as spaces; element text keeps them.
    static func escaped(_ text: String, inAttribute: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
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
        // The standard library's validation first: files are megabytes, and this loop is slow
        // in a debug build.
        if String(validating: data, as: UTF8.self) != nil { return nil }
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
        let bytes = [UInt8](data.prefix(9))
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // The declaration: `<?xml` and a space. `<?xml?>` is a processing instruction to
        // libxml2, and crashes XMLParser like any other without data.
        if bytes[start...].starts(with: Array("<?xml".utf8)), start + 5 < bytes.count,
            [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5])
        {
            start += 5
        }
        return firstOffset(of: "<?", in: data, from: start)
    }
}

extension XMLText {
    /// Why a document is refused before Foundation's XML parsers see it, and where.
    struct Refusal: Error {
        /// The byte the refusal is about.
        let offset: Int
        /// The 1-based line of that byte.
        let line: Int
        /// What is wrong, in words that name the byte (the readers add the file).
        let reason: String
    }

    /// The deepest nesting of elements the readers accept: libxml2's own limit without
    /// XML_PARSE_HUGE, which swift-corelibs-foundation's XMLParser sets. Xcode's and Core
    /// Data's files nest six elements at most; a document nested 100,000 deep parses, and the
    /// tree built from it is freed by recursion that overflows the stack.
    static let maximumDepth = 256

    /// The bytes to hand to Foundation's XML parsers: `data` with its document type
    /// declaration blanked out, or a ``Refusal`` for what those parsers must never see.
    ///
    /// - Bytes that are not UTF-8, and processing instructions, crash XMLParser (see
    ///   ``firstNonUTF8Offset(_:)`` and ``processingInstructionOffset(_:)``).
    /// - A document type declaration with an internal subset (`<!DOCTYPE x [ ... ]>`) declares
    ///   entities: an external one (`<!ENTITY e SYSTEM "file:///etc/passwd">`) may be read by a
    ///   parser that substitutes entities, and nested ones expand exponentially ("billion
    ///   laughs"). No Xcode or Core Data file declares entities: refused.
    /// - The declaration Core Data's XML store writes (`<!DOCTYPE database SYSTEM
    ///   "file:///System/Library/DTDs/CoreData.dtd">`) names an external DTD, and a stranger's
    ///   file may name any file or URL there: replaced by spaces (line numbers and byte
    ///   offsets stay), so no parser can load it.
    static func parseable(_ data: Data) throws(Refusal) -> Data {
        if let offset = firstNonUTF8Offset(data) {
            throw refusal(data, offset, "the file is not UTF-8 text (byte \(offset) is not UTF-8)")
        }
        if let offset = processingInstructionOffset(data) {
            throw refusal(data, offset, "the file holds a processing instruction (<? at byte \(offset))")
        }
        guard let start = firstOffset(of: "<!DOCTYPE", in: data) else {
            if let entity = firstOffset(of: "<!ENTITY", in: data) {
                throw refusal(data, entity, "the file declares an entity (<!ENTITY at byte \(entity))")
            }
            return data
        }
        // The declaration ends at the first `>` outside quotes; a `[` before it opens an
        // internal subset.
        var bytes = [UInt8](data)
        var i = start + "<!DOCTYPE".utf8.count
        var quote: UInt8? = nil
        while i < bytes.count {
            let byte = bytes[i]
            if let q = quote {
                if byte == q { quote = nil }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B {
                throw refusal(
                    data, start,
                    "the document type declaration at byte \(start) declares "
                        + "entities or elements of its own (an internal subset, `[`), which Xcode and Core Data never write"
                )
            } else if byte == 0x3E {
                break
            }
            i += 1
        }
        guard i < bytes.count else {
            throw refusal(data, start, "the document type declaration at byte \(start) does not end")
        }
        for j in start...i where bytes[j] != 0x0A && bytes[j] != 0x0D { bytes[j] = 0x20 }
        let parseable = Data(bytes)
        if let entity = firstOffset(of: "<!ENTITY", in: parseable) {
            throw refusal(data, entity, "the file declares an entity (<!ENTITY at byte \(entity))")
        }
        return parseable
    }

    private static func refusal(_ data: Data, _ offset: Int, _ reason: String) -> Refusal {
        let line = 1 + data.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return Refusal(offset: offset, line: line, reason: reason)
    }

    /// The offset of the first `needle` at or after `start`: Foundation's search, which is
    /// fast in a debug build too.
    private static func firstOffset(of needle: String, in data: Data, from start: Int = 0) -> Int? {
        guard start < data.count else { return nil }
        let range = data.startIndex + start..<data.endIndex
        return data.range(of: Data(needle.utf8), in: range).map { $0.lowerBound - data.startIndex }
    }
}
