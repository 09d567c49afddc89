// The `versioning` chapter: `swift run versioning`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import VersioningChapter
import WorkbookSupport

@main
struct Versioning: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 4: the Core Data stack, model versions, and automatic migration of Zarra's ToDo store.")

    @OptionGroup var options: ChapterOptions

    func run() throws { try options.run(VersioningChapter.self) }
}
