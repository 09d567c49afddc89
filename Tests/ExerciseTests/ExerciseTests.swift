import Testing
import Foundation
import ExerciseCatalog
import WorkbookSupport

// Every exercise's checks pass on the reference solution, and on the starting code each
// reports "not solved yet" without crashing.
@Suite struct ExerciseTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ExerciseCatalog.all.map(\.name))
    func theReferenceSolutionSolvesIt(_ name: String) throws {
        let exercise = try #require(ExerciseCatalog.exercise(named: name))
        #expect(exercise.checkSolution() == .solved)
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(exercise.solutionFile).path))
    }

    /// While the learner's file still holds the starting TODO, the attempt is "not solved yet".
    /// (A learner who has written the function gets a different verdict, and the test lets it be.)
    @Test(arguments: ExerciseCatalog.all.map(\.name))
    func theStartingCodeIsNotSolvedYet(_ name: String) throws {
        let exercise = try #require(ExerciseCatalog.exercise(named: name))
        let source = try String(contentsOf: Self.root.appendingPathComponent(exercise.file), encoding: .utf8)
        guard source.components(separatedBy: "throw NotSolvedYet()").count - 1 == ExerciseCatalog.all.filter({ $0.file == exercise.file }).count else { return }
        #expect(exercise.checkAttempt() == .notSolvedYet)
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
        #expect(Set(ExerciseCatalog.all.map(\.chapter)).isSuperset(of: ["fetching", "predicates", "compounding", "versioning", "migration-policies"]))
        // The predicates and compounding chapters have at least four each.
        for chapter in ["predicates", "compounding"] {
            #expect(ExerciseCatalog.all.filter { $0.chapter == chapter }.count >= 4, "chapter \(chapter)")
        }
    }
}
