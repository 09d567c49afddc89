// The `changes` chapter: `swift run changes`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import ChangesChapter
import WorkbookSupport

@main
struct Changes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Chapter 7: change notifications, each object's change state, a fetched results controller, undo and redo.")

    @OptionGroup var options: ChapterOptions

    func run() throws {
        try options.run(ChangesChapter.self)
    }
}
