// The `scaling` chapter: `swift run scaling`, `--list`, `--section NAME`, `--sql`.
import ArgumentParser
import Foundation
import ScalingChapter
import WorkbookSupport

@main
struct Scaling: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 10: the ToDo store on PostgreSQL, several processes writing it at once."
    )

    @OptionGroup var options: ChapterOptions

    /// The store a section runs this executable on, as another process.
    @Option(name: .customLong("store-url"), help: .hidden)
    var storeURL: String?

    /// As another process: save to-dos as this writer.
    @Option(help: .hidden)
    var writer: String?

    /// How many to-dos the writer saves.
    @Option(help: .hidden)
    var count = 4

    /// How many to-dos the writer waits to see.
    @Option(help: .hidden)
    var expected = 0

    /// As another process: mark this to-do done.
    @Option(help: .hidden)
    var complete: String?

    /// As another process: add a to-do with this title, as `--author`.
    @Option(help: .hidden)
    var add: String?

    /// The transaction author of `--add`.
    @Option(help: .hidden)
    var author = "other-process"

    func run() throws {
        guard let storeURL else { return try options.run(ScalingChapter.self) }
        guard let url = URL(string: storeURL) else { throw ValidationError("--store-url \(storeURL) is not a URL") }
        if let writer {
            try OtherProcess.write(url: url, writer: writer, count: count, expected: expected)
        } else if let complete {
            try OtherProcess.complete(url: url, title: complete)
        } else if let add {
            try OtherProcess.add(url: url, title: add, author: author)
        } else {
            throw ValidationError("--store-url needs --writer, --complete or --add")
        }
    }
}
