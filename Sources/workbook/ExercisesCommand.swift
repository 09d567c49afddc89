import AllChapters
import ArgumentParser
import ExerciseCatalog
import ExerciseRunner
import Foundation
import WorkbookSupport

struct ExercisesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercises",
        abstract: "Show your progress through the exercises, check your code, or get a hint.",
        discussion: """
            Each exercise is a file in Exercises/Workspace/ that starts as a TODO. Write it, then \
            check it: `swift run workbook exercises check fetching-1`, or let \
            `swift run workbook exercises watch` check it each time you save. Each exercise builds \
            into a program of its own, so one that does not compile or crashes stops no other. \
            With no subcommand, this shows which exercises you have solved and which one is next.
            """,
        subcommands: [Progress.self, Check.self, Watch.self, Hint.self],
        defaultSubcommand: Progress.self)

    /// The exercise named `name`, or an error that lists the names.
    static func exercise(named name: String) throws -> Exercise {
        guard let exercise = ExerciseCatalog.exercise(named: name) else {
            throw WorkbookError(
                "There is no exercise named \(name). The exercises are: \(ExerciseCatalog.all.map(\.name).joined(separator: ", "))."
            )
        }
        return exercise
    }

    /// Prints a line at once, even into a pipe.
    static func say(_ line: String) {
        print(line)
        fflush(nil) // every stream: naming stdout is not concurrency-safe in Swift 6
    }

    struct Progress: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "progress", abstract: "List the exercises, solved or not, and the next one to do.")

        @OptionGroup var exercises: ExerciseOptions

        func run() throws {
            let runner = try exercises.runner()
            let outcomes = runner.check(ExerciseCatalog.all)
            var next: Exercise?
            var part: BookPart?
            for (exercise, outcome) in zip(ExerciseCatalog.all, outcomes) {
                // Each part's exercises under its heading, as the book's contents shows them.
                if let exercisePart = chapterEntry(named: exercise.chapter)?.part, exercisePart != part {
                    say((part == nil ? "" : "\n") + exercisePart.heading)
                    part = exercisePart
                }
                say(ExerciseReport.line(exercise, outcome.verdict))
                if !outcome.verdict.isSolved && next == nil { next = exercise }
            }
            say("\nSolved \(outcomes.filter(\.verdict.isSolved).count) of \(ExerciseCatalog.all.count).")
            if let next {
                say("Next: \(next.headline) \(next.task)")
                say(
                    "Edit \(next.file), then run `swift run workbook exercises check \(next.name)`, or `swift run workbook exercises watch` to have it checked each time you save."
                )
            } else {
                say("Every exercise is solved. Well done!")
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check", abstract: "Judge your code for one exercise, or for all of them.")

        @Argument(help: "The exercise to check, such as fetching-1 (all of them when omitted).")
        var name: String?

        @Flag(help: "Check the reference solutions instead of your code.")
        var solutions = false

        @OptionGroup var exercises: ExerciseOptions

        func validate() throws {
            if let name { _ = try ExercisesCommand.exercise(named: name) }
        }

        func run() throws {
            let runner = try exercises.runner()
            let chosen = try name.map { [try ExercisesCommand.exercise(named: $0)] } ?? ExerciseCatalog.all
            let outcomes =
                solutions
                ? chosen.map { runner.check($0, file: $0.solutionFile) }
                : runner.check(chosen)
            for (exercise, outcome) in zip(chosen, outcomes) {
                say(ExerciseReport.line(exercise, outcome.verdict))
                for line in ExerciseReport.details(exercise, outcome) { say(line) }
            }
            if outcomes.contains(where: { !$0.verdict.isSolved }) { throw ExitCode(1) }
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Check the current exercise each time you save it, and move on when it passes.",
            discussion:
                "Starts where you left off (kept in .build/exercises/current). Type h (hint), n (next), l (list), c (check) or q (quit), then Return; Ctrl-D quits too."
        )

        @Argument(help: "The exercise to start with (default: where you left off, or the first not solved).")
        var name: String?

        @OptionGroup var exercises: ExerciseOptions

        func run() throws {
            let runner = try exercises.runner()
            let watcher = ExerciseWatcher(
                runner: runner, exercises: ExerciseCatalog.all,
                progress: ExerciseProgress(packageRoot: runner.packageRoot), write: { ExercisesCommand.say($0) })
            try watcher.run(startingAt: try name.map(ExercisesCommand.exercise(named:)))
        }
    }

    struct Hint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hint", abstract: "Print the hint for an exercise.")

        @Argument(help: "The exercise, such as fetching-1.")
        var name: String

        func run() throws {
            let exercise = try ExercisesCommand.exercise(named: name)
            print("\(exercise.name): \(exercise.title)")
            print("Task: \(exercise.task)")
            print("Hint: \(exercise.hint)")
        }
    }
}

/// Where the exercises are, and how their programs are built.
struct ExerciseOptions: ParsableArguments {
    @OptionGroup var root: RootOptions

    /// The environment variable that stops the tool from running `swift build` for the
    /// exercises' library (the tests set it: they run inside `swift test`).
    static let noBuildVariable = "WORKBOOK_EXERCISES_NO_BUILD"

    /// A runner whose library is current: built now if a change to the package left it stale.
    func runner() throws -> ExerciseRunner {
        guard let executable = Bundle.main.executableURL else {
            throw WorkbookError("Can't find where the workbook tool was built, so can't build exercises with it.")
        }
        let packageRoot = try root.url()
        do {
            let runner = try ExerciseRunner(
                packageRoot: packageRoot, productsDirectory: executable.deletingLastPathComponent())
            try runner.toolchain.buildRuntimeIfNeeded(
                allowBuilding: ProcessInfo.processInfo.environment[Self.noBuildVariable] == nil,
                log: { ExercisesCommand.say($0) })
            return runner
        } catch let error as ExerciseRunnerError {
            throw WorkbookError(error.description)
        }
    }
}
