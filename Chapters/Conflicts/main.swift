// The `conflicts` chapter: `swift run conflicts`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import ConflictsChapter
import Foundation
import WorkbookSupport

@main
struct Conflicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 8: uniqueness constraints, merge policies, optimistic locking across contexts and processes."
    )

    @OptionGroup var options: ChapterOptions

    /// What the two-processes section runs as its second process: the store's folder.
    @Option(name: .customLong("other-process"), help: .hidden)
    var otherProcess: String?

    /// The book the second process changes, by its code.
    @Option(help: .hidden)
    var code = "ZAR-2009"

    /// The number of copies the second process saves.
    @Option(help: .hidden)
    var copies = 5

    func run() throws {
        if let otherProcess {
            try TwoProcesses.changeCopies(
                inStoreIn: URL(fileURLWithPath: otherProcess, isDirectory: true), code: code, copies: copies)
            return
        }
        try options.run(ConflictsChapter.self)
    }
}
