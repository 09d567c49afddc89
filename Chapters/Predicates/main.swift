// The `predicates` chapter: `swift run predicates`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import PredicatesChapter
import WorkbookSupport

@main
struct Predicates: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 2: predicates and format strings, and fetching with predicates.")

    @OptionGroup var options: ChapterOptions

    func run() throws { try options.run(PredicatesChapter.self) }
}
