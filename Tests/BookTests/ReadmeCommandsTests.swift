import Foundation
import TestSupport
import Testing

@testable import workbook

// Every `swift run X ...` command of README.md works as written: each runs, in the README's
// order, as the already built executable X (never `swift run`), with HOME and XDG_DATA_HOME in
// a temporary directory and the package as the working directory, and exits 0.
@Suite struct ReadmeCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Commands left out, and why: the test never builds, and never runs for minutes.
    static func skipReason(_ command: ReadmeCommand) -> String? {
        if command.words.first != "swift" { return "not a swift command" }
        if command.words.dropFirst().first != "run" {
            return
                "`swift \(command.words.dropFirst().first ?? "")` builds or runs the package's tools, not one of its executables; the suite is what runs it"
        }
        if command.words.count < 3 { return "`swift run` named in prose, with no executable: nothing to run" }
        if command.words.contains("-c") {
            return "a release build and minutes of measurement: the benchmark is run by hand"
        }
        if command.words == ["swift", "run", "workbook", "book"] {
            return
                "rewrites book/ in the source tree; `swift run workbook book --check`, also in the README, runs and finds the book current"
        }
        return nil
    }

    /// What the test adds to a command so that it ends, or writes inside the temporary directory.
    static func additions(_ command: ReadmeCommand) -> [String] {
        let words = Array(command.words.dropFirst(2))
        // `todo watch` runs until Ctrl-C: one check of the timer shows it works.
        if words.first == "todo", words.contains("watch") { return ["--ticks", "1"] }
        // The site goes to .build/book-html of the package by default: here, to the temporary directory.
        if words == ["workbook", "render"] { return ["--output", "$TMP/book-html"] }
        return []
    }

    /// The exit statuses a command may end with, and why; every other command must exit 0.
    static func allowedStatuses(_ command: ReadmeCommand) -> Set<Int32> {
        // A check answers with its status: 1 while the exercise in the workspace is not solved
        // yet (so on a fresh clone), 0 once it is. A mistyped name would be 64.
        if command.words.dropFirst(2).starts(with: ["workbook", "exercises", "check"]) { return [0, 1] }
        return [0]
    }

    @Test func everyCommandRunsAsWritten() throws {
        let commands = try ReadmeCommand.all(
            in: String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8))
        let runnable = commands.filter { Self.skipReason($0) == nil }
        // The README's own list, so that a parser that finds nothing cannot pass.
        #expect(runnable.contains { $0.text.hasPrefix("swift run todo migrate") })
        #expect(runnable.contains { $0.text == "swift run workbook model describe ToDo.xcdatamodeld" })
        #expect(runnable.count >= 25, "found only \(runnable.map(\.text))")
        #expect(commands.contains { $0.text == "swift run -c release bench" && Self.skipReason($0) != nil })

        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        let home = temporary.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        environment["OBJECTGRAPH_SQL_DEBUG"] = nil
        // `swift build --build-tests` built the exercises' library; inside `swift test` the
        // tool must not run SwiftPM itself.
        environment["WORKBOOK_EXERCISES_NO_BUILD"] = "1"

        for (index, command) in runnable.enumerated() {
            let name = command.words[2]
            let executable = try #require(
                BuiltExecutable.url(named: name), "`\(name)` is not built: swift build --build-tests")
            // The README's /tmp and ~ are the test's own: runs never meet a person's files.
            let arguments = (Array(command.words.dropFirst(3)) + Self.additions(command)).map {
                $0.replacingOccurrences(of: "/tmp/", with: temporary.path + "/")
                    .replacingOccurrences(of: "$TMP", with: temporary.path)
                    .replacingOccurrences(of: "~/", with: home.path + "/")
            }
            let result = try Self.run(
                executable, arguments, environment: environment, log: temporary.appendingPathComponent("\(index)"))
            #expect(
                Self.allowedStatuses(command).contains(result.status),
                "`\(command.text)` exited \(result.status):\n\(result.output)")
        }
    }

    @Test func commandsAreFoundInCodeBlocksAndTables() throws {
        let markdown = """
            ```sh
            swift run todo add "Pay rent" --due +3m    # WHEN: +15m
            ls
            ```

            | what | command |
            |---|---|
            | a chapter | `swift run fetching --list`, `--sql`, `swift test` |
            """
        #expect(
            try ReadmeCommand.all(in: "First `swift run workbook chapters`, then:\n" + markdown).map(\.words) == [
                ["swift", "run", "workbook", "chapters"],
                ["swift", "run", "todo", "add", "Pay rent", "--due", "+3m"],
                ["swift", "run", "fetching", "--list"],
                ["swift", "test"],
            ])
        #expect(throws: (any Error).self) { try ReadmeCommand.all(in: "`swift run todo add \"Pay rent`") }
    }

    // `model describe ToDo.xcdatamodeld` finds the model the workbook ships when no file of
    // that name is in the working directory; a path is always taken as written.
    @Test func theShippedModelIsFoundByName() {
        #expect(!FileManager.default.fileExists(atPath: "ToDo.xcdatamodeld"))
        #expect(ModelCommand.locate("ToDo.xcdatamodeld").path.hasSuffix("/ToDo.xcdatamodeld"))
        #expect(FileManager.default.fileExists(atPath: ModelCommand.locate("ToDo.xcdatamodeld").path))
        #expect(
            ModelCommand.locate("models/ToDo.xcdatamodeld").path
                == URL(fileURLWithPath: "models/ToDo.xcdatamodeld").path)
        #expect(ModelCommand.locate("Other.xcdatamodeld").path == URL(fileURLWithPath: "Other.xcdatamodeld").path)
    }

    /// Runs `executable` in the package's folder; its output goes to files, so a long output
    /// never fills a pipe. A command still running after ten minutes is stopped and fails.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String], log: URL) throws -> (
        status: Int32, output: String
    ) {
        let outputURL = log.appendingPathExtension("out")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputURL.path])
        }
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = root
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        if finished.wait(timeout: .now() + 600) == .timedOut {
            process.terminate()
            finished.wait()
        }
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(text.suffix(4000)))
    }
}

/// One shell command of the README, split into words as the shell would.
struct ReadmeCommand {
    /// The command as the README writes it, without its comment.
    let text: String
    /// Its words, quotes removed.
    let words: [String]

    /// Every `swift ...` command in `markdown`: lines of fenced code blocks, and inline code
    /// (in tables and prose), in the order they appear.
    static func all(in markdown: String) throws -> [ReadmeCommand] {
        var commands: [ReadmeCommand] = []
        var prose = ""
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inFence.toggle()
                // The prose before a block comes before the block's commands.
                if inFence {
                    commands += try inline(prose)
                    prose = ""
                }
                continue
            }
            if inFence {
                if trimmed.hasPrefix("swift ") { commands.append(try ReadmeCommand(trimmed)) }
            } else {
                prose += line + "\n"
            }
        }
        return commands + (try inline(prose))
    }

    /// The `swift ...` code spans of prose, which may wrap across lines.
    static func inline(_ prose: String) throws -> [ReadmeCommand] {
        let pieces = prose.split(separator: "`", omittingEmptySubsequences: false)
        // An even number of pieces means an odd number of backticks: a span left open.
        if pieces.count % 2 == 0 { throw ParseError(text: prose) }
        return try pieces.enumerated()
            .filter { $0.offset % 2 == 1 }
            .map { $0.element.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("swift ") }
            .map { try ReadmeCommand($0) }
    }

    /// What the README holds that this cannot read as a command.
    struct ParseError: Error { let text: String }

    /// Splits `line` into words: spaces separate, double or single quotes group, and `#` at
    /// the start of a word begins a comment.
    init(_ line: String) throws {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var consumed = ""
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            } else if character == "#" && !inWord {
                break
            } else {
                word.append(character)
                inWord = true
            }
            consumed.append(character)
        }
        if quote != nil { throw ParseError(text: line) }
        if inWord { words.append(word) }
        text = consumed.trimmingCharacters(in: .whitespaces)
        self.words = words
    }
}
