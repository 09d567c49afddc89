import Testing

@testable import workbook

// The highlighter colours Swift's contextual keywords only where they act as keywords.
@Suite struct HighlighterTests {
    /// The words the highlighter marks as keywords, in order.
    func keywords(_ code: String) -> [String] {
        let tokens = SwiftHighlighter.tokenize(code)
        return zip(tokens, SwiftHighlighter.classify(tokens)).filter { $0.1 == "keyword" }.map(\.0.text)
    }

    @Test func forStartsALoopButIsAnArgumentLabelInACall() {
        #expect(keywords("for book in books { print(book) }") == ["for", "in"])
        #expect(keywords("let n = try context.count(for: request)") == ["let", "try"])
        #expect(keywords("func index(for key: String) -> Int") == ["func"])
        #expect(
            keywords("outer: for (i, b) in zip(a, c) {\n    for case let x? in b {}\n}") == [
                "for", "in", "for", "case", "let", "in",
            ])
        #expect(keywords("let v = object.value(forKey: \"title\")") == ["let"])
    }

    @Test func inEndsAClosureSignatureOrALoopHeaderOnly() {
        #expect(keywords("context.perform { ctx in ctx.reset() }") == ["in"])
        #expect(keywords("books.sorted { (a: Book, b: Book) -> Bool in a.title < b.title }") == ["in"])
        #expect(keywords("queue.async { [weak self] in self?.run() }") == ["weak", "self", "in", "self"])
        #expect(keywords("let books = try fetch(request, in: context)") == ["let", "try"])
        #expect(keywords("func fetch(_ r: FetchRequest, in context: Context) {}") == ["func"])
        // A closure that does not start with a signature: the `in:` later is a label.
        #expect(keywords("books.map { $0.title }.first(in: x)") == [])
    }

    @Test func openIsAKeywordOnlyAsAModifier() {
        #expect(keywords("open class Store {}") == ["open", "class"])
        #expect(keywords("open override func save() throws {}") == ["open", "override", "func", "throws"])
        #expect(keywords("try store.open()") == ["try"])
        #expect(keywords("func open(at url: URL) throws") == ["func", "throws"])
        #expect(keywords("let open = true") == ["let", "true"])
        #expect(keywords("let mode: Mode = .default") == ["let"])
        #expect(keywords("switch x {\ndefault: break\n}") == ["switch", "default", "break"])
    }

    @Test func otherContextualKeywords() {
        #expect(keywords("var count: Int { get set }") == ["var", "get", "set"])
        #expect(keywords("let set = Set<Int>()") == ["let"])
        #expect(keywords("func run() async throws -> some View") == ["func", "async", "throws", "some"])
        #expect(keywords("if case .some(let x) = y {}") == ["if", "case", "let"])
        #expect(keywords("let type = Book.self") == ["let", "self"])
    }

    @Test func stringsCommentsAndTheRestAreColoured() {
        let html = SwiftHighlighter.html("let s = \"a \\(b[\"k\"]) c\" // for in open\n/* in */ 42")
        #expect(html.contains("<span class=\"string\">&quot;a \\(b[&quot;k&quot;]) c&quot;</span>"))
        #expect(html.contains("<span class=\"comment\">// for in open</span>"))
        #expect(html.contains("<span class=\"comment\">/* in */</span>"))
        #expect(html.contains("<span class=\"number\">42</span>"))
        #expect(
            SwiftHighlighter.html("let x: Book<T> & Y")
                == "<span class=\"keyword\">let</span> x: <span class=\"type\">Book</span>&lt;<span class=\"type\">T</span>&gt; &amp; <span class=\"type\">Y</span>"
        )
    }
}
