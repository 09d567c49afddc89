import AllChapters
import Foundation
import Ink

/// Writes the book as a static HTML site that reads well offline: a contents sidebar,
/// previous/next links, highlighted Swift, diagrams drawn as SVG, the chapters' real output,
/// and a search box over every section.
struct SiteRenderer {
    let bookDirectory: URL
    let outputDirectory: URL

    struct Page {
        let source: URL
        let htmlName: String
        let title: String
        /// The chapter's number in the README's numbered contents; nil for the README and appendices.
        var number: Int? = nil
        /// The part of the book the chapter belongs to (the chapter catalog's); nil for other pages.
        var part: BookPart? = nil
        var body: String = ""
        var sections: [(id: String, title: String, text: String)] = []
    }

    /// The pages in reading order: README first, then the pages it links to, then the rest.
    func pageOrder() throws -> [URL] {
        let files = try FileManager.default.contentsOfDirectory(at: bookDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        let readme = bookDirectory.appendingPathComponent("README.md")
        var order = [readme]
        let text = (try? String(contentsOf: readme, encoding: .utf8)) ?? ""
        let regex = try NSRegularExpression(pattern: "\\]\\(([A-Za-z0-9_-]+\\.md)\\)")
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 1), in: text)!])
            let url = bookDirectory.appendingPathComponent(name)
            if !order.contains(url) && FileManager.default.fileExists(atPath: url.path) { order.append(url) }
        }
        for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) where !order.contains(file) {
            order.append(file)
        }
        return order
    }

    /// The chapter numbers the README gives its numbered contents items (`1. [Fetching](fetching.md)`),
    /// keyed by file name. The sidebar shows these numbers, so it agrees with the README; a
    /// plain `<ol>` over every page counted the README itself as 1 and every chapter one too high.
    func chapterNumbers() throws -> [String: Int] {
        let readme = bookDirectory.appendingPathComponent("README.md")
        let text = (try? String(contentsOf: readme, encoding: .utf8)) ?? ""
        let regex = try NSRegularExpression(
            pattern: "^([0-9]+)\\. \\[[^\\]]*\\]\\(([A-Za-z0-9_-]+\\.md)\\)", options: [.anchorsMatchLines])
        var numbers: [String: Int] = [:]
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let numberRange = Range(match.range(at: 1), in: text),
                let nameRange = Range(match.range(at: 2), in: text),
                let number = Int(text[numberRange])
            else { continue }
            let name = String(text[nameRange])
            if numbers[name] == nil { numbers[name] = number }
        }
        return numbers
    }

    func render(progress: (String) -> Void) throws -> Int {
        var parser = MarkdownParser()
        parser.addModifier(
            Modifier(target: .codeBlocks) { _, markdown in
                let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
                let language = lines.first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`~ ")) } ?? ""
                var body = lines.dropFirst()
                if let last = body.last, last.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    body = body.dropLast()
                }
                let code = body.joined(separator: "\n")
                switch language {
                case "swift":
                    return
                        "<pre class=\"code swift\"><code>\(Self.listingLines(code, html: SwiftHighlighter.htmlLines(code)))</code></pre>"
                case "mermaid": return ERDiagramSVG.figure(code)
                case "text": return "<pre class=\"output\"><code>\(Self.outputHTML(code))</code></pre>"
                default:
                    let html = code.split(separator: "\n", omittingEmptySubsequences: false).map {
                        HTML.escape(String($0))
                    }
                    return "<pre class=\"code\"><code>\(Self.listingLines(code, html: html))</code></pre>"
                }
            })
        var pages: [Page] = []
        let numbers = try chapterNumbers()
        for url in try pageOrder() {
            progress("rendering book/\(url.lastPathComponent)")
            let markdown = try String(contentsOf: url, encoding: .utf8)
            let title =
                markdown.split(separator: "\n").first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }
                ?? url.deletingPathExtension().lastPathComponent
            let htmlName =
                url.lastPathComponent == "README.md"
                ? "index.html" : url.deletingPathExtension().lastPathComponent + ".html"
            var page = Page(
                source: url, htmlName: htmlName, title: title, number: numbers[url.lastPathComponent],
                part: Self.part(ofPage: url.lastPathComponent))
            (page.body, page.sections) = Self.addHeadingIDs(
                Self.wrapTables(Self.fixLinks(parser.html(from: Self.joinParagraphLines(markdown)))))
            // After the search index took the text, so a search for a whole name still finds it.
            page.body = Self.proseCodeBreaks(Self.breakableTableCode(page.body))
            pages.append(page)
        }
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        for (i, page) in pages.enumerated() {
            let html = Self.template(
                page: page, pages: pages, previous: i > 0 ? pages[i - 1] : nil,
                next: i + 1 < pages.count ? pages[i + 1] : nil)
            try html.write(to: outputDirectory.appendingPathComponent(page.htmlName), atomically: true, encoding: .utf8)
        }
        try (SiteAssets.css + "\n" + ERDiagramSVG.containerRules(fits: Self.diagramFits(pages.map(\.body))))
            .write(to: outputDirectory.appendingPathComponent("book.css"), atomically: true, encoding: .utf8)
        try (SiteAssets.searchScript + "\nconst SEARCH_INDEX = " + Self.searchIndex(pages) + ";\n")
            .write(to: outputDirectory.appendingPathComponent("search.js"), atomically: true, encoding: .utf8)
        return pages.count
    }

    /// The part of the book a page (`contexts.md`) belongs to: its chapter's, in the chapter catalog.
    static func part(ofPage file: String) -> BookPart? {
        allChapters.first { $0.name + ".md" == file }?.part
    }

    /// The line above a chapter's title that names its part, on screen and on paper.
    static func partLabel(_ part: BookPart?) -> String {
        guard let part else { return "" }
        return "<p class=\"part-label\">Part \(part.numeral) · \(HTML.escape(part.title))</p>\n"
    }

    /// The `fit` widths of the diagrams in these pages' bodies, for the stylesheet's rules.
    static func diagramFits(_ bodies: [String]) -> Set<Int> {
        var fits: Set<Int> = []
        for body in bodies {
            for piece in body.components(separatedBy: "<figure class=\"diagram fit-").dropFirst() {
                if let fit = Int(piece.prefix(while: \.isNumber)) { fits.insert(fit) }
            }
        }
        return fits
    }

    /// Joins the wrapped lines of each paragraph and list item into one line: Ink ends a
    /// paragraph at a line that starts with a code span, which breaks sentences apart.
    static func joinParagraphLines(_ markdown: String) -> String {
        var out: [String] = []
        var inFence = false
        var joinable = false
        for line in markdown.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inFence.toggle()
                out.append(line)
                joinable = false
                continue
            }
            if inFence {
                out.append(line)
                continue
            }
            let startsBlock =
                trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("<") || trimmed.hasPrefix("|")
                || trimmed.hasPrefix(">") || trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ")
                || trimmed.range(of: "^[0-9]+\\. ", options: .regularExpression) != nil
            if joinable && !startsBlock {
                out[out.count - 1] += " " + trimmed
                continue
            }
            out.append(line)
            joinable = !trimmed.isEmpty && !trimmed.hasPrefix("#") && !trimmed.hasPrefix("<") && !trimmed.hasPrefix("|")
        }
        return out.joined(separator: "\n")
    }

    /// An output block's text, escaped, each line a block that wraps with a hanging indent
    /// two characters deeper than the line starts, so a wrapped SQL statement or error does
    /// not read as the next line. A line of spaces and `^` under a line (a parse error
    /// pointing at its offset) is kept with that line in an `aligned` block that scrolls
    /// instead of wrapping: wrapped, the caret points at the wrong character. So are the rows
    /// of a table (``tableEnd(_:from:)``): wrapped, a row's cells land under other columns.
    static func outputHTML(_ text: String) -> String {
        let lines = text.components(separatedBy: "\n")
        var out = ""
        var n = 0
        while n < lines.count {
            if let end = tableEnd(lines, from: n) {
                out += "<span class=\"aligned\">" + lines[n..<end].map(HTML.escape).joined(separator: "\n") + "</span>"
                n = end
                continue
            }
            let next = n + 1 < lines.count ? lines[n + 1].trimmingCharacters(in: .whitespaces) : ""
            if !next.isEmpty, next.allSatisfy({ $0 == "^" }) {
                out += "<span class=\"aligned\">" + HTML.escape(lines[n]) + "\n" + HTML.escape(lines[n + 1]) + "</span>"
                n += 2
                continue
            }
            let indent = lines[n].prefix(while: { $0 == " " }).count
            // An arrow stays with the result it points to (`→ (none)`), not at a line's end.
            // A long selector or key path breaks between its parts (`...EntityNamed:` /
            // `predicateString:`), not wherever the line ends; `09:00` and `1.5` stay whole.
            let broken = breakableName(
                Substring(HTML.escape(lines[n])), humpsAbove: longestUnbroken, beforeDigits: false)
            let line = broken.replacingOccurrences(
                of: "→ ([^ ]+)", with: "<span class=\"nowrap\">→ $1</span>", options: .regularExpression)
            out += "<span class=\"line\" style=\"--indent:\(indent)\">" + line + "</span>"
            n += 1
        }
        return out
    }

    /// Where a table that starts at `lines[start]` ends (exclusive): a run of two or more
    /// lines laid out in three or more columns, each line sharing a column start with the one
    /// before (a chapter's printed table: a header and its rows). Nil when no table starts there.
    static func tableEnd(_ lines: [String], from start: Int) -> Int? {
        guard var previous = columnStarts(lines[start]) else { return nil }
        var end = start + 1
        while end < lines.count, let starts = columnStarts(lines[end]), !starts.isDisjoint(with: previous) {
            previous = starts
            end += 1
        }
        return end - start >= 2 ? end : nil
    }

    /// Where the columns of a line start: the offsets (in characters) after each run of two or
    /// more spaces between words. Nil for a line with fewer than two such runs, which reads as
    /// prose or as a value and its note, not as a table's row.
    static func columnStarts(_ line: String) -> Set<Int>? {
        let characters = Array(line)
        var starts: Set<Int> = []
        var spaces = 0
        var seenWord = false
        for (offset, character) in characters.enumerated() {
            if character == " " {
                spaces += 1
                continue
            }
            if seenWord && spaces >= 2 { starts.insert(offset) }
            seenWord = true
            spaces = 0
        }
        return starts.count >= 2 ? starts : nil
    }

    /// Links to `x.md` point at `x.html`; README is the index.
    static func fixLinks(_ html: String) -> String {
        html.replacingOccurrences(of: "href=\"README.md", with: "href=\"index.html")
            .replacingOccurrences(of: "\\.md([\"#])", with: ".html$1", options: .regularExpression)
    }

    /// A listing's lines, each a block that wraps with a hanging indent (`--indent` is the
    /// line's own indentation in characters): a line too long for the column continues
    /// indented under itself instead of running out of sight behind a scrollbar. The leading
    /// spaces sit in a box the stylesheet caps at 36% of the column: a line aligned far right
    /// under an open parenthesis otherwise filled a phone's whole line with blanks.
    static func listingLines(_ code: String, html: [String]) -> String {
        let source = code.split(separator: "\n", omittingEmptySubsequences: false)
        return html.enumerated().map { n, line in
            let indent = n < source.count ? source[n].prefix(while: { $0 == " " }).count : 0
            var text = Substring(line)
            var lead = ""
            // Only spaces the highlighter left outside any span (a comment's or string's own
            // spaces stay inside it).
            if indent > 0, text.hasPrefix(String(repeating: " ", count: indent)) {
                lead = "<span class=\"indent\">" + text.prefix(indent) + "</span>"
                text = text.dropFirst(indent)
            }
            return
                "<span class=\"line\" style=\"--indent:\(indent)\">\(lead)\(keepHyphenatedWordsWhole(breakOpportunities(String(text))))</span>"
        }.joined()
    }

    /// Marks where a long line of code may wrap besides its spaces: before a `.` that follows
    /// a name, after a `(`, and between the words of a name longer than 30 characters, so
    /// `MappingModel.defaultMappingModel(forSourceModel:` breaks between its parts. Tags and
    /// entities are left whole.
    static func breakOpportunities(_ html: String) -> String {
        var out = ""
        var tag = ""
        var inTag = false
        var inEntity = false
        var inProse = false
        var previous: Character = " "
        var longName = false
        let chars = Array(html)
        func isNamePart(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        for (i, c) in chars.enumerated() {
            if inTag {
                out.append(c)
                tag.append(c)
                if c == ">" {
                    inTag = false
                    // Comments and strings are prose: they wrap at their spaces only.
                    // (`string nowrap` too: an interpolation, which does not wrap at all.)
                    if tag.hasPrefix("<span class=\"comment\"") || tag.hasPrefix("<span class=\"string") {
                        inProse = true
                    }
                    if tag == "</span>" { inProse = false }
                }
                continue
            }
            if inEntity {
                out.append(c)
                if c == ";" {
                    inEntity = false
                    previous = "x"
                }
                continue
            }
            if c == "<" {
                inTag = true
                tag = "<"
                out.append(c)
                continue
            }
            if c == "&" {
                inEntity = true
                out.append(c)
                continue
            }
            if !inProse && c == "." && (previous.isLetter || previous == ")") { out += "<wbr>" }
            // A name too long to be sure of fitting a line may also break between its words
            // (`migratePersistentStores<wbr>Automatically`), not wherever the line ends. A
            // shorter one gets none: a browser takes the last break that fits, and breaks
            // inside it (`PersistentStore` / `Coordinator(`) rather than at the space before it.
            if isNamePart(c) && !isNamePart(previous) {
                longName = chars[i...].prefix(while: isNamePart).count > longestUnbroken
            }
            if !inProse && longName && c.isUppercase && previous.isLowercase { out += "<wbr>" }
            out.append(c)
            if !inProse && c == "(" { out += "<wbr>" }
            previous = c
        }
        return out
    }

    /// The longest word or code span kept on one line: 30 characters of 13 px code are 235 px,
    /// less than the narrowest column (a 320 px phone's 288 px).
    static let longestUnbroken = 30

    /// Keeps each word of a listing line that holds a hyphen on one line (`--sql`, `listing-1`,
    /// `"2009-05-02"`): a browser may break after any hyphen, which left `swift run fetching
    /// --section listing-1 --` on one line of a phone and `sql` on the next; and a comment's
    /// `#` or `//` with its first word. Only the text between tags is touched, so a word never
    /// straddles a highlighted span.
    static func keepHyphenatedWordsWhole(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        while !rest.isEmpty {
            if rest.first == "<", let close = rest.firstIndex(of: ">") {
                out += rest[...close]
                rest = rest[rest.index(after: close)...]
                continue
            }
            let text = rest.prefix(while: { $0 != "<" })
            rest = rest[text.endIndex...]
            var word = ""
            func flush() {
                let length = word.replacingOccurrences(of: "&[a-z]+;", with: "x", options: .regularExpression).count
                // A comment marker does not count: its word alone must fit.
                let marker = word.hasPrefix("# ") ? 2 : word.hasPrefix("// ") ? 3 : 0
                let whole = word.contains("-") || marker > 0
                out +=
                    whole && length > 1 && length - marker <= longestUnbroken
                    ? "<span class=\"nowrap\">\(word)</span>" : word
                word = ""
            }
            for c in text {
                // A comment's `#` or `//` stays with its first word, not stranded at a line's end.
                if c == " " && (word == "#" || word == "//") {
                    word.append(c)
                    continue
                }
                if c == " " {
                    flush()
                    out.append(c)
                } else {
                    word.append(c)
                }
            }
            flush()
        }
        return out
    }

    /// Marks the prose's short code spans (`self == %@`, `--section NAME`, `LIMIT ? OFFSET ?`)
    /// to stay on one line: broken at their spaces or hyphens they read as two things. Longer
    /// spans wrap between their words; code in tables has its own break points and in
    /// listings its own lines.
    static func proseCodeBreaks(_ html: String) -> String {
        /// Whether the text up to here leaves an `open` tag unclosed, given whether it was before `text`.
        func stillOpen(_ wasOpen: Bool, after text: Substring, open: String, close: String) -> Bool {
            let lastOpen = text.range(of: open, options: .backwards)?.lowerBound
            let lastClose = text.range(of: close, options: .backwards)?.lowerBound
            switch (lastOpen, lastClose) {
            case (nil, nil): return wasOpen
            case (_?, nil): return true
            case (nil, _?): return false
            case (let o?, let c?): return o > c
            }
        }
        var out = ""
        var rest = Substring(html)
        var inPre = false
        var inTable = false
        while let open = rest.range(of: "<code>") {
            let before = rest[..<open.lowerBound]
            out += before
            inPre = stillOpen(inPre, after: before, open: "<pre", close: "</pre>")
            inTable = stillOpen(inTable, after: before, open: "<table", close: "</table>")
            let inside = inPre || inTable
            guard let close = rest[open.upperBound...].range(of: "</code>") else { break }
            let code = rest[open.upperBound..<close.lowerBound]
            if inside {
                out += "<code>" + code + "</code>"
            } else if plain(String(code)).count <= longestUnbroken {
                out += "<code class=\"nowrap\">" + code + "</code>"
            } else {
                // A long one breaks between its words, not wherever the line ends
                // (`matchingK` / `ey:value:in:)`, `PredicatesExerc` / `ises.swift`), and not
                // inside a flag (`--` / `section`).
                out += "<code>" + keepHyphenatedWordsWhole(breakableName(code, humpsAbove: longestUnbroken)) + "</code>"
            }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// Puts each table in a box that scrolls sideways, so a narrow screen scrolls a wide
    /// table instead of breaking its identifiers one letter a line. A table of three columns is
    /// marked `three`, of four or more `wide`, and each of their cells gets its column's heading
    /// (`data-label`): in a column too narrow for them (under 600 px for `three`, 640 px for
    /// `wide`: a phone, or 820 px beside the sidebar) the stylesheet lays the rows out as cards,
    /// each cell under its heading.
    static func wrapTables(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        while let open = rest.range(of: "<table>"), let close = rest[open.upperBound...].range(of: "</table>") {
            out += rest[..<open.lowerBound]
            let table = String(rest[open.upperBound..<close.lowerBound])
            var headings: [String] = []
            if let head = table.range(of: "</thead>") {
                headings = table[..<head.lowerBound].components(separatedBy: "<th>").dropFirst().map { cell in
                    plain(cell.components(separatedBy: "</th>").first ?? "").trimmingCharacters(in: .whitespaces)
                }
            }
            var body = table
            if headings.count >= 3 {
                // Label each row's cells in order; a row starts the count again.
                body = table.components(separatedBy: "<tr>").map { row in
                    var column = 0
                    return row.components(separatedBy: "<td>").enumerated().map { n, piece in
                        guard n > 0 else { return piece }
                        defer { column += 1 }
                        let label = column < headings.count ? headings[column] : ""
                        return "<td data-label=\"\(HTML.escape(label))\">" + piece
                    }.joined()
                }.joined(separator: "<tr>")
            }
            let layout = headings.count >= 4 ? " class=\"wide\"" : headings.count == 3 ? " class=\"three\"" : ""
            out += "<div class=\"table-wrap\"><table\(layout)>" + body + "</table></div>"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// Lets the names in tables' code break where a reader would (`NSManaged<wbr>Object<wbr>Model`,
    /// after `_ . : ( , /` when a name follows), so a narrow column wraps a name between its
    /// words, never one letter a line, and a wide one keeps it whole.
    static func breakableTableCode(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        while let table = rest.range(of: "<table"), let end = rest[table.upperBound...].range(of: "</table>") {
            out += rest[..<table.upperBound]
            var inner = rest[table.upperBound..<end.lowerBound]
            var tableOut = ""
            while let open = inner.range(of: "<code>"), let close = inner[open.upperBound...].range(of: "</code>") {
                tableOut += inner[..<open.upperBound]
                tableOut += breakableName(inner[open.upperBound..<close.lowerBound])
                tableOut += "</code>"
                inner = inner[close.upperBound...]
            }
            out += tableOut + inner + "</table>"
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    /// A code name with `<wbr>` where a reader would break it: between the words of a
    /// camel-case name (a word of two letters or more before the hump, so `tN` stays whole)
    /// and after `_ . : ( , /` when a name follows. Not after a leading `.` (`.rollback`), nor
    /// inside `://` or before `)`: a line must not start with `)` or `//`, nor leave a lone `.`.
    /// Prose passes `humpsAbove: longestUnbroken`, so only a name too long to fit a line for
    /// sure breaks at its humps (`SampleData.<wbr>insertEmployees`, not `Sample<wbr>Data`); a
    /// table's narrow column breaks any. Output passes `beforeDigits: false`: a time or a
    /// number (`09:00`, `1.5`) is not a name.
    static func breakableName(_ escaped: Substring, humpsAbove: Int = 0, beforeDigits: Bool = true) -> String {
        let code = Array(escaped)
        func isNamePart(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        var out = ""
        var longName = false
        for (i, c) in code.enumerated() {
            if isNamePart(c) && (i == 0 || !isNamePart(code[i - 1])) {
                longName = code[i...].prefix(while: isNamePart).count > humpsAbove
            }
            if longName, i >= 2, c.isUppercase, code[i - 1].isLowercase, code[i - 2].isLetter { out += "<wbr>" }
            out.append(c)
            // Only inside a name: after `foo(`, not after a lone `(` or the `///` of a URI.
            if "_.:(,/".contains(c), i > 0, i + 1 < code.count, isNamePart(code[i - 1]) || ")]".contains(code[i - 1]),
                code[i + 1].isLetter || (beforeDigits && code[i + 1].isNumber) || code[i + 1] == "_"
            {
                out += "<wbr>"
            }
        }
        return out
    }

    /// Gives each h1/h2 an id and collects the text under it for the search index.
    static func addHeadingIDs(_ html: String) -> (String, [(id: String, title: String, text: String)]) {
        var out = ""
        var sections: [(id: String, title: String, text: String)] = []
        var rest = Substring(html)
        var used: Set<String> = []
        // The next <h1> or <h2>, past any <h3> or <hr> before it (a page whose first <h3> came
        // before its next <h2> lost the ids, and the "On this page" entries, of every later <h2>).
        while let found = rest.range(of: "<h[12]>", options: .regularExpression),
            case let level = rest[rest.index(found.lowerBound, offsetBy: 2)],
            let close = rest[found.upperBound...].range(of: "</h\(level)>")
        {
            // "<h", as the code below reads it.
            let open = found.lowerBound..<rest.index(found.lowerBound, offsetBy: 2)
            let before = rest[..<open.lowerBound]
            out += before
            if !sections.isEmpty { sections[sections.count - 1].text += plain(String(before)) }
            let inner = String(rest[rest.index(open.upperBound, offsetBy: 2)..<close.lowerBound])
            let title = plain(inner)
            var id = title.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
                .split(separator: "-").joined(separator: "-")
            while used.contains(id) { id += "-" }
            used.insert(id)
            out += "<h\(level) id=\"\(id)\">\(inner)</h\(level)>"
            sections.append((id, title, ""))
            rest = rest[close.upperBound...]
        }
        out += rest
        if !sections.isEmpty { sections[sections.count - 1].text += plain(String(rest)) }
        return (out, sections)
    }

    static func plain(_ html: String) -> String {
        html.replacingOccurrences(of: "<wbr>", with: "")
            .replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
            .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
    }

    static func searchIndex(_ pages: [Page]) -> String {
        var entries: [[String: String]] = []
        for page in pages {
            for section in page.sections {
                entries.append([
                    "page": page.title, "title": section.title, "url": page.htmlName + "#" + section.id,
                    "text": String(section.text.prefix(4000)),
                ])
            }
        }
        let data = (try? JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The sidebar's contents: the README as the introduction, the chapters numbered as the
    /// README numbers them, then the other pages (appendices) unnumbered.
    static func contentsHTML(pages: [Page], current: Page) -> String {
        func item(_ p: Page) -> String {
            let value = p.number.map { " value=\"\($0)\"" } ?? ""
            let here = p.htmlName == current.htmlName ? " class=\"current\"" : ""
            let ariaCurrent = p.htmlName == current.htmlName ? " aria-current=\"page\"" : ""
            return "<li\(here)\(value)><a href=\"\(p.htmlName)\"\(ariaCurrent)>\(HTML.escape(p.title))</a></li>"
        }
        let introduction = pages.filter { $0.htmlName == "index.html" }
        let chapters = pages.filter { $0.number != nil }
        let others = pages.filter { $0.number == nil && $0.htmlName != "index.html" }
        var html = ""
        if !introduction.isEmpty {
            html += "<ul class=\"contents intro\">\n" + introduction.map(item).joined(separator: "\n") + "\n</ul>\n"
        }
        // The chapters under their parts, in the parts' order; a numbered page no chapter claims
        // (there is none today) comes last, under no heading.
        let parts = Set(chapters.map(\.part)).sorted { ($0?.rawValue ?? .max) < ($1?.rawValue ?? .max) }
        for part in parts {
            if let part {
                html +=
                    "<h4 class=\"part\">Part \(part.numeral)<span class=\"part-title\">: \(HTML.escape(part.title))</span></h4>\n"
            }
            let inPart = chapters.filter { $0.part == part }
            html += "<ol class=\"contents chapters\">\n" + inPart.map(item).joined(separator: "\n") + "\n</ol>\n"
        }
        if !others.isEmpty {
            html +=
                "<h4>Appendices</h4>\n<ul class=\"contents appendices\">\n" + others.map(item).joined(separator: "\n")
                + "\n</ul>\n"
        }
        return html
    }

    static func template(page: Page, pages: [Page], previous: Page?, next: Page?) -> String {
        let contents = contentsHTML(pages: pages, current: page)
        let onThisPage = page.sections.dropFirst().map { "<li><a href=\"#\($0.id)\">\(HTML.escape($0.title))</a></li>" }
            .joined(separator: "\n")
        // A no-break space ties each arrow to the title, so a wrapped title never leaves it alone on a line.
        let previousLink =
            previous.map { "<a class=\"prev\" href=\"\($0.htmlName)\">←&nbsp;\(HTML.escape($0.title))</a>" }
            ?? "<span></span>"
        let nextLink =
            next.map { "<a class=\"next\" href=\"\($0.htmlName)\">\(HTML.escape($0.title))&nbsp;→</a>" }
            ?? "<span></span>"
        // On a phone the top bar's button shows and hides the sidebar (search.js); the `js`
        // class set first thing lets the stylesheet hide it only when that script can run.
        // Without script the link jumps to the sidebar's search box, the sidebar following the text.
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escape(page.title))</title>
            <script>document.documentElement.classList.add("js")</script>
            <link rel="stylesheet" href="book.css">
            </head>
            <body>
            <header class="topbar">
            <a class="topbar-title" href="index.html">Core Data on Linux</a>
            <a class="menu-toggle" href="#search" aria-expanded="false">Contents</a>
            </header>
            <nav class="sidebar">
            <p class="book-title"><a href="index.html">Core Data on Linux</a></p>
            <input id="search" type="search" placeholder="Search the book" aria-label="Search the book">
            <ol id="results"></ol>
            <h4>Contents</h4>
            \(contents)
            \(onThisPage.isEmpty ? "" : "<h4>On this page</h4>\n<ol class=\"toc\">\n\(onThisPage)\n</ol>")
            </nav>
            <main>
            <article>
            \(partLabel(page.part))\(page.body)
            </article>
            <nav class="pager" aria-label="Previous and next">\(previousLink)\(nextLink)</nav>
            </main>
            <script src="search.js"></script>
            </body>
            </html>

            """
    }
}
