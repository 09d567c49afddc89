import WorkbookSupport

/// What checking an exercise found: the verdict, and what the learner's code printed on the way.
public struct ExerciseOutcome: Codable, Equatable, Sendable {
    /// Solved, not yet, wrong (and why), does not compile, or crashed.
    public let verdict: Verdict
    /// What the learner's code printed while the check ran, standard output then standard
    /// error; empty when it printed nothing.
    public let output: String

    /// An outcome.
    public init(verdict: Verdict, output: String = "") {
        self.verdict = verdict
        self.output = output
    }
}
