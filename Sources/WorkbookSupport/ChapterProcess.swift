import Foundation

/// A chapter's own executable run as a second process (the two-process sections of chapters 6
/// and 8): found beside the running program, run to its end, what it printed kept.
public struct ChapterProcess {
    /// What the process printed on standard output.
    public let output: String
    /// What it printed on standard error.
    public let errors: String
    /// Its exit status, or the signal that stopped it.
    public let status: Int32
    /// Whether it ended on a signal (a trap) rather than by exiting.
    public let stoppedOnSignal: Bool

    /// The standard output's lines.
    public var outputLines: [String] { output.split(separator: "\n").map(String.init) }

    /// The executable of this name beside the running program (the chapter itself, the workbook
    /// tool, or the tests' runner), or a folder or two up from it; nil when it is not built.
    public static func executable(named name: String) -> URL? {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `executable` with `arguments` to its end; `environment` entries are added to this
    /// process's own.
    public static func run(_ executable: URL, arguments: [String], environment: [String: String] = [:]) throws
        -> ChapterProcess
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes are read before waiting: a child that fills one would otherwise block.
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return ChapterProcess(
            output: printed, errors: said, status: process.terminationStatus,
            stoppedOnSignal: process.terminationReason == .uncaughtSignal)
    }
}
