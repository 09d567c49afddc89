import Foundation
import Testing

@testable import workbook

// The rendered book's sidebar numbers chapters as the README does, and its stylesheet
// covers print, the dark theme and phones.
@Suite struct RenderLayoutTests {
    let book = BookTests.root.appendingPathComponent("book")

    @Test func chapterNumbersAreTheREADMEs() throws {
        let renderer = SiteRenderer(bookDirectory: book, outputDirectory: URL(fileURLWithPath: "/nonexistent"))
        let numbers = try renderer.chapterNumbers()
        #expect(numbers["fetching.md"] == 1)
        #expect(numbers["predicates.md"] == 2)
        #expect(numbers["compounding.md"] == 3)
        #expect(numbers["versioning.md"] == 4)
        #expect(numbers["migration-policies.md"] == 5)
        #expect(numbers["README.md"] == nil && numbers["errata.md"] == nil && numbers["linux-differences.md"] == nil)
    }

    @Test func sidebarNumbersChaptersFromOneAndListsTheIntroductionAndAppendicesApart() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("book-html-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try SiteRenderer(bookDirectory: book, outputDirectory: output).render { _ in }
        let page = try String(contentsOf: output.appendingPathComponent("predicates.html"), encoding: .utf8)
        let chapters = try #require(section(of: page, from: "<ol class=\"contents chapters\">", to: "</ol>"))
        // Every chapter item carries the README's number; the first is fetching, as 1.
        let values = matches(of: "<li[^>]* value=\"([0-9]+)\"><a href=\"([a-z-]+)\\.html\"", in: chapters)
        #expect(values.map(\.0) == ["1", "2", "3", "4", "5"])
        #expect(values.map(\.1) == ["fetching", "predicates", "compounding", "versioning", "migration-policies"])
        #expect(
            chapters.contains("<li class=\"current\" value=\"2\"><a href=\"predicates.html\" aria-current=\"page\">"))
        // The README is not a numbered chapter, nor are the appendices.
        #expect(!chapters.contains("href=\"index.html\"") && !chapters.contains("errata.html"))
        let intro = try #require(section(of: page, from: "<ul class=\"contents intro\">", to: "</ul>"))
        #expect(intro.contains("href=\"index.html\""))
        let appendices = try #require(section(of: page, from: "<ul class=\"contents appendices\">", to: "</ul>"))
        #expect(appendices.contains("href=\"errata.html\"") && appendices.contains("href=\"linux-differences.html\""))
        // Tables sit in a box that scrolls sideways, their cells know their headings (cards on
        // a phone), and names in them break between their words, not anywhere.
        let names = try String(contentsOf: output.appendingPathComponent("linux-differences.html"), encoding: .utf8)
        #expect(
            names.contains(
                "<div class=\"table-wrap\"><table class=\"three\"><thead><tr><th>Apple</th><th>here</th><th>why</th>"))
        #expect(names.contains("<td data-label=\"Apple\"><code>NSManaged<wbr>Object<wbr>Model</code>, "))
        #expect(names.components(separatedBy: "<table").count == names.components(separatedBy: "</table></div>").count)
        // The errata's five columns become cards in a narrow column: each cell knows its heading.
        let errata = try String(contentsOf: output.appendingPathComponent("errata.html"), encoding: .utf8)
        #expect(errata.contains("<div class=\"table-wrap\"><table class=\"wide\"><thead>"))
        #expect(errata.contains("<tr><td data-label=\"#\">1</td><td data-label=\"Where\">"))
        // The two parts: a heading over each part's chapters in the sidebar (the phone's menu
        // too), chapter 6 numbered on from Part I, and a line above each chapter's title naming
        // its part, on screen and on paper.
        let contexts = try String(contentsOf: output.appendingPathComponent("contexts.html"), encoding: .utf8)
        #expect(
            contexts.contains(
                "<h4 class=\"part\">Part I<span class=\"part-title\">: Three classic articles</span></h4>\n<ol class=\"contents chapters\">\n<li value=\"1\"><a href=\"fetching.html\">"
            ))
        #expect(
            contexts.contains(
                "<h4 class=\"part\">Part II<span class=\"part-title\">: Core Data in an application</span></h4>\n<ol class=\"contents chapters\">\n<li class=\"current\" value=\"6\"><a href=\"contexts.html\" aria-current=\"page\">"
            ))
        #expect(contexts.contains("<article>\n<p class=\"part-label\">Part II · Core Data in an application</p>\n<h1"))
        #expect(page.contains("<article>\n<p class=\"part-label\">Part I · Three classic articles</p>\n<h1"))
        let index = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!index.contains("class=\"part-label\""))
        #expect(
            index.contains("<h3>Part II: Core Data in an application</h3>"))
        #expect(index.contains("<ol start=\"6\">"))
        #expect(page.contains("<a class=\"menu-toggle\" href=\"#search\""))
        #expect(page.contains("<nav class=\"sidebar\">\n<p class=\"book-title\">"))
    }

    @Test func stylesheetHasPrintDarkAndPhoneRules() throws {
        let css = SiteAssets.css
        let print = try #require(block(of: css, at: "@media print"))
        #expect(print.contains(".sidebar") && print.contains("display: none"))
        #expect(print.contains(".pager"))
        #expect(print.contains("white-space: pre-wrap"))
        #expect(print.contains("--paper: #fff"))
        let dark = try #require(block(of: css, at: "@media screen and (prefers-color-scheme: dark)"))
        for variable in ["--paper", "--ink", "--kw", "--str", "--type", "--er-box", "--er-text"] {
            #expect(dark.contains(variable + ":"), "the dark theme sets \(variable)")
        }
        // Colours come from the variables, so the dark theme reaches the highlighter and diagrams.
        #expect(css.contains(".keyword { color: var(--kw)"))
        #expect(css.contains("svg.er .box { fill: var(--er-box)"))
        let phone = try #require(block(of: css, at: "@media (max-width: 699px)"))
        #expect(phone.contains(".topbar { display: flex"))
        #expect(phone.contains(".js .sidebar { display: none"))
        #expect(phone.contains(".js body.nav-open .sidebar { display: block; }"))
        // Output, SQL and errors wrap instead of scrolling out of sight.
        #expect(css.contains("pre.output { white-space: pre-wrap; overflow-wrap: anywhere;"))
        #expect(SiteAssets.searchScript.contains("classList.toggle(\"nav-open\")"))
    }

    // At 1400 px listings wrapped right after the `\` of `\(` (read as a line continuation),
    // leaving a lone `}`: an interpolation is a span that does not wrap, and wide screens give
    // listings more room than the prose.
    @Test func interpolationsNeverWrapAndWideScreensWidenListings() {
        let line = SwiftHighlighter.htmlLines(#"print("Fetched \(books.map { "\($0)" }.count) books")"#)[0]
        #expect(
            line.contains(#"<span class="string nowrap">\(books.map { &quot;\($0)&quot; }.count)</span>"#), "\(line)")
        #expect(line.contains(#"<span class="string">&quot;Fetched </span>"#))
        #expect(!SiteRenderer.breakOpportunities(line).contains("<wbr>.count"))
        let css = SiteAssets.css
        #expect(css.contains("code .nowrap { white-space: nowrap; }"))
        #expect(css.contains("@media (min-width: 1300px) {\n  article { max-width: 1080px; }"))
    }

    @Test func longListingLinesWrapBetweenTheirParts() {
        let line = SwiftHighlighter.htmlLines("let m = MappingModel.defaultMappingModel(forSourceModel: v1, x: 1.5)")[0]
        let html = SiteRenderer.breakOpportunities(line)
        #expect(html.contains("<span class=\"type\">MappingModel</span><wbr>.defaultMappingModel(<wbr>forSourceModel"))
        #expect(html.contains("<span class=\"number\">1.5</span>"))
        #expect(
            SiteRenderer.breakOpportunities(SwiftHighlighter.htmlLines("f(\"a.b\") // c.d (e)")[0])
                == "f(<wbr><span class=\"string\">&quot;a.b&quot;</span>) <span class=\"comment\">// c.d (e)</span>")
        // The search index reads the text as it was before the break opportunities.
        #expect(SiteRenderer.plain(html) == SiteRenderer.plain(line))
        #expect(SiteRenderer.plain(html).contains("defaultMappingModel(forSourceModel: v1"))
        // Each line is a block carrying its indentation for the hanging indent; the leading
        // spaces sit in a box the stylesheet caps, so a deep line does not start on a blank line.
        let listing = SiteRenderer.listingLines("a\n    b.c\n", html: ["a", "    b.c", ""])
        #expect(
            listing
                == "<span class=\"line\" style=\"--indent:0\">a</span><span class=\"line\" style=\"--indent:4\"><span class=\"indent\">    </span>b<wbr>.c</span><span class=\"line\" style=\"--indent:0\"></span>"
        )
    }

    /// The text between `start` and the next `end` after it.
    func section(of text: String, from start: String, to end: String) -> String? {
        guard let a = text.range(of: start), let b = text[a.upperBound...].range(of: end) else { return nil }
        return String(text[a.upperBound..<b.lowerBound])
    }

    /// The body of the CSS block that opens at `header`, up to its matching brace.
    func block(of css: String, at header: String) -> String? {
        guard let start = css.range(of: header + " {") else { return nil }
        var depth = 1
        var index = start.upperBound
        while index < css.endIndex {
            if css[index] == "{" { depth += 1 }
            if css[index] == "}" {
                depth -= 1
                if depth == 0 { return String(css[start.upperBound..<index]) }
            }
            index = css.index(after: index)
        }
        return nil
    }

    /// The first two capture groups of every match of `pattern`.
    func matches(of pattern: String, in text: String) -> [(String, String)] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            guard let a = Range(m.range(at: 1), in: text), let b = Range(m.range(at: 2), in: text) else { return nil }
            return (String(text[a]), String(text[b]))
        }
    }
}
