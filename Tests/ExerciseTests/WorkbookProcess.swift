import Foundation
import TestSupport
import Testing

/// The built `workbook` tool, run as a learner runs it, for the exercise commands. It never
/// builds the exercises' library itself here (the tests run inside `swift test`, which holds
/// SwiftPM's build lock): `swift build --build-tests` built it.
final class WorkbookProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var printed = Data()

    /// Starts `workbook` with `arguments`, and `environment` added to this process's.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let workbook: URL = try #require(BuiltExecutable.url(named: "workbook"), "the workbook tool is not built")
        process.executableURL = workbook
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment
            .merging(["WORKBOOK_EXERCISES_NO_BUILD": "1"].merging(environment) { $1 }) { $1 }
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.printed.append(data)
            self.lock.unlock()
        }
        try process.run()
    }

    /// Everything printed so far.
    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: printed, as: UTF8.self)
    }

    /// Types a line into the tool.
    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits until the output contains `text` (true), or `seconds` pass (false).
    func waitFor(_ text: String, seconds: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return output.contains(text)
    }

    /// Waits for the tool to end and returns its exit code (killing it after `seconds`).
    func finish(seconds: TimeInterval = 120) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        // The last output may still be on its way through the pipe.
        Thread.sleep(forTimeInterval: 0.1)
        return process.terminationStatus
    }

    /// Runs `workbook` with `arguments` to its end: its exit code and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let tool = try WorkbookProcess(arguments, environment: environment)
        let status = tool.finish()
        return (status, tool.output)
    }
}
