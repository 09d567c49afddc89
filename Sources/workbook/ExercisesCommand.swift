import ArgumentParser
import ExerciseCatalog
import Foundation
import WorkbookSupport

struct ExercisesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercises",
        abstract: "Show your progress through the exercises, check your code, or get a hint.",
        discussion: """
            Each exercise is a function in Exercises/Workspace/ that starts as a TODO. Write it,
            then check it: `swift run workbook exercises check fetching-1`. With no subcommand,
            this shows which exercises you have solved and which one is next.
            """,
        subcommands: [Progress.self, Check.self, Hint.self],
        defaultSubcommand: Progress.self)

    static func line(_ exercise: Exercise, _ verdict: Verdict) -> String {
        let mark: String
        switch verdict {
        case .solved: mark = "[x]"
        case .notSolvedYet: mark = "[ ]"
        case .failed: mark = "[!]"
        }
        return "\(mark) \(exercise.name)  \(exercise.title)"
    }

    struct Progress: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "progress", abstract: "List the exercises, solved or not, and the next one to do.")

        func run() throws {
            var solved = 0
            var next: Exercise?
            for exercise in ExerciseCatalog.all {
                let verdict = exercise.checkAttempt()
                print(ExercisesCommand.line(exercise, verdict))
                if verdict == .solved { solved += 1 } else if next == nil { next = exercise }
            }
            print("\nSolved \(solved) of \(ExerciseCatalog.all.count).")
            if let next {
                print("Next: \(next.name), \(next.title). \(next.task)")
                print("Edit \(next.file), then run `swift run workbook exercises check \(next.name)`.")
            } else {
                print("Every exercise is solved. Well done!")
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Judge your code for one exercise, or for all of them.")

        @Argument(help: "The exercise to check, such as fetching-1 (all of them when omitted).")
        var name: String?

        func validate() throws {
            if let name, ExerciseCatalog.exercise(named: name) == nil {
                throw ValidationError("There is no exercise named \(name). The exercises are: \(ExerciseCatalog.all.map(\.name).joined(separator: ", ")).")
            }
        }

        func run() throws {
            let exercises = name.flatMap(ExerciseCatalog.exercise(named:)).map { [$0] } ?? ExerciseCatalog.all
            var unsolved = 0
            for exercise in exercises {
                let verdict = exercise.checkAttempt()
                print(ExercisesCommand.line(exercise, verdict))
                switch verdict {
                case .solved:
                    print("    Solved. Compare your code with the reference solution in \(exercise.solutionFile).")
                case .notSolvedYet:
                    unsolved += 1
                    print("    Not solved yet: the function in \(exercise.file) still throws NotSolvedYet.")
                    print("    Task: \(exercise.task)")
                    print("    Stuck? `swift run workbook exercises hint \(exercise.name)`.")
                case .failed(let problems):
                    unsolved += 1
                    for problem in problems { print("    - " + problem) }
                }
            }
            if unsolved > 0 { throw ExitCode(1) }
        }
    }

    struct Hint: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "hint", abstract: "Print the hint for an exercise.")

        @Argument(help: "The exercise, such as fetching-1.")
        var name: String

        func run() throws {
            guard let exercise = ExerciseCatalog.exercise(named: name) else {
                throw ValidationError("There is no exercise named \(name). The exercises are: \(ExerciseCatalog.all.map(\.name).joined(separator: ", ")).")
            }
            print("\(exercise.name): \(exercise.title)")
            print("Task: \(exercise.task)")
            print("Hint: \(exercise.hint)")
        }
    }
}
