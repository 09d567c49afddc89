import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to its end or to a time limit, and keeps what it printed.
///
/// Output goes to files rather than pipes, so a program that prints a lot cannot block on a
/// full pipe while the runner waits for it to finish.
enum ProcessRunner {
    /// How a program ended.
    enum Status: Equatable, Sendable {
        /// It exited with this code.
        case exited(Int32)
        /// A signal stopped it (a Swift trap is SIGILL or SIGTRAP).
        case signalled(Int32)
        /// It ran past the time limit and was killed.
        case timedOut
    }

    /// A finished run.
    struct Result: Sendable {
        let status: Status
        /// Standard output and standard error, in that order.
        let standardOutput: String
        let standardError: String
        /// Both, for messages.
        var output: String { [standardOutput, standardError].filter { !$0.isEmpty }.joined(separator: "\n") }
    }

    /// Runs `executable` with `arguments` in `directory`, with `environment` added to this
    /// process's, and waits at most `timeLimit` seconds.
    static func run(
        executable: String, arguments: [String], in directory: URL, environment: [String: String] = [:],
        timeLimit: TimeInterval
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
            FileManager.default.createFile(atPath: errURL.path, contents: nil)
        else {
            throw ExerciseRunnerError("Can't run \(executable): can't create its output files in \(scratch.path).")
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // The program's temporary files (its stores, in workbook-* folders) go in the scratch
        // folder, removed below even when the program crashed or was killed before its own
        // clean-up ran.
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .merging(["TMPDIR": scratch.path]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw ExerciseRunnerError("Can't run \(executable): \(error.localizedDescription)")
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeLimit) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        try? out.close()
        try? err.close()
        let status: Status
        if timedOut {
            status = .timedOut
        } else if process.terminationReason == .uncaughtSignal {
            status = .signalled(process.terminationStatus)
        } else {
            status = .exited(process.terminationStatus)
        }
        return Result(
            status: status,
            standardOutput: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            standardError: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}
