import ExerciseCatalog
import ExerciseRunner
import Foundation
import Testing
import WorkbookSupport

// `workbook exercises watch`, as a learner uses it: it checks the exercise each time its file
// is saved, moves on when it passes, answers typed commands, and starts next time where the
// learner left off.
@Suite struct ExerciseWatchTests {
    @Test func savingASolutionMovesToTheNextExerciseAndTheNextRunStartsThere() throws {
        let workspace = try ExerciseWorkspace()
        let root = workspace.root.path
        let watch = try WorkbookProcess(["exercises", "watch", "compounding-2", "--root", root])
        #expect(watch.waitFor("[ ] compounding-2  Bestsellers from anyone else"), "\(watch.output)")

        // A save with a trap: reported, and the watch goes on.
        try workspace.write(
            "compounding-2",
            """
            import CoreData

            func bestsellers(rankedBetterThan rank: Int, notFrom publisher: String, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
                let none: [NSManagedObject] = []
                return [none[0]]
            }
            """)
        #expect(watch.waitFor("[!] compounding-2  Bestsellers from anyone else  (crashed)"), "\(watch.output)")

        watch.type("h")
        #expect(watch.waitFor("Hint: NSCompoundPredicate(andPredicateWithSubpredicates:"), "\(watch.output)")

        // The solution: solved, and on to the next exercise not solved.
        try workspace.solve("compounding-2")
        #expect(watch.waitFor("[x] compounding-2"), "\(watch.output)")
        #expect(watch.waitFor("Next: compounding-3, Where the parentheses go."), "\(watch.output)")
        #expect(watch.waitFor("[ ] compounding-3  Where the parentheses go"), "\(watch.output)")

        watch.type("q")
        #expect(watch.finish() == 0, "\(watch.output)")

        // The next run starts where the learner left off.
        let current = try String(
            contentsOf: workspace.root.appendingPathComponent(".build/exercises/current"), encoding: .utf8)
        #expect(current == "compounding-3\n")
        let again = try WorkbookProcess(["exercises", "watch", "--root", root])
        #expect(again.waitFor("Watching Exercises/Workspace/Compounding/compounding-3.swift."), "\(again.output)")
        again.type("q")
        #expect(again.finish() == 0)
    }

    @Test func theNextExerciseSkipsSolvedOnesAndWrapsAround() throws {
        let names = ["a-1", "a-2", "a-3"].map {
            Exercise(name: $0, chapter: "a", folder: "A", title: $0, task: "", hint: "", entry: "")
        }
        let solved: Set<String> = ["a-1", "a-3"]
        #expect(ExerciseProgress.next(after: names[2], in: names) { solved.contains($0.name) }?.name == "a-2")
        #expect(ExerciseProgress.next(after: nil, in: names) { solved.contains($0.name) }?.name == "a-2")
        #expect(ExerciseProgress.next(after: names[1], in: names) { _ in true } == nil)
    }
}
