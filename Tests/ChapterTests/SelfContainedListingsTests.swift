import Foundation
import Testing

// Issue 14, item 3: in chapters 2 to 5 a listing stands on its own. It calls no helper of the
// workbook's that the reader never meets (the workbench, its clock, the old tracing and
// sample-data helpers); every helper of the chapter's own that a listing calls is shown in an
// earlier listing of the same page; and each page links the article it follows and Apple's
// documentation. The tests read the generated pages in book/, which BookTests keeps current.
@Suite struct SelfContainedListingsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One embedded listing of a page: its name and its code.
    struct Listing {
        let name: String
        let code: String
    }

    /// The listings of `book/<chapter>.md`, in page order.
    static func listings(of chapter: String) throws -> [Listing] {
        let lines = try String(contentsOf: root.appendingPathComponent("book/\(chapter).md"), encoding: .utf8)
            .components(separatedBy: "\n")
        var result: [Listing] = []
        var name: String?
        var code: [String] = []
        for line in lines {
            if line.hasPrefix("<!-- listing "), line.hasSuffix(" -->") {
                name = String(line.dropFirst("<!-- listing ".count).dropLast(" -->".count))
                code = []
            } else if line == "<!-- /listing -->", let open = name {
                result.append(Listing(name: open, code: code.filter { !$0.hasPrefix("```") }.joined(separator: "\n")))
                name = nil
            } else if name != nil {
                code.append(line)
            }
        }
        return result
    }

    static let chapters = ["predicates", "compounding", "versioning", "migration-policies"]

    /// What a listing must not call: the workbook's machinery, which the book never shows.
    static let hidden = [
        "bench", "Workbench", "PeopleData", "PolicyTrace", "fixedStoreOptions",
        "SampleToDos.sibling", "SampleToDos.show", "SampleToDos.withToDos", "SampleData.time",
        "MappingPrinter", "Stack.open", "AutomaticMigration.openMigrating",
    ]

    @Test(arguments: chapters)
    func noListingCallsTheWorkbooksMachinery(chapter: String) throws {
        let listings = try Self.listings(of: chapter)
        #expect(listings.count > 5, "book/\(chapter).md has its listings")
        for listing in listings {
            for word in Self.hidden {
                #expect(!listing.code.contains(word), "\(listing.name) calls \(word), which the book never shows")
            }
        }
    }

    /// Each helper of a chapter's own that listings call, and the words of its definition.
    static let helpers: [String: [(use: String, definition: String)]] = [
        "predicates": [
            ("fetchLine(", "func fetchLine("), ("fetchNames(", "func fetchNames("),
        ],
        "versioning": [
            ("openToDoStore(", "func openToDoStore("), ("openMigratingToDoStore(", "func openMigratingToDoStore("),
            ("nineOClock", "let nineOClock"), ("timeOfDay(", "func timeOfDay("),
            ("SampleData.insertToDos(", "static func insertToDos("),
        ],
        "migration-policies": [
            ("makeVersion1Store(", "static func makeVersion1Store("),
            ("TracedDoNotAlertPolicy", "let print = manager.userInfo[\"print\"]"),
        ],
    ]

    @Test(arguments: ["predicates", "versioning", "migration-policies"])
    func everyHelperIsShownBeforeItsFirstUse(chapter: String) throws {
        let listings = try Self.listings(of: chapter)
        for helper in Self.helpers[chapter] ?? [] {
            let defined = listings.firstIndex { $0.code.contains(helper.definition) }
            let used = listings.firstIndex { $0.code.contains(helper.use) && !$0.code.contains(helper.definition) }
            let definition = try #require(defined, "book/\(chapter).md never shows \(helper.definition)")
            if let used {
                #expect(
                    definition < used,
                    "\(helper.use) is used in \(listings[used].name) before \(listings[definition].name) shows it")
            }
        }
    }

    /// The sample data each page shows, and the first result that depends on it.
    @Test(arguments: [
        ("predicates", "predicates/sample-people", "predicates/format-strings"),
        ("predicates", "predicates/sample-books", "predicates/fetching"),
        ("compounding", "compounding/sample-bookstore", "compounding/and-or-not"),
        ("versioning", "versioning/sample-todos", "versioning/stack"),
        ("migration-policies", "migration-policies/version-1-store", "migration-policies/value-expressions"),
    ])
    func theSampleDataIsShownBeforeTheFirstResultThatDependsOnIt(chapter: String, listing: String, output: String)
        throws
    {
        let page = try String(contentsOf: Self.root.appendingPathComponent("book/\(chapter).md"), encoding: .utf8)
        let data = try #require(
            page.range(of: "<!-- listing \(listing) -->"), "book/\(chapter).md does not show \(listing)")
        let result = try #require(
            page.range(of: "<!-- output \(output) -->"), "book/\(chapter).md has no output \(output)")
        #expect(data.lowerBound < result.lowerBound, "\(listing) comes after \(output), which depends on it")
    }

    /// The article each chapter follows, as the seeds' README names it.
    static let articles = [
        "predicates": "http://preserve.mactech.com/articles/mactech/Vol.21/21.11/CoreDataIII/index.html",
        "compounding": "http://preserve.mactech.com/articles/mactech/Vol.21/21.11/CoreDataIII/index.html",
        "versioning": "http://preserve.mactech.com/articles/mactech/Vol.25/25.03/CoreDataVersioning/index.html",
        "migration-policies": "http://preserve.mactech.com/articles/mactech/Vol.25/25.03/CoreDataVersioning/index.html",
    ]

    @Test(arguments: chapters)
    func eachPageLinksItsArticleAndApplesPages(chapter: String) throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("book/\(chapter).md"), encoding: .utf8)
        let reading = try #require(
            page.range(of: "\n## Further reading\n"), "book/\(chapter).md has no Further reading")
        let end = page.range(of: "\n## ", range: reading.upperBound..<page.endIndex)?.lowerBound ?? page.endIndex
        let section = page[reading.upperBound..<end]
        #expect(section.contains("](\(Self.articles[chapter] ?? "?"))"))
        #expect(section.components(separatedBy: "](https://developer.apple.com/documentation/").count > 5)
        // The opening paragraph links the article too, and points at the reading list.
        let opening = page.prefix(2_500)
        #expect(opening.contains("](\(Self.articles[chapter] ?? "?"))"))
        #expect(opening.contains("(#further-reading)"))
    }
}
