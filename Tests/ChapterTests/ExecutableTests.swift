import Foundation
import TestSupport
import Testing

/// Runs the built executables the way swift-argument-parser's example tests do: the binaries
/// sit next to the test bundle after `swift build --build-tests` (which CI runs first).
enum Executables {
    static func url(_ name: String) -> URL? { BuiltExecutable.url(named: name) }

    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let executable: URL = try #require(url(name))
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self)
        )
    }
}

// The chapter executables' command lines: --list, --section, --sql, and errors that say what
// to do next.
@Suite(.enabled(if: Executables.url("fetching") != nil, "the executables are built by `swift build --build-tests`"))
struct ExecutableTests {
    @Test func listNamesEverySection() throws {
        let result = try Executables.run("fetching", ["--list"])
        #expect(result.status == 0)
        #expect(
            result.output.hasPrefix(
                "first-steps      First steps: a stack, an object saved, fetched back, and a fault\nall-books        Fetching every object of an entity\n"
            ))
        #expect(result.output.contains("transient        Why a fetch cannot use a transient property"))
    }

    @Test func oneSectionWithItsSQL() throws {
        let result = try Executables.run("fetching", ["--section", "listing-1", "--sql"])
        #expect(result.status == 0)
        #expect(result.output.contains("## A predicate and a sort: Apple's Listing 1  [listing-1]"))
        #expect(result.output.contains("CoreData: sql: SELECT"))
        #expect(!result.output.contains("[all-books]"))
    }

    @Test func anUnknownSectionIsAUsageError() throws {
        let result = try Executables.run("fetching", ["--section", "nope"])
        #expect(result.status != 0)
        #expect(result.error.contains("There is no section named \"nope\""))
    }

    @Test(.enabled(if: Executables.url("workbook") != nil))
    func workbookHelpAndExerciseHints() throws {
        let help = try Executables.run("workbook", ["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("SUBCOMMANDS:"))
        #expect(help.output.contains("exercises"))
        let hint = try Executables.run("workbook", ["exercises", "hint", "fetching-1"])
        #expect(hint.output.contains("Hint: A fetch request with no predicate returns every object."))
        let wrong = try Executables.run("workbook", ["exercises", "hint", "fetching-9"])
        #expect(wrong.status != 0)
        #expect(wrong.error.contains("The exercises are: fetching-1, fetching-2, fetching-3"))
    }
}
