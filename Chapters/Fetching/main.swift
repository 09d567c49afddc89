// The `fetching` chapter: `swift run fetching`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import FetchingChapter
import WorkbookSupport

@main
struct Fetching: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 1: fetch requests, fetching specific objects and values, entity inheritance.")

    @OptionGroup var options: ChapterOptions

    func run() throws { try options.run(FetchingChapter.self) }
}
