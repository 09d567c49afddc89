import AllChapters
import Foundation
import ObjectGraph
import Testing
import ZarraToDo

@testable import workbook

// The book cannot go stale: every listing, output and diagram in book/ is what the chapters'
// code holds and prints now. Tests only read the book; `swift run workbook book` rewrites it.
@Suite struct BookTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    var book: Book { Book(root: Self.root) }

    @Test func theBookIsCurrent() throws {
        let stale = try book.stalePages()
        #expect(
            stale.isEmpty, "Run `swift run workbook book` to rewrite:\n\(stale.map(\.diff).joined(separator: "\n"))")
        #expect(try book.pages().map(\.lastPathComponent).contains("fetching.md"))
    }

    /// A page with one line inside a block of the given kind changed by hand.
    func page(editing kind: BookMarker.Kind) throws -> (original: String, edited: String) {
        let text = try String(contentsOf: Self.root.appendingPathComponent("book/fetching.md"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let marker = try #require(try BookMarkers.find(in: lines, file: "fetching.md").first { $0.kind == kind })
        // The line after the opening fence.
        lines[marker.openLine + 2] += " (edited by hand)"
        return (text, lines.joined(separator: "\n"))
    }

    @Test(arguments: [BookMarker.Kind.listing, .output, .diagram])
    func aHandEditIsFoundAndUndone(_ kind: BookMarker.Kind) throws {
        let (original, edited) = try page(editing: kind)
        let regenerated = try book.updated(edited, file: "book/fetching.md")
        #expect(regenerated != edited)
        #expect(regenerated == original)
        let diff = UnifiedDiff.make(old: edited, new: regenerated, name: "book/fetching.md")
        #expect(diff.contains("(edited by hand)"))
        #expect(diff.contains("@@ -"))
    }

    @Test func aCodegenBlockIsWhatTheCodegenCommandWrites() throws {
        let text = "<!-- codegen versioning/todo-2 ToDo -->\n```swift\n```\n<!-- /codegen -->"
        let written = try book.updated(text, file: "book/x.md")
        let files = ModelCodegen(model: try ToDoModels.version2(), modelName: "ToDo").files()
        #expect(files.map(\.name) == ["Category.swift", "ToDo.swift", "ToDoModelClasses.swift"])
        for file in files { #expect(written.contains(file.contents.trimmingCharacters(in: .newlines))) }
        #expect(written.contains("@Managed(\"completed\") public var completed: Bool"))
        let unknown = "<!-- codegen versioning/nothing -->\n```swift\n```\n<!-- /codegen -->"
        let error = #expect(throws: BookMarkerError.self) { _ = try book.updated(unknown, file: "book/x.md") }
        #expect(error?.description.contains("has no model named nothing; it has todo-1, todo-2") == true)
    }

    @Test func anUnclosedMarkerIsAnErrorWithItsLine() throws {
        let text = "# Title\n\n<!-- output fetching/all-books -->\n```text\n```\n"
        let error = #expect(throws: BookMarkerError.self) { _ = try book.updated(text, file: "book/x.md") }
        #expect(
            error?.description
                == "book/x.md:3: this output marker is never closed; add <!-- /output --> after its block")
    }

    @Test func anUnknownSectionIsAnErrorNamingTheSections() throws {
        let text = "<!-- output fetching/nowhere -->\n```text\n```\n<!-- /output -->"
        let error = #expect(throws: BookMarkerError.self) { _ = try book.updated(text, file: "book/x.md") }
        #expect(error?.description.contains("has no section nowhere; its sections are first-steps, all-books") == true)
    }

    // The contents list every chapter under its part's heading, as the chapter catalog
    // (AllChapters' chapterTypes) places it, numbered on from one part to the next.
    @Test func theContentsShowEveryChapterUnderItsPart() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("book/README.md"), encoding: .utf8)
        var heading = ""
        var placed: [String: (part: String, number: Int)] = [:]
        for line in readme.components(separatedBy: "\n") {
            if line.hasPrefix("### Part ") { heading = String(line.dropFirst(4)) }
            guard let dot = line.firstIndex(of: "."), let number = Int(line[..<dot]),
                let open = line.range(of: "]("), let close = line.range(of: ".md)")
            else { continue }
            placed[String(line[open.upperBound..<close.lowerBound])] = (heading, number)
        }
        // Each chapter has the number its title gives it ("Chapter 8: ..."), rising in book
        // order; chapters written on separate branches keep their numbers, so one may be missing.
        var previous = 0
        for chapter in allChapters {
            let number = Int(chapter.title.dropFirst("Chapter ".count).prefix { $0.isNumber }) ?? 0
            #expect(placed[chapter.name]?.part == chapter.part.heading, "\(chapter.name)")
            #expect(placed[chapter.name]?.number == number, "\(chapter.name)")
            #expect(number > previous, "\(chapter.name) is numbered \(number), after \(previous)")
            previous = number
        }
        #expect(Set(allChapters.map(\.part)) == Set(BookPart.allCases))
    }

    // Without a PostgreSQL server chapter 10 cannot run: its outputs stay as a run with a server
    // wrote them, so the book check passes byte for byte, and says which it did not run and why.
    @Test func theOutputsOfAChapterThatCannotRunAreKept() throws {
        var book = self.book
        book.unavailableReason = { $0 == "scaling" ? "skipped: PostgreSQL is not installed" : nil }
        let text =
            "<!-- output scaling/open-by-url -->\n```text\nwhat a run with a server printed\n```\n<!-- /output -->"
        var notes: [String] = []
        #expect(try book.updated(text, file: "book/x.md") { notes.append($0) } == text)
        #expect(
            notes == [
                "book/x.md: output scaling/open-by-url kept as it is, not run: skipped: PostgreSQL is not installed"
            ])
        // Where the chapter can run, its output is generated as any other's.
        let listing = "<!-- output fetching/self-in -->\n```text\nstale\n```\n<!-- /output -->"
        #expect(try book.updated(listing, file: "book/x.md") != listing)
    }

    @Test func outputsAreTheSameOnEveryRun() throws {
        let marker = BookMarker(
            kind: .output, chapter: "fetching", name: "self-in", showsSQL: true, openLine: 0, closeLine: 1)
        let first = try book.generate(marker, file: "x")
        let second = try book.generate(marker, file: "x")
        #expect(first == second)
        #expect(!first.contains("/tmp"))
    }
}
