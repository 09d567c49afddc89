import Foundation
import ObjectGraph
import Testing

// The errata appendix (book/errata.md) makes claims about three printed articles. These tests
// hold it to them: every quotation is the article's own text, found in the section or listing
// the row names, and every test a row names exists. Where no other test proves a row's
// correction, the proof is here too.

/// One row of the errata table.
struct ErratumRow: Sendable, CustomTestStringConvertible {
    /// The row's number, as printed in its first column.
    let number: Int
    /// The "Where" column: the article's author, then the section or listing.
    let place: String
    /// The "The text says" column, with the quotations.
    let says: String
    /// The "Tested by" column.
    let testedBy: String

    var testDescription: String { "erratum \(number)" }

    /// The quotations: prose between “ and ”, code between backticks.
    var quotations: [String] {
        Errata.matches(of: "“([^”]+)”", in: says) + Errata.matches(of: "`([^`]+)`", in: says)
    }

    /// The author, which names the seed file.
    var author: String { String(place.prefix { $0 != "," }) }
}

/// Reading the errata table and the seed articles it quotes.
enum Errata {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Where the articles are kept: `../shared/seeds` beside the package.
    static let seeds = root.deletingLastPathComponent().appendingPathComponent("shared/seeds")
    /// Whether the articles are there to check against (they are not part of the package).
    static let seedsAvailable = FileManager.default.fileExists(atPath: seeds.appendingPathComponent("README.md").path)

    /// Each author's article.
    static let files = [
        "LaMarche": "lamarche-fetch-clarus-fetch-2005.txt",
        "Apple": "apple-fetching-managed-objects-2009.txt",
        "Zarra": "zarra-core-data-versioning-2009.txt",
    ]
    /// The section headings of the articles that have named sections, in the articles' words.
    /// A section runs from its heading to the next one in this list.
    static let sections = [
        "LaMarche": [
            "Fetch Requests", "Predicates and Format Strings", "Fetching with Predicates", "Compounding Predicates",
            "Conclusion",
        ],
        "Apple": ["Retrieving Specific Objects", "Fetching Specific Values", "Fetching and Entity Inheritance"],
    ]

    /// The table's rows, in order.
    static func rows() throws -> [ErratumRow] {
        let text = try String(contentsOf: root.appendingPathComponent("book/errata.md"), encoding: .utf8)
        return try text.components(separatedBy: "\n").filter {
            $0.range(of: #"^\| \d+ \|"#, options: .regularExpression) != nil
        }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 7, let number = Int(cells[1]) else {
                throw ErrataTableError(line: line)
            }
            return ErratumRow(number: number, place: cells[2], says: cells[3], testedBy: cells[5])
        }
    }

    /// The rows, for parameterized tests (none if the table cannot be read, which
    /// `theTableNumbersEachRowOnce` reports).
    static let rowsForTests: [ErratumRow] = (try? rows()) ?? []

    /// The first capture group of every match.
    static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// Runs of whitespace as one space: the seeds break lines where the print did.
    static func normalized(_ text: some StringProtocol) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The parts of an article a row's "Where" names, whitespace normalized; an issue for each
    /// part that the article does not have.
    static func regions(named place: String, in article: String, author: String) -> [String] {
        let lines = article.components(separatedBy: "\n")
        var regions: [String] = []
        for listing in matches(of: #"Listing (\d+)"#, in: place) {
            guard let start = lines.firstIndex(where: { $0.hasPrefix("Listing \(listing):") }) else {
                Issue.record("\(author)'s article has no Listing \(listing)")
                continue
            }
            let end =
                lines[(start + 1)...].firstIndex { $0.range(of: #"^Listing \d+:"#, options: .regularExpression) != nil }
                ?? lines.endIndex
            regions.append(normalized(lines[start..<end].joined(separator: "\n")))
        }
        let headings = sections[author] ?? []
        for section in matches(of: #""([^"]+)""#, in: place) {
            guard headings.contains(section),
                let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == section })
            else {
                Issue.record("\(author)'s article has no section \"\(section)\"")
                continue
            }
            let end =
                lines[(start + 1)...].firstIndex { headings.contains($0.trimmingCharacters(in: .whitespaces)) }
                ?? lines.endIndex
            regions.append(normalized(lines[start..<end].joined(separator: "\n")))
        }
        return regions
    }

    /// Every Swift file under Tests/, by path.
    static func testSources() throws -> [String: String] {
        let tests = root.appendingPathComponent("Tests")
        var sources: [String: String] = [:]
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            sources[file.path] = try String(contentsOf: file, encoding: .utf8)
        }
        return sources
    }
}

extension Errata {
    /// Whether `reference` (`Suite.function` or `function`) is a test under Tests/.
    static func testExists(_ reference: String, in sources: [String: String]) -> Bool {
        let parts = reference.split(separator: ".").map(String.init)
        let (suite, function) = parts.count == 2 ? (parts[0], parts[1]) : (nil, reference)
        return sources.values.contains { source in
            if let suite, !source.contains("struct \(suite)") { return false }
            let lines = source.components(separatedBy: "\n")
            guard let line = lines.firstIndex(where: { $0.contains("func \(function)(") }) else { return false }
            // The function is a test: @Test on its line or on one of the three before.
            return lines[max(0, line - 3)...line].contains { $0.contains("@Test") }
        }
    }

    /// The rows of the second table, where Apple's reference pages and ObjectGraph disagree:
    /// numbered R1, R2, ..., each with the page it quotes and the tests that show the behaviour.
    static func referencePageRows() throws -> [(label: String, page: String, testedBy: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("book/errata.md"), encoding: .utf8)
        return text.components(separatedBy: "\n").filter {
            $0.range(of: #"^\| R\d+ \|"#, options: .regularExpression) != nil
        }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return (cells[1], cells.count > 2 ? cells[2] : "", cells.count > 5 ? cells[5] : "")
        }
    }
}

// Apple's reference pages, where they and ObjectGraph disagree: each row links the page and
// names tests that exist and show what ObjectGraph does.
@Suite struct ReferencePageErrataTests {
    @Test func everyRowLinksItsPageAndNamesTestsThatExist() throws {
        let rows = try Errata.referencePageRows()
        #expect(!rows.isEmpty)
        let sources = try Errata.testSources()
        // Rows are numbered R1, R2, ... in order; chapters written on separate branches keep the
        // numbers they took (chapter 10's R9 before chapter 9's R7 and R8), so one may be missing.
        var previous = 0
        for row in rows {
            let number = row.label.hasPrefix("R") ? Int(row.label.dropFirst()) ?? 0 : 0
            #expect(number > previous, "rows are numbered R1, R2, ... in order: \(row.label) after R\(previous)")
            previous = number
            #expect(
                row.page.contains("](https://developer.apple.com/documentation/"), "\(row.label) links no Apple page")
            let references = Errata.matches(of: "`([^`]+)`", in: row.testedBy)
            #expect(!references.isEmpty, "\(row.label) names no test")
            for reference in references {
                #expect(Errata.testExists(reference, in: sources), "\(row.label): no test \(reference) under Tests/")
            }
        }
    }
}

/// A table line that is not a row of five cells.
struct ErrataTableError: Error, CustomStringConvertible {
    /// The line as it is in book/errata.md.
    let line: String
    var description: String { "book/errata.md: not a row of five cells with a number first: \(line)" }
}

@Suite struct ErrataTests {
    @Test func theTableNumbersEachRowOnce() throws {
        let rows = try Errata.rows()
        #expect(rows.count >= 10)
        #expect(rows.map(\.number) == Array(1...rows.count), "rows are numbered 1, 2, 3, ... with no number twice")
        for row in rows {
            #expect(!row.testedBy.contains("to come"), "erratum \(row.number) has no test yet")
            #expect(
                Errata.files[row.author] != nil,
                "erratum \(row.number): \"\(row.author)\" is not one of \(Errata.files.keys.sorted())")
            #expect(!row.quotations.isEmpty, "erratum \(row.number) quotes nothing")
        }
    }

    @Test(
        .enabled(
            if: Errata.seedsAvailable,
            "the articles are not in ../shared/seeds beside the package, so the quotations cannot be checked"),
        arguments: Errata.rowsForTests)
    func everyQuotationIsInTheSectionItsRowNames(_ row: ErratumRow) throws {
        let file = try #require(Errata.files[row.author])
        let article = try String(contentsOf: Errata.seeds.appendingPathComponent(file), encoding: .utf8)
        let regions = Errata.regions(named: row.place, in: article, author: row.author)
        #expect(!regions.isEmpty, "erratum \(row.number) names no section or listing: \(row.place)")
        for quotation in row.quotations {
            let quoted = Errata.normalized(quotation)
            #expect(
                regions.contains { $0.contains(quoted) },
                "erratum \(row.number): not in \(row.place) of \(file): \(quotation)")
        }
    }

    @Test(arguments: Errata.rowsForTests)
    func everyTestARowNamesExists(_ row: ErratumRow) throws {
        let sources = try Errata.testSources()
        let references = Errata.matches(of: "`([^`]+)`", in: row.testedBy)
        if row.testedBy.hasPrefix("None:") {
            #expect(references.isEmpty, "erratum \(row.number) says no test proves it, yet names one")
            return
        }
        #expect(!references.isEmpty, "erratum \(row.number) names no test")
        for reference in references {
            if reference.contains("/") {
                #expect(
                    FileManager.default.fileExists(atPath: Errata.root.appendingPathComponent(reference).path),
                    "erratum \(row.number): no file \(reference)")
                continue
            }
            #expect(
                Errata.testExists(reference, in: sources), "erratum \(row.number): no test \(reference) under Tests/")
        }
    }

    @Test func everyRowTheChaptersCiteExists() throws {
        let count = try Errata.rows().count
        let pages = try FileManager.default.contentsOfDirectory(
            at: Errata.root.appendingPathComponent("book"), includingPropertiesForKeys: nil
        )
        .filter { $0.pathExtension == "md" && $0.lastPathComponent != "errata.md" }
        for page in pages {
            let text = Errata.normalized(try String(contentsOf: page, encoding: .utf8))
            for citation in Errata.matches(of: #"\[errata\]\(errata\.md\), (rows? [0-9, and]+)"#, in: text) {
                for number in Errata.matches(of: #"(\d+)"#, in: citation).compactMap(Int.init) {
                    #expect(
                        (1...count).contains(number),
                        "\(page.lastPathComponent) cites errata row \(number); there are \(count)")
                }
            }
        }
    }

    // Erratum 5: entity names are case-sensitive, so "book" is not the entity Book.
    @Test func anEntityNameIsCaseSensitive() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("id", .integer32)
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue(192, forKey: "id")
        try context.save()
        #expect(try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 192, in: context) === book)
        let error = #expect(throws: CoreDataError.self) {
            _ = try FetchUtilities.object(forEntityNamed: "book", matchingKey: "id", value: 192, in: context)
        }
        #expect(error?.message.contains("book") == true)
        #expect(throws: CoreDataError.self) { _ = try context.fetch(FetchRequest(entityName: "book")) }
    }

    // Erratum 12: a timer made with timerWithTimeInterval: is not scheduled and never fires
    // until it is added to a run loop. Its first fire date is in the past, so once scheduled it
    // fires at once: nothing here waits for a timer's interval.
    @Test func aTimerFiresOnlyOnceItIsScheduled() {
        final class Count: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func increment() { lock.withLock { value += 1 } }
            var current: Int { lock.withLock { value } }
        }
        let fired = Count()
        let timer = Timer(fire: .distantPast, interval: 60, repeats: true) { _ in fired.increment() }
        let loop = RunLoop.current
        _ = loop.run(mode: .default, before: Date())
        #expect(fired.current == 0)
        loop.add(timer, forMode: .default)
        _ = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
        timer.invalidate()
        #expect(fired.current == 1)
    }

    // Erratum 14: Listing 11's format string opens a parenthesis it never closes.
    @Test func listing11sFormatStringDoesNotParse() throws {
        let now = Date(timeIntervalSinceReferenceDate: 0)
        let asPrinted =
            "dueDate >= %@ AND dueDate <= %@ AND doNotAlert == NO AND (lastAlertDate == nil || lastAlertDate < %@"
        #expect(throws: ObjectGraph.PredicateError.self) {
            _ = try ObjectGraph.Predicate(checkedFormat: asPrinted, now, now, now)
        }
        let closed = try ObjectGraph.Predicate(checkedFormat: asPrinted + ")", now, now, now)
        #expect(closed.predicateFormat.contains("lastAlertDate == nil OR lastAlertDate < "))
    }
}
