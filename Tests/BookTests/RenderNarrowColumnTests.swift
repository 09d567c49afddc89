import Foundation
import Testing

@testable import workbook

// What the screenshots at 820 and 400 px showed and the renderer now prevents: diagrams too
// small to read, commands and names broken in the wrong place, a caret under the wrong
// character, wrapped output lines that read as new ones.
@Suite struct RenderNarrowColumnTests {
    let todo =
        "erDiagram\n    Category {\n        String name \"required\"\n    }\n    ToDo {\n        String title \"required\"\n        Date dueDate\n    }\n    Category |o--o{ ToDo : \"todos / category\""
    let graphics =
        "erDiagram\n    Circle {\n        Double radius\n    }\n    Graphic {\n        abstract entity \"no instances of its own\"\n        String name\n    }\n    Line {\n        Double length\n    }\n    TextArea {\n        String text\n    }\n    Graphic ||--|| Circle : \"inherits\"\n    Graphic ||--|| Line : \"inherits\"\n    Graphic ||--|| TextArea : \"inherits\""

    @Test func aDiagramOfSeveralBoxesAlsoComesStackedForANarrowColumn() throws {
        let figure = ERDiagramSVG.figure(todo)
        let (entities, links) = ERDiagramSVG.parse(todo)
        let wide = ERDiagramSVG.svg(entities: entities, links: links)
        // Two boxes and a 30-character label side by side: 730 wide, so under 620 px (85%) the stacked one shows.
        #expect(wide.width == 730)
        #expect(ERDiagramSVG.fitWidth(wide.width) == 620)
        #expect(
            figure.hasPrefix(
                "<figure class=\"diagram fit-620\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"er er-wide\""))
        #expect(figure.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"er er-stacked\" viewBox=\"0 0 "))
        #expect(
            figure.components(separatedBy: ">todos / category (one to many)</text>").count == 3,
            "a label in each drawing")
        // The stylesheet swaps them by the figure's own width.
        let rules = ERDiagramSVG.containerRules(fits: [620])
        #expect(
            rules.contains(
                "@container (max-width: 619.98px) { figure.fit-620 > svg.er-wide { display: none; } figure.fit-620 > svg.er-stacked { display: block; } }"
            ))
        #expect(SiteAssets.css.contains("svg.er-stacked { display: none; }"))
        // Paper always gets the boxes side by side.
        let print = try #require(SiteAssets.css.range(of: "@media print {").map { SiteAssets.css[$0.upperBound...] })
        #expect(print.contains("figure.diagram > svg.er-wide { display: block !important; }"))
        #expect(print.contains("figure.diagram > svg.er-stacked { display: none !important; }"))
        #expect(SiteAssets.css.contains("container-type: inline-size; }\nsvg.er {"))
        // One box needs no second drawing.
        let book = ERDiagramSVG.figure("erDiagram\n    Book {\n        String title\n    }")
        #expect(book.hasPrefix("<figure class=\"diagram\"><svg") && !book.contains("er-stacked"))
        // The title bar is rounded at the top only (a rect with rx left a notch at its bottom corners).
        #expect(!figure.contains("height=\"26\" rx=\"6\" class=\"head\""))
        #expect(figure.contains("<path d=\"M20 46V26Q20 20 26 20H244Q250 20 250 26V46Z\" class=\"head\"/>"))
    }

    // Chapter 1's inheritance diagram put three boxes a row, so TextArea hung on a diagonal
    // under Circle, and "inherits" had no arrowhead; versioning's relationship line slanted
    // between boxes of different heights.
    @Test func sideBySideInheritanceIsATreeWithArrowheadsAndRelationshipsAreLevel() throws {
        let (entities, links) = ERDiagramSVG.parse(graphics)
        #expect(
            ERDiagramSVG.rows(entities: entities, links: links).map { $0.map { entities[$0].name } }
                == [["Graphic"], ["Circle", "Line", "TextArea"]])
        let svg = ERDiagramSVG.svg(entities: entities, links: links).svg
        let boxes = numbers(in: svg, pattern: "<rect x=\"([0-9]+)\" y=\"([0-9]+)\" width=\"230\" height=\"([0-9]+)\"")
        #expect(boxes.count == 4)
        // Graphic over the middle sub-entity; the three sub-entities on one row.
        #expect(boxes[1][0] == boxes[2][0] && boxes[1][1] < boxes[0][1])
        #expect(boxes[0][1] == boxes[2][1] && boxes[2][1] == boxes[3][1])
        // Each inheritance line goes up from its box, across, and up into Graphic's bottom,
        // where the arrowhead is.
        let paths = numbers(
            in: svg,
            pattern:
                "<path d=\"M([0-9]+) ([0-9]+)V([0-9]+)H([0-9]+)V([0-9]+)\" class=\"link\" fill=\"none\" marker-end=\"url\\(#inherits-[0-9a-f]+\\)\""
        )
        #expect(paths.count == 3)
        let graphicBottom = boxes[1][1] + boxes[1][2]
        #expect(paths.allSatisfy { $0[1] == boxes[0][1] && $0[3] == boxes[1][0] + 115 && $0[4] == graphicBottom })
        #expect(svg.contains("<marker id=\"inherits-") && svg.contains("class=\"arrow\""))
        // A relationship between boxes of different heights on one row is level.
        let (todoEntities, todoLinks) = ERDiagramSVG.parse(todo)
        let lines = numbers(
            in: ERDiagramSVG.svg(entities: todoEntities, links: todoLinks).svg,
            pattern: "<line x1=\"([0-9]+)\" y1=\"([0-9]+)\" x2=\"([0-9]+)\" y2=\"([0-9]+)\"")
        #expect(lines.count == 1 && lines[0][1] == lines[0][3] && lines[0][0] == 250)
        // The stacked drawing marks the parent's end too.
        #expect(
            ERDiagramSVG.stackedSVG(entities: entities, links: links).components(separatedBy: "marker-start=").count
                == 4)
    }

    @Test func theStackPutsTheParentFirstAndNoLineOrLabelCrossesABox() throws {
        let (entities, links) = ERDiagramSVG.parse(graphics)
        #expect(
            ERDiagramSVG.stackOrder(entities: entities, links: links).map(\.name) == [
                "Graphic", "Circle", "Line", "TextArea",
            ])
        let svg = ERDiagramSVG.stackedSVG(entities: entities, links: links)
        // Boxes: one column at x 20, 230 wide; each box's top and bottom.
        let boxes = numbers(in: svg, pattern: "<rect x=\"([0-9]+)\" y=\"([0-9]+)\" width=\"230\" height=\"([0-9]+)\"")
        #expect(boxes.count == 4 && boxes.allSatisfy { $0[0] == 20 })
        let spans = boxes.map { ($0[1], $0[1] + $0[2]) }
        for (upper, lower) in zip(spans, spans.dropFirst()) { #expect(upper.1 < lower.0, "boxes do not overlap") }
        // Each link runs in a lane right of the boxes: its vertical part is beyond x 250.
        let lanes = numbers(in: svg, pattern: "<path d=\"M250 [0-9]+H([0-9]+)V[0-9]+H250\" class=\"link\"")
        #expect(lanes.count == 3)
        #expect(Set(lanes.map { $0[0] }).count == 3 && lanes.allSatisfy { $0[0] > 250 })
        #expect(svg.contains("stroke-dasharray=\"6 4\""))
        // Each label sits in the gap above its sub-entity's box, below the box before it.
        let labels = numbers(in: svg, pattern: "<text x=\"24\" y=\"([0-9]+)\" class=\"label\">inherits</text>")
        #expect(labels.count == 3)
        for (n, label) in labels.enumerated() {
            #expect(spans[n].1 < label[0] && label[0] < spans[n + 1].0)
        }
    }

    @Test func shortProseCodeStaysWholeAndLongCodeBreaksBetweenItsWords() {
        let html =
            "<p>Run <code>--section NAME</code>, see <code>self == %@</code> and "
            + "<code>FetchUtilities.object(forEntityNamed:matchingKey:value:in:)</code> or "
            + "<code>swift run migration-policies --section listing-12-sqlite --sql</code>.</p>"
            + "<pre class=\"code\"><code>let a = 1</code></pre><table><tr><td><code>NSManagedObjectModel</code></td></tr></table>"
        let out = SiteRenderer.proseCodeBreaks(html)
        #expect(out.contains("<code class=\"nowrap\">--section NAME</code>"))
        #expect(out.contains("<code class=\"nowrap\">self == %@</code>"))
        #expect(
            out.contains(
                "<code>FetchUtilities.<wbr>object(<wbr>forEntityNamed:<wbr>matchingKey:<wbr>value:<wbr>in:)</code>"))
        #expect(
            out.contains(
                "<code>swift run <span class=\"nowrap\">migration-policies</span> <span class=\"nowrap\">--section</span> <span class=\"nowrap\">listing-12-sqlite</span> <span class=\"nowrap\">--sql</span></code>"
            ))
        // Listings and tables have their own rules.
        #expect(
            out.contains(
                "<pre class=\"code\"><code>let a = 1</code></pre><table><tr><td><code>NSManagedObjectModel</code>"))
        #expect(SiteAssets.css.contains("code.nowrap, code .nowrap { white-space: nowrap; }"))
    }

    @Test func listingsKeepFlagsDatesAndShellCommentsWhole() {
        #expect(
            SiteRenderer.keepHyphenatedWordsWhole("swift run fetching --section listing-1 --sql   # every section")
                == "swift run fetching <span class=\"nowrap\">--section</span> <span class=\"nowrap\">listing-1</span> <span class=\"nowrap\">--sql</span>   <span class=\"nowrap\"># every</span> section"
        )
        // Text between tags only: a highlighted string keeps its span.
        #expect(
            SiteRenderer.keepHyphenatedWordsWhole("(<span class=\"string\">&quot;2009-05-02T09:00:00Z&quot;</span>)")
                == "(<span class=\"string\"><span class=\"nowrap\">&quot;2009-05-02T09:00:00Z&quot;</span></span>)")
        #expect(
            SiteRenderer.keepHyphenatedWordsWhole(
                "x]) <span class=\"comment\">// andPredicateWithSubpredicates:</span>")
                == "x]) <span class=\"comment\"><span class=\"nowrap\">// andPredicateWithSubpredicates:</span></span>")
        // Subtraction with spaces and words without hyphens are left alone.
        #expect(SiteRenderer.keepHyphenatedWordsWhole("a - b") == "a - b")
        // A name longer than 30 characters breaks between its words, a shorter one not (a
        // browser would break inside it rather than at the space before it).
        #expect(
            SiteRenderer.breakOpportunities(".migratePersistentStoresAutomatically: true")
                == ".migrate<wbr>Persistent<wbr>Stores<wbr>Automatically: true")
        #expect(
            SiteRenderer.breakOpportunities("let c = PersistentStoreCoordinator(")
                == "let c = PersistentStoreCoordinator(<wbr>")
        // A deep line's indentation is capped, a continuation still hangs deeper.
        #expect(
            SiteAssets.css.contains(
                "pre.code .indent { display: inline-block; width: min(calc(var(--indent, 0) * 1ch), 36%);"))
    }

    @Test func tableCodeBreaksOnlyBeforeAName() {
        #expect(SiteRenderer.breakableName(".rollback") == ".rollback")
        #expect(SiteRenderer.breakableName("x-coredata:///Entity/tN") == "x-coredata:///Entity/<wbr>tN")
        #expect(SiteRenderer.breakableName("a (none)") == "a (none)")
        #expect(SiteRenderer.breakableName("value(forKey:)") == "value(<wbr>for<wbr>Key:)")
        #expect(SiteRenderer.breakableName("NSManagedObjectModel") == "NSManaged<wbr>Object<wbr>Model")
        // Prose breaks only a long name at its humps.
        #expect(
            SiteRenderer.breakableName("SampleData.insertEmployees(into:", humpsAbove: 30)
                == "SampleData.<wbr>insertEmployees(<wbr>into:")
        #expect(
            SiteRenderer.breakableName("NSMigratePersistentStoresAutomaticallyOption", humpsAbove: 30)
                == "NSMigrate<wbr>Persistent<wbr>Stores<wbr>Automatically<wbr>Option")
    }

    @Test func outputLinesHangAndACaretStaysUnderItsCharacter() {
        let html = SiteRenderer.outputHTML(
            "Parsing: at offset 4\n  a == NOT b\n       ^\n    CoreData: sql: SELECT 1\n")
        #expect(
            html == "<span class=\"line\" style=\"--indent:0\">Parsing: at offset 4</span>"
                + "<span class=\"aligned\">  a == NOT b\n       ^</span>"
                + "<span class=\"line\" style=\"--indent:4\">    CoreData: sql: SELECT 1</span>"
                + "<span class=\"line\" style=\"--indent:0\"></span>")
        #expect(
            SiteRenderer.outputHTML("name == \"Mary\"       → (none)")
                == "<span class=\"line\" style=\"--indent:0\">name == &quot;Mary&quot;       <span class=\"nowrap\">→ (none)</span></span>"
        )
        // A long selector breaks between its parts; a time does not.
        #expect(
            SiteRenderer.outputHTML("at 09:00 \"fetchRequestForSourceEntityNamed:predicateString:\"")
                == "<span class=\"line\" style=\"--indent:0\">at 09:00 &quot;fetch<wbr>Request<wbr>For<wbr>Source<wbr>Entity<wbr>Named:<wbr>predicateString:&quot;</span>"
        )
        // A table's rows stay in their columns: they scroll together instead of wrapping.
        #expect(
            SiteRenderer.outputHTML("policy  saved  title\nerror   error  \"A\"\nnext line  here")
                == "<span class=\"aligned\">policy  saved  title\nerror   error  &quot;A&quot;</span>"
                + "<span class=\"line\" style=\"--indent:0\">next line  here</span>")
        // One row alone, or lines with one gap (a value and its note), are not a table.
        #expect(SiteRenderer.tableEnd(["a  b  c", "prose"], from: 0) == nil)
        #expect(SiteRenderer.tableEnd(["usingOR: true   x == 1", "usingOR: false  x == 2"], from: 0) == nil)
        #expect(SiteRenderer.tableEnd(["a  b  c", "d  e  f", "g  h  i"], from: 0) == 3)
        #expect(SiteAssets.css.contains("pre.output .aligned { display: block; white-space: pre; overflow-x: auto;"))
        #expect(
            SiteAssets.css.contains(
                "pre.output .line { display: block; min-height: 1.45em; --hang: min(calc((var(--indent, 0) + 2) * 1ch), 40%);"
            ))
    }

    @Test func theRenderedSiteCarriesTheFixes() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("book-html-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try SiteRenderer(bookDirectory: BookTests.root.appendingPathComponent("book"), outputDirectory: output)
            .render { _ in }
        let css = try String(contentsOf: output.appendingPathComponent("book.css"), encoding: .utf8)
        let versioning = try String(contentsOf: output.appendingPathComponent("versioning.html"), encoding: .utf8)
        // Every fit a page's diagram uses has its rule in the stylesheet.
        let fits = SiteRenderer.diagramFits([versioning])
        #expect(!fits.isEmpty)
        for fit in fits { #expect(css.contains("figure.fit-\(fit) > svg.er-stacked { display: block; }")) }
        // The pager's arrow stays with its title.
        #expect(versioning.contains("Mapping models and migration policies&nbsp;→</a>"))
        #expect(versioning.contains(">←&nbsp;Chapter 3: Compounding predicates</a>"))
        // A three-column table becomes cards under 600 px, so 820 px beside the sidebar (514 px) does not
        // break its names over three lines.
        #expect(css.contains("@container (max-width: 600px) {\n  table.three, table.three tbody"))
        // An errata card starts "# 7" on one line.
        #expect(css.contains("table.wide td[data-label=\"#\"]::before { display: inline;"))
        // Print repeats a listing's border on each page it spans.
        #expect(css.contains("box-decoration-break: clone;"))
    }

    /// The integer capture groups of every match of `pattern` in `text`.
    func numbers(in text: String, pattern: String) -> [[Int]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).flatMap { Int(text[$0]) } }
        }
    }
}
