import Foundation
import WorkbookSupport

/// How the tool words an exercise's outcome, for `check`, `progress` and `watch` alike.
public enum ExerciseReport {
    /// The one-line summary: `[x] fetching-1  Every book, by title`.
    public static func line(_ exercise: Exercise, _ verdict: Verdict) -> String {
        let mark: String
        var note = ""
        switch verdict {
        case .solved: mark = "[x]"
        case .notSolvedYet: mark = "[ ]"
        case .failed: mark = "[!]"
        case .doesNotCompile:
            mark = "[!]"
            note = "  (does not compile)"
        case .crashed:
            mark = "[!]"
            note = "  (crashed)"
        case .skipped:
            mark = "[-]"
            note = "  (skipped here)"
        }
        return "\(mark) \(exercise.name)  \(exercise.title)\(note)"
    }

    /// What to tell the learner under the summary line: why it is not solved and what to do,
    /// or where to compare a solved one; then what their code printed, if anything.
    public static func details(_ exercise: Exercise, _ outcome: ExerciseOutcome) -> [String] {
        var lines: [String] = []
        switch outcome.verdict {
        case .solved:
            lines.append("Solved. Compare your code with the reference solution in \(exercise.solutionFile).")
        case .notSolvedYet:
            lines.append("Not solved yet: \(exercise.file) still throws NotSolvedYet.")
            lines.append("Task: \(exercise.task)")
            lines.append("Stuck? `swift run workbook exercises hint \(exercise.name)`.")
        case .failed(let problems):
            lines += problems.map { "- " + $0 }
        case .doesNotCompile(let message):
            lines.append("\(exercise.file) does not compile; the compiler says:")
            lines += indented(message)
        case .crashed(let message):
            lines += message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case .skipped(let reason):
            lines.append("Not checked on this machine: \(reason)")
        }
        let output = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let printed = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !output.isEmpty {
            lines.append("Your code printed:")
            lines += indented(printed.prefix(maximumPrintedLines).joined(separator: "\n"))
            if printed.count > maximumPrintedLines {
                lines.append("  (\(printed.count - maximumPrintedLines) more lines)")
            }
        }
        return lines.map { "    " + $0 }
    }

    /// The most lines of the learner's own output shown under a verdict.
    static let maximumPrintedLines = 40

    private static func indented(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    }
}
