// The `contexts` chapter: `swift run contexts`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import ContextsChapter
import WorkbookSupport

@main
struct Contexts: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 6: the view context and background contexts, perform, child contexts, merging saves.")

    @OptionGroup var options: ChapterOptions

    /// What the off-queue section runs in a process of its own: a context used off its queue,
    /// which stops a debug build.
    @Flag(name: .customLong("off-queue"), help: .hidden)
    var offQueue = false

    func run() throws {
        if offQueue {
            try OffQueue.useAContextOffItsQueue()
            return
        }
        try options.run(ContextsChapter.self)
    }
}
