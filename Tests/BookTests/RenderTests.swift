import Foundation
import Testing

@testable import workbook

// The rendered book: pages in reading order, links between pages, diagrams as SVG, search.
@Suite struct RenderTests {
    @Test func renderingWritesEveryPageWithContentsPagerAndSearch() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("book-html-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let renderer = SiteRenderer(
            bookDirectory: BookTests.root.appendingPathComponent("book"), outputDirectory: output)
        #expect(try renderer.pageOrder().map(\.lastPathComponent).prefix(2) == ["README.md", "fetching.md"])
        let count = try renderer.render { _ in }
        #expect(count >= 2)
        let page = try String(contentsOf: output.appendingPathComponent("fetching.html"), encoding: .utf8)
        #expect(page.contains("<nav class=\"sidebar\">"))
        #expect(page.contains("class=\"prev\" href=\"index.html\""))
        #expect(page.contains("<svg")) // the diagrams
        #expect(page.contains("<pre class=\"output\">")) // the embedded output
        #expect(page.contains("<span class=\"keyword\">let</span>")) // highlighted Swift
        #expect(!page.contains("```"))
        let search = try String(contentsOf: output.appendingPathComponent("search.js"), encoding: .utf8)
        #expect(search.contains("\"title\":\"Why a fetch cannot use a transient property\""))
        let index = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("href=\"fetching.html\""))
    }

    @Test func wrappedParagraphLinesAreJoined() {
        let markdown =
            "A word on names:\n`NSFetchRequest` is `FetchRequest`.\n\n- item one\n  continues\n- item two\n```swift\nlet a = 1\nlet b = 2\n```"
        #expect(
            SiteRenderer.joinParagraphLines(markdown)
                == "A word on names: `NSFetchRequest` is `FetchRequest`.\n\n- item one continues\n- item two\n```swift\nlet a = 1\nlet b = 2\n```"
        )
    }

    @Test func diagramsParseBackFromMermaid() {
        let (entities, links) = ERDiagramSVG.parse(
            "erDiagram\n    Book {\n        String title \"required\"\n    }\n    Publisher {\n    }\n    Book }o--o| Publisher : \"publisher / books\""
        )
        #expect(entities.map(\.name) == ["Book", "Publisher"])
        #expect(entities[0].lines == ["title: String (required)"])
        #expect(links.count == 1 && links[0].leftMany && !links[0].rightMany)
    }
}
