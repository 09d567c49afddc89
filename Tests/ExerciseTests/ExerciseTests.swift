import ExerciseCatalog
import ExerciseRunner
import Foundation
import TestSupport
import Testing
import WorkbookSupport

// Every exercise's reference solution passes its check, built and run the way the learner's
// file is (its own program, in its own process); the starting code reports "not solved yet".
@Suite struct ExerciseTests {
    // A wrong name printed the root command's usage line ("Usage: workbook <subcommand>"),
    // which says nothing about `hint`; the message lists the names instead.
    @Test func anUnknownExerciseNameSaysWhichNamesThereAre() throws {
        let hint = try WorkbookProcess.run(["exercises", "hint", "fetching-9"])
        #expect(hint.status != 0)
        #expect(hint.output.hasPrefix("Error: There is no exercise named fetching-9. The exercises are: fetching-1,"))
        #expect(!hint.output.contains("Usage:"), "\(hint.output)")
    }

    // "Next: fetching-2, Who earns more?." had a doubled mark: a title with its own keeps it.
    @Test func aHeadlineEndsWithOneMark() throws {
        let earns = try #require(ExerciseCatalog.all.first { $0.name == "fetching-2" })
        #expect(earns.headline == "fetching-2, Who earns more?")
        for exercise in ExerciseCatalog.all {
            #expect(!exercise.headline.hasSuffix("?.") && !exercise.headline.hasSuffix(".."))
            #expect(exercise.headline.last.map { ".?!".contains($0) } == true)
        }
    }

    @Test(arguments: ExerciseCatalog.all.map(\.name))
    func theReferenceSolutionSolvesIt(_ name: String) throws {
        let exercise = try #require(ExerciseCatalog.exercise(named: name))
        let outcome = try ExerciseWorkspace.packageRunner().check(exercise, file: exercise.solutionFile)
        // A check that needs PostgreSQL is skipped, saying why, where no server can start (not on CI).
        if case .skipped(let reason) = outcome.verdict, !PostgresTestServer.isRequired {
            print("◇ \(name): not checked here: \(reason)")
            return
        }
        #expect(outcome.verdict == .solved, "\(outcome)")
    }

    /// While the learner's file still holds the starting TODO, the attempt is "not solved yet".
    /// (A learner who has written the function gets a different verdict, and the test lets it be.)
    @Test(arguments: ExerciseCatalog.all.map(\.name))
    func theStartingCodeIsNotSolvedYet(_ name: String) throws {
        let exercise = try #require(ExerciseCatalog.exercise(named: name))
        let source = try String(
            contentsOf: ExerciseWorkspace.packageRoot.appendingPathComponent(exercise.file), encoding: .utf8)
        guard source.contains("throw NotSolvedYet()") else { return }
        let outcome = try ExerciseWorkspace.packageRunner().check(exercise)
        if case .skipped = outcome.verdict, !PostgresTestServer.isRequired { return }
        #expect(outcome.verdict == .notSolvedYet, "\(outcome)")
    }

    @Test func aWrongAnswerIsExplainedInWords() throws {
        let verdict = judge { ["You returned 3 books, but the store holds 5."] }
        #expect(verdict == .failed(["You returned 3 books, but the store holds 5."]))
        struct Oops: Error {}
        #expect(judge { throw Oops() } == .failed(["Your code threw an error: Oops()"]))
    }

    @Test func namesAreUniqueAndEveryChapterHasThree() {
        let names = ExerciseCatalog.all.map(\.name)
        #expect(Set(names).count == names.count)
        for chapter in Set(ExerciseCatalog.all.map(\.chapter)) {
            #expect(ExerciseCatalog.all.filter { $0.chapter == chapter }.count >= 3, "chapter \(chapter)")
        }
        #expect(
            Set(ExerciseCatalog.all.map(\.chapter)).isSuperset(of: [
                "fetching", "predicates", "compounding", "versioning", "migration-policies",
            ]))
        // The predicates and compounding chapters have at least four each.
        for chapter in ["predicates", "compounding"] {
            #expect(ExerciseCatalog.all.filter { $0.chapter == chapter }.count >= 4, "chapter \(chapter)")
        }
    }

    /// Each exercise is one file of its own, and every file in the workspace is an exercise.
    @Test func everyExerciseHasItsOwnFileAndSolution() throws {
        let root = ExerciseWorkspace.packageRoot
        for exercise in ExerciseCatalog.all {
            #expect(
                FileManager.default.fileExists(atPath: root.appendingPathComponent(exercise.file).path),
                "\(exercise.file)")
            #expect(
                FileManager.default.fileExists(atPath: root.appendingPathComponent(exercise.solutionFile).path),
                "\(exercise.solutionFile)")
        }
        for folder in ["Exercises/Workspace", "Exercises/Solutions"] {
            let files = try FileManager.default.subpathsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".swift") }
            #expect(
                Set(files.map { "\(folder)/\($0)" })
                    == Set(ExerciseCatalog.all.map { folder.hasSuffix("Workspace") ? $0.file : $0.solutionFile }))
        }
    }
}
