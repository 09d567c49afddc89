import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML element with the line it starts on, read whole with Foundation's XMLParser: model
/// files are small, and a tree lets the model reader name the line of anything it refuses.
struct XMLElementNode {
    var name: String
    var attributes: [String: String]
    var line: Int
    var children: [XMLElementNode] = []

    /// The children with this element name.
    func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// Parses a document. A malformed one throws an error naming the file, line and column.
    static func parse(_ data: Data, file: String) throws -> XMLElementNode {
        let parseable: Data
        do {
            parseable = try XMLText.parseable(data)
        } catch {
            throw CoreDataError(
                .fileReadCorruptFile,
                "\(file):\(error.line): \(error.reason), which Xcode's model and mapping files never are or hold")
        }
        let parser = XMLParser(data: parseable)
        let builder = Builder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if !ok || builder.failure != nil {
            let (line, column, reason) =
                builder.failure
                ?? (
                    parser.lineNumber, parser.columnNumber,
                    parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown error"
                )
            throw CoreDataError(
                .fileReadCorruptFile,
                "\(file):\(line):\(column): the model file is not well-formed XML (\(reason)). Fix the XML at that line, or open the model in Xcode and save it again."
            )
        }
        guard let root = builder.root else {
            throw CoreDataError(
                .fileReadCorruptFile,
                "\(file):1: the model file has no XML element; it should hold a <model> element as Xcode writes it")
        }
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
                if failure == nil {
                    failure = (
                        parser.lineNumber, parser.columnNumber,
                        "elements nested deeper than \(XMLText.maximumDepth)"
                    )
                }
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

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if failure == nil {
                let nsError = parseError as NSError
                failure = (parser.lineNumber, parser.columnNumber, "XMLParser error \(nsError.code)")
            }
        }
    }
}
