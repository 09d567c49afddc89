import ArgumentParser

/// The options every chapter executable takes.
public struct ChapterOptions: ParsableArguments {
    /// `--section NAME`, repeatable.
    @Option(
        name: .customLong("section"),
        help: ArgumentHelp("Run only this section (repeat for several; see --list).", valueName: "name"))
    public var sections: [String] = []

    /// `--list`.
    @Flag(name: .long, help: "List the chapter's sections and exit.")
    public var list = false

    /// `--sql`.
    @Flag(
        name: .long, help: "Also print the SQL each fetch and each migration runs, as Core Data's SQL debug log does.")
    public var sql = false

    /// Creates the default options.
    public init() {}

    /// Runs a chapter with these options, printing to standard output.
    public func run(_ chapter: Chapter.Type) throws {
        if list {
            Swift.print(ChapterRunner.list(chapter))
            return
        }
        do {
            try ChapterRunner.run(chapter, sections: sections, showingSQL: sql) { Swift.print($0) }
        } catch let error as ChapterRunner.UnknownSection {
            throw ValidationError(error.description)
        }
    }
}
