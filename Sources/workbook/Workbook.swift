import AllChapters
import ArgumentParser
import Foundation
import WorkbookSupport

@main
struct Workbook: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The Core Data workbook: chapters, the book, and exercises.",
        discussion: """
            Run a chapter with `swift run <chapter>` (for example `swift run fetching`). This tool \
            keeps the book current, renders it to HTML, and checks your exercises.
            """,
        subcommands: [
            ChaptersCommand.self, BookCommand.self, RenderCommand.self, ExercisesCommand.self, StoreCommand.self,
            ModelCommand.self,
        ])
}

/// Options that locate the package.
struct RootOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The package's root folder (default: the nearest folder upward with Package.swift and book/).",
            valueName: "path"))
    var root: String?

    /// The root folder, or an error that says how to point at it.
    func url() throws -> URL {
        if let root { return URL(fileURLWithPath: root) }
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        while true {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: directory.appendingPathComponent("book").path)
            {
                return directory
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        throw WorkbookError(
            "Can't find the workbook: run this inside the package (the folder with Package.swift and book/), or pass --root PATH."
        )
    }
}

struct ChaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chapters", abstract: "List the chapters and their sections.")

    func run() throws {
        var part: BookPart?
        for entry in allChapters {
            if entry.part != part {
                print((part == nil ? "" : "\n") + entry.part.heading)
                part = entry.part
            }
            print("\(entry.name): \(entry.title)  (swift run \(entry.name))")
            for line in entry.sectionList.split(separator: "\n") { print("    " + line) }
        }
    }
}

struct BookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "Rewrite the book's code listings, outputs and diagrams from the chapters.",
        discussion: """
            Every block between <!-- listing|output|diagram CHAPTER/NAME --> and its closing \
            comment is generated: listings from // ANCHOR: comments in the chapter's sources, \
            outputs from running the section, diagrams from the chapter's models. With --check \
            nothing is written: the command fails with a diff when a page is stale.
            """)

    @OptionGroup var rootOptions: RootOptions

    @Flag(help: "Only check that the book is current; print a diff and fail if it is not.")
    var check = false

    func run() throws {
        let book = Book(root: try rootOptions.url())
        let progress: (String) -> Void = { line in FileHandle.standardError.write(Data(("  " + line + "\n").utf8)) }
        defer {
            for entry in allChapters {
                if let reason = entry.availability() {
                    print("The outputs of \(entry.name) were kept as they are, not run: \(reason)")
                }
            }
        }
        if check {
            let stale = try book.stalePages(progress: progress)
            guard stale.isEmpty else {
                for page in stale { print(page.diff) }
                print(
                    "\nThe book is stale: \(stale.map(\.file).joined(separator: ", ")). Run `swift run workbook book` to rewrite it."
                )
                throw ExitCode.failure
            }
            print("The book is current.")
        } else {
            let changed = try book.update(progress: progress)
            print(changed.isEmpty ? "The book was already current." : "Rewrote \(changed.joined(separator: ", ")).")
        }
    }
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write the book as a static HTML site that reads well offline.",
        discussion: "Open <output>/index.html in a browser. Run `swift run workbook book` first if the book is stale.")

    @OptionGroup var rootOptions: RootOptions

    @Option(
        help: ArgumentHelp("Where to write the site (default: .build/book-html in the package).", valueName: "path"))
    var output: String?

    func run() throws {
        let root = try rootOptions.url()
        let destination = output.map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent(".build/book-html")
        let renderer = SiteRenderer(bookDirectory: root.appendingPathComponent("book"), outputDirectory: destination)
        let count = try renderer.render { line in FileHandle.standardError.write(Data(("  " + line + "\n").utf8)) }
        print(
            "Wrote \(count) pages to \(destination.path). Open \(destination.appendingPathComponent("index.html").path) in a browser."
        )
    }
}
