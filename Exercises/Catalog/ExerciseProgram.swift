import Foundation
import WorkbookSupport

/// The reporting end of an exercise's own program. ExerciseRunner writes the program's
/// main.swift: one call of ``report(_:)`` with the verdict of the catalog's check on the
/// learner's code. The verdict goes to a file, so whatever the learner's code prints stays theirs.
public enum ExerciseProgram {
    /// The environment variable that names the file the verdict is written to.
    public static let verdictFileVariable = "WORKBOOK_VERDICT_FILE"

    /// Runs the check (`verdict`), writes its verdict where the runner reads it, and ends the
    /// program.
    public static func report(_ check: @autoclosure () -> Verdict) -> Never {
        // Line by line, so what the learner's code printed before a trap is not lost in a buffer.
        StandardOutput.flushEachLine()
        let verdict = check()
        do {
            let data = try JSONEncoder().encode(verdict)
            if let path = ProcessInfo.processInfo.environment[verdictFileVariable] {
                try data.write(to: URL(fileURLWithPath: path))
            } else {
                print(String(decoding: data, as: UTF8.self))
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("The exercise's program could not write its verdict: \(error)\n".utf8))
            exit(70)
        }
    }
}
