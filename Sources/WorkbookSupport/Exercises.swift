import Foundation

/// What an exercise's starting code throws until the learner replaces it.
public struct NotSolvedYet: Error, CustomStringConvertible {
    /// The exercise function that is still a TODO.
    public let function: String
    /// Marks a function as not written yet.
    public init(_ function: String = #function) { self.function = function }
    /// Says what to do.
    public var description: String { "\(function) is still a TODO" }
}

/// How an attempt at an exercise went.
public enum Verdict: Equatable, Sendable {
    /// Every check passed.
    case solved
    /// The starting code is untouched (it threw ``NotSolvedYet``).
    case notSolvedYet
    /// Something is wrong; each message says what, in a learner's words.
    case failed([String])
}

/// One exercise: what to do, a hint, where the code is, and how to judge it.
public struct Exercise: Sendable {
    /// The name `workbook exercises check NAME` takes: `fetching-1`.
    public let name: String
    /// The chapter it belongs to.
    public let chapter: String
    /// A short title.
    public let title: String
    /// The task, as the learner reads it.
    public let task: String
    /// A nudge for when the learner is stuck.
    public let hint: String
    /// The file the learner edits, relative to the package root.
    public let file: String
    /// The reference solution's file.
    public let solutionFile: String
    /// Judges the learner's code.
    public let checkAttempt: @Sendable () -> Verdict
    /// Judges the reference solution (must always be solved).
    public let checkSolution: @Sendable () -> Verdict

    /// Declares an exercise.
    public init(name: String, chapter: String, title: String, task: String, hint: String, file: String, solutionFile: String,
                checkAttempt: @escaping @Sendable () -> Verdict, checkSolution: @escaping @Sendable () -> Verdict) {
        self.name = name
        self.chapter = chapter
        self.title = title
        self.task = task
        self.hint = hint
        self.file = file
        self.solutionFile = solutionFile
        self.checkAttempt = checkAttempt
        self.checkSolution = checkSolution
    }
}

/// Runs a check, turning the starting code's ``NotSolvedYet`` into `.notSolvedYet` and any
/// other error into a failure that quotes it.
public func judge(_ body: () throws -> [String]) -> Verdict {
    do {
        let problems = try body()
        return problems.isEmpty ? .solved : .failed(problems)
    } catch is NotSolvedYet {
        return .notSolvedYet
    } catch {
        return .failed(["Your code threw an error: \(error)"])
    }
}
