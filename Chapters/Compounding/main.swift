// The `compounding` chapter: `swift run compounding`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import CompoundingChapter
import WorkbookSupport

@main
struct Compounding: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 3: compound predicates: AND, OR and NOT, nesting, precedence, and their SQL.")

    @OptionGroup var options: ChapterOptions

    func run() throws { try options.run(CompoundingChapter.self) }
}
