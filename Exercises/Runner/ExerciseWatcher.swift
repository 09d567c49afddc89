import Foundation
import WorkbookSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `workbook exercises watch`: checks the current exercise each time its file is saved, and
/// moves to the next one when it passes, as Rustlings does. Typed commands (a letter and
/// Return): `h` hint, `n` next exercise, `l` list, `c` check again, `q` quit; the end of
/// standard input (Ctrl-D, or none at all) quits too.
public struct ExerciseWatcher {
    /// Builds and runs the checks.
    public let runner: ExerciseRunner
    /// The exercises, in order.
    public let exercises: [Exercise]
    /// Where the current exercise is kept between runs.
    public let progress: ExerciseProgress
    /// Prints a line (and flushes it, for a terminal or a pipe alike).
    public let write: @Sendable (String) -> Void
    /// How often the file is looked at, in seconds.
    public var pollInterval: TimeInterval = 0.25

    /// A watcher over `exercises`.
    public init(
        runner: ExerciseRunner, exercises: [Exercise], progress: ExerciseProgress,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.runner = runner
        self.exercises = exercises
        self.progress = progress
        self.write = write
    }

    /// Watches until every exercise is solved, the learner types `q` or standard input ends.
    /// Starts at `name`, else where the learner left off, else at the first exercise not solved.
    public func run(startingAt name: Exercise? = nil) throws {
        var current: Exercise
        if let name {
            current = name
        } else if let saved = progress.current(in: exercises), !runner.check(saved).verdict.isSolved {
            current = saved
        } else if let first = nextUnsolved(after: progress.current(in: exercises)) {
            current = first
        } else {
            write("Every exercise is solved. Well done!")
            return
        }
        try progress.setCurrent(current)
        write(
            "Watching \(current.file). Save it to check it; type h (hint), n (next), l (list), c (check) or q (quit), then Return."
        )
        var seen = contents(of: current)
        var outcome = show(current)
        let input = StandardInput()
        while true {
            switch input.waitForLine(timeout: pollInterval) {
            case .line(let text):
                switch text.trimmingCharacters(in: .whitespaces).lowercased() {
                case "q", "quit": return
                case "h", "hint": write("Hint: \(current.hint)")
                case "l", "list":
                    for (exercise, outcome) in zip(exercises, runner.check(exercises)) {
                        write(ExerciseReport.line(exercise, outcome.verdict))
                    }
                case "n", "next":
                    let index = exercises.firstIndex { $0.name == current.name } ?? 0
                    current = exercises[(index + 1) % exercises.count]
                    try progress.setCurrent(current)
                    seen = contents(of: current)
                    write("Now on \(current.name): \(current.file)")
                    outcome = show(current)
                case "c", "check", "": outcome = show(current)
                default: write("Type h (hint), n (next), l (list), c (check) or q (quit), then Return.")
                }
                continue
            case .endOfInput:
                return
            case .nothing:
                break
            }
            let now = contents(of: current)
            guard now != seen else { continue }
            seen = now
            outcome = show(current)
            guard outcome.verdict.isSolved else { continue }
            guard let next = nextUnsolved(after: current) else {
                write("Every exercise is solved. Well done!")
                return
            }
            current = next
            try progress.setCurrent(current)
            seen = contents(of: current)
            write("Next: \(current.headline) Watching \(current.file).")
            outcome = show(current)
        }
    }

    /// Checks `exercise` and prints its outcome.
    private func show(_ exercise: Exercise) -> ExerciseOutcome {
        write("")
        write("Checking \(exercise.name)...")
        let outcome = runner.check(exercise)
        write(ExerciseReport.line(exercise, outcome.verdict))
        for line in ExerciseReport.details(exercise, outcome) { write(line) }
        return outcome
    }

    private func nextUnsolved(after exercise: Exercise?) -> Exercise? {
        ExerciseProgress.next(after: exercise, in: exercises) { runner.check($0).verdict.isSolved }
    }

    private func contents(of exercise: Exercise) -> Data? {
        FileManager.default.contents(atPath: runner.packageRoot.appendingPathComponent(exercise.file).path)
    }
}

/// Standard input, read a line at a time without blocking the watch loop.
struct StandardInput {
    enum Event: Equatable {
        case line(String)
        case nothing
        case endOfInput
    }

    /// Waits up to `timeout` seconds for a line.
    func waitForLine(timeout: TimeInterval) -> Event {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        guard ready > 0 else { return .nothing }
        guard let line = readLine() else { return .endOfInput }
        return .line(line)
    }
}
