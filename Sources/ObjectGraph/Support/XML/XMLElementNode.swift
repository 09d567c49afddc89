import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML element with the line it starts on, read whole with Foundation's `XMLParser`.
///
/// Every XML file ObjectGraph reads (Xcode's model and mapping files, Core Data's XML store)
/// becomes this tree, not Foundation's `XMLDocument`: on Linux an `XMLDocument` is never freed
/// (its nodes and libxml2's hold each other strongly), so each file read leaked its whole
/// document (found by `Fuzz/run.sh mapping`, which ran out of memory). A tree of values is
/// freed like any other, and it lets a reader name the line of anything it refuses.
struct XMLElementNode {
    /// The element's name, as written (no namespace processing).
    var name: String
    /// The element's attributes, their values with references resolved.
    var attributes: [String: String]
    /// The 1-based line the element starts on.
    var line: Int
    /// The child elements, in document order.
    var children: [XMLElementNode] = []
    /// The element's own character data (text and CDATA sections), without its children's:
    /// the files read hold text only in elements without children.
    var text = ""

    /// The children with this element name.
    func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The first child with this element name.
    func firstChild(named name: String) -> XMLElementNode? { children.first { $0.name == name } }
}

extension XMLElementNode {
    /// Why a document gave no tree, and where.
    enum Failure: Error {
        /// Bytes refused before the parser saw them (see ``XMLText/parseable(_:)``).
        case refused(XMLText.Refusal)
        /// XML that is not well formed, or nested too deep, at a line and column.
        case malformed(line: Int, column: Int, reason: String)
        /// A document without any element.
        case empty
    }

    /// Reads a document into a tree, refusing what ``XMLText/parseable(_:)`` refuses.
    static func parse(_ data: Data) throws(Failure) -> XMLElementNode {
        let parseable: Data
        do {
            parseable = try XMLText.parseable(data)
        } catch {
            throw .refused(error)
        }
        // From a stream: swift-corelibs-foundation's XMLParser(data:) hands libxml2 the whole
        // document at once and fails on any document over 10 MB; a stream goes in pieces.
        let parser = XMLParser(stream: InputStream(data: parseable))
        let builder = Builder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        // swift-corelibs-foundation's parse() can return true after reporting an error.
        let ok = parser.parse()
        if let (line, column, reason) = builder.failure {
            throw .malformed(line: line, column: column, reason: reason)
        }
        guard ok else {
            let reason = parser.parserError.map { $0.localizedDescription } ?? "unknown error"
            throw .malformed(line: parser.lineNumber, column: parser.columnNumber, reason: reason)
        }
        guard let root = builder.root else { throw .empty }
        return root
    }

    /// Collects elements into a tree as the parser reports them.
    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLElementNode] = []
        var root: XMLElementNode?
        var failure: (Int, Int, String)?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            guard stack.count < XMLText.maximumDepth else {
                fail(parser, "elements nested deeper than \(XMLText.maximumDepth)")
                parser.abortParsing()
                return
            }
            stack.append(XMLElementNode(name: elementName, attributes: attributeDict, line: parser.lineNumber))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            guard let node = stack.popLast() else { return }
            if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            fail(parser, parseError.localizedDescription)
        }

        /// Keeps the first failure: later ones follow from it.
        private func fail(_ parser: XMLParser, _ reason: String) {
            if failure == nil { failure = (parser.lineNumber, parser.columnNumber, reason) }
        }
    }
}

extension XMLElementNode {
    /// The element written back as XML text: its attributes sorted by name, its text before
    /// its children. For a property list embedded in another document, which
    /// `PropertyListSerialization` then reads on its own.
    var xmlString: String {
        var out = "<\(name)"
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            out += " \(key)=\"\(XMLText.escaped(value, inAttribute: true))\""
        }
        out += ">" + XMLText.escaped(text, inAttribute: false)
        for child in children { out += child.xmlString }
        return out + "</\(name)>"
    }
}
