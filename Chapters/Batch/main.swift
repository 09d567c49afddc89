// The `batch` chapter: `swift run batch`, `--list`, `--section NAME`, `--sql`, and `--timings`.
import ArgumentParser
import BatchChapter
import Foundation
import WorkbookSupport

@main
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chapter 9: batch insert, update and delete, and persistent history across processes."
    )

    @OptionGroup var options: ChapterOptions

    /// Times each way of the work chart instead (not in the book's checked output: times change).
    @Flag(help: "Time each way of the work-chart section (median of 5 runs; build with -c release).")
    var timings = false

    /// What the history section runs as its second process: the store's folder.
    @Option(name: .customLong("other-process"), help: .hidden)
    var otherProcess: String?

    func run() throws {
        if let otherProcess {
            try History.importInOtherProcess(storeIn: URL(fileURLWithPath: otherProcess, isDirectory: true))
            return
        }
        if timings {
            try WorkChart.printTimings { Swift.print($0) }
            return
        }
        try options.run(BatchChapter.self)
    }
}
