import Foundation

/// The generated blocks of a book page. Each sits between an opening and a closing HTML
/// comment, which Markdown renderers hide:
///
///     <!-- listing fetching/fetch-all -->      code between `// ANCHOR: fetch-all` and
///     ```swift                                  `// ANCHOR_END: fetch-all` in the chapter
///     ...
///     ```
///     <!-- /listing -->
///
///     <!-- output fetching/all-books -->        what `fetching --section all-books` prints
///     <!-- output fetching/listing-1 --sql -->  the same with the SQL log
///     <!-- diagram fetching/company -->         a Mermaid erDiagram of a chapter's model
///     <!-- codegen versioning/todo-2 ToDo -->   the Swift classes `workbook model codegen`
///                                               writes for a chapter's model, named ToDo
struct BookMarker: Equatable {
    enum Kind: String { case listing, output, diagram, codegen }
    let kind: Kind
    let chapter: String
    let name: String
    let showsSQL: Bool
    /// The name a codegen block gives the model (its third word), else the marker's name.
    var modelName: String? = nil
    /// Line numbers (0-based) of the opening and closing comments.
    let openLine: Int
    let closeLine: Int

    /// The fence language of the block.
    var language: String {
        switch kind {
        case .listing, .codegen: return "swift"
        case .output: return "text"
        case .diagram: return "mermaid"
        }
    }
}

/// A marker that could not be read, with the line it is on.
struct BookMarkerError: Error, CustomStringConvertible {
    let file: String
    let line: Int
    let problem: String
    var description: String { "\(file):\(line + 1): \(problem)" }
}

enum BookMarkers {
    /// Finds every marker of a page, checking that each is closed.
    static func find(in lines: [String], file: String) throws -> [BookMarker] {
        var markers: [BookMarker] = []
        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("<!-- "), line.hasSuffix(" -->"),
                let kind = BookMarker.Kind(rawValue: String(line.dropFirst(5).prefix { $0 != " " }))
            else {
                i += 1
                continue
            }
            let words = line.dropFirst(5).dropLast(4).split(separator: " ").map(String.init)
            guard words.count >= 2, case let parts = words[1].split(separator: "/").map(String.init), parts.count == 2
            else {
                throw BookMarkerError(
                    file: file, line: i,
                    problem:
                        "a \(kind.rawValue) marker needs CHAPTER/NAME, as in <!-- \(kind.rawValue) fetching/all-books -->"
                )
            }
            let close = "<!-- /\(kind.rawValue) -->"
            guard let end = lines[(i + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == close })
            else {
                throw BookMarkerError(
                    file: file, line: i,
                    problem: "this \(kind.rawValue) marker is never closed; add \(close) after its block")
            }
            markers.append(
                BookMarker(
                    kind: kind, chapter: parts[0], name: parts[1], showsSQL: words.contains("--sql"),
                    modelName: words.dropFirst(2).first { !$0.hasPrefix("--") }, openLine: i, closeLine: end))
            i = end + 1
        }
        return markers
    }
}
