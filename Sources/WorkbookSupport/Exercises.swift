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
public enum Verdict: Equatable, Sendable, Codable {
    /// Every check passed.
    case solved
    /// The starting code is untouched (it threw ``NotSolvedYet``).
    case notSolvedYet
    /// Something is wrong; each message says what, in a learner's words.
    case failed([String])
    /// The exercise's file does not compile: the compiler's messages.
    case doesNotCompile(String)
    /// The exercise's program stopped before it could judge: how (a trap, a signal, a time
    /// limit), with what it printed.
    case crashed(String)
    /// The check could not run on this machine (chapter 10's need a PostgreSQL server): why.
    case skipped(String)

    /// Whether the learner has more to do.
    public var isSolved: Bool { self == .solved }
}

/// Something an exercise's file must not contain, and what to do instead: for what its check
/// cannot see when it runs (a number pasted into a format string parses to the same
/// predicate as one passed as an argument).
public struct SourceRule: Sendable {
    /// A regular expression that finds the mistake in a line of code (comments are skipped).
    public let pattern: String
    /// What the learner reads when it matches.
    public let message: String

    /// A rule that refuses code matching `pattern`, explaining with `message`.
    public init(_ pattern: String, _ message: String) {
        self.pattern = pattern
        self.message = message
    }

    /// The message when a line of `code` that is not a `//` comment matches, else nil.
    public func violation(in code: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(line)
            if text.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            if regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { return message }
        }
        return nil
    }
}

/// One exercise: what to do, a hint, where the code is, and how its program calls the check.
///
/// Each exercise is a file of its own that builds into a program of its own (see
/// `ExerciseRunner`), so one that does not compile or traps affects only itself.
public struct Exercise: Sendable {
    /// The name `workbook exercises check NAME` takes: `fetching-1`.
    public let name: String
    /// The chapter it belongs to, as `workbook chapters` names it.
    public let chapter: String
    /// The chapter's folder under Exercises/Workspace and Exercises/Solutions: `Fetching`.
    public let folder: String
    /// A short title.
    public let title: String
    /// The task, as the learner reads it.
    public let task: String
    /// A nudge for when the learner is stuck.
    public let hint: String
    /// The Swift statement the exercise's program runs: a check from the catalog called with the
    /// learner's code, such as `FetchingChecks.booksSortedByTitle(booksSortedByTitle(in:))`.
    public let entry: String
    /// What the file must not contain, checked before it is built.
    public let sourceRules: [SourceRule]

    /// Declares an exercise.
    public init(
        name: String, chapter: String, folder: String, title: String, task: String, hint: String, entry: String,
        sourceRules: [SourceRule] = []
    ) {
        self.name = name
        self.chapter = chapter
        self.folder = folder
        self.title = title
        self.task = task
        self.hint = hint
        self.entry = entry
        self.sourceRules = sourceRules
    }

    /// "name, title." as a sentence starts with it: the title ends it unless it has its own
    /// mark ("fetching-2, Who earns more?", not "Who earns more?.").
    public var headline: String {
        let ending: Set<Character> = [".", "?", "!"]
        return "\(name), \(title)" + (title.last.map(ending.contains) == true ? "" : ".")
    }

    /// The file the learner edits, relative to the package root.
    public var file: String { "Exercises/Workspace/\(folder)/\(name).swift" }
    /// The reference solution's file, relative to the package root.
    public var solutionFile: String { "Exercises/Solutions/\(folder)/\(name).swift" }
}

/// Runs a check, turning the starting code's ``NotSolvedYet`` into `.notSolvedYet` and any
/// other error into a failure that quotes it.
public func judge(_ body: () throws -> [String]) -> Verdict {
    do {
        let problems = try body()
        return problems.isEmpty ? .solved : .failed(problems)
    } catch is NotSolvedYet {
        return .notSolvedYet
    } catch let skipped as CheckSkipped {
        return .skipped(skipped.reason)
    } catch {
        return .failed(["Your code threw an error: \(error)"])
    }
}

/// Thrown by a check that cannot run on this machine (no PostgreSQL server for chapter 10's):
/// ``judge(_:)`` makes it ``Verdict/skipped(_:)``, which says why.
public struct CheckSkipped: Error {
    /// Why, in a learner's words.
    public let reason: String

    /// A skip for `reason`.
    public init(_ reason: String) { self.reason = reason }
}
