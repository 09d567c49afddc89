import ExerciseCatalog
import ExerciseRunner
import Foundation
import Testing
import WorkbookSupport

// Issue 14: the learner's exercise code used to be compiled into the workbook tool, so one
// exercise that did not compile broke the tool, every other check and `swift test`, and a trap
// crashed `check` and the progress view. Now each exercise is a program of its own: these tests
// break exercises in every way a learner can and watch the rest carry on.
@Suite struct IsolationTests {
    static let doesNotCompile = """
        import ObjectGraph

        func booksSortedByTitle(in context: ManagedObjectContext) throws -> [ManagedObject] {
            let request = FetchRequest(entityName: "Book")
            request.sortDescriptors = [SortDescriptor(key: "title", ascending: "yes")]
            return try context.fetch(request)
        }
        """

    static let traps = """
        import ObjectGraph

        func employees(earningMoreThan amount: Int, in context: ManagedObjectContext) throws -> [ManagedObject] {
            let all = try context.fetch(FetchRequest(entityName: "Employee"))
            print("fetched \\(all.count) employees")
            let none = all.filter { _ in false }
            return [none[0]]
        }
        """

    static let unwrapsNil = """
        import ObjectGraph

        func employees(earningMoreThan amount: Int, in context: ManagedObjectContext) throws -> [ManagedObject] {
            let none: [ManagedObject]? = nil
            return none!
        }
        """

    static let neverEnds = """
        import ObjectGraph

        func lowestSalary(in context: ManagedObjectContext) throws -> Decimal? {
            var lowest = Decimal(0)
            while lowest >= 0 { lowest += 1 }
            return lowest
        }
        """

    @Test func aCompileErrorIsThatExercisesVerdictWithTheCompilersMessage() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write("fetching-1", Self.doesNotCompile)
        let outcome = try workspace.runner().check(try workspace.exercise("fetching-1"))
        guard case .doesNotCompile(let message) = outcome.verdict else {
            Issue.record("expected a compile error, got \(outcome)")
            return
        }
        #expect(message.contains("Exercises/Workspace/Fetching/fetching-1.swift:5:"))
        #expect(message.contains("error:"))
    }

    @Test func aTrapIsThatExercisesVerdictWithTheLineAndWhatItPrinted() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write("fetching-2", Self.traps)
        let outcome = try workspace.runner().check(try workspace.exercise("fetching-2"))
        guard case .crashed(let message) = outcome.verdict else {
            Issue.record("expected a crash, got \(outcome)")
            return
        }
        #expect(message.contains("Your code trapped"))
        #expect(message.contains("Fatal error: Index out of range"))
        #expect(message.contains("employees(earningMoreThan:in:), Exercises/Workspace/Fetching/fetching-2.swift:7:"))
        #expect(outcome.output.contains("fetched 5 employees"))
    }

    // Swift's message names the file by its module, the generated Exercise_fetching_2: the
    // learner never made that folder, and reads their own file's path instead.
    @Test func aTrapsMessageNamesTheLearnersFile() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write("fetching-2", Self.unwrapsNil)
        let outcome = try workspace.runner().check(try workspace.exercise("fetching-2"))
        guard case .crashed(let message) = outcome.verdict else {
            Issue.record("expected a crash, got \(outcome)")
            return
        }
        #expect(
            message.contains("Exercises/Workspace/Fetching/fetching-2.swift:5: Fatal error: Unexpectedly found nil"),
            "\(message)")
        #expect(!message.contains("Exercise_fetching_2"), "\(message)")
    }

    @Test func anEndlessLoopIsStoppedAtTheTimeLimit() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write("fetching-3", Self.neverEnds)
        let outcome = try workspace.runner(timeLimit: 3).check(try workspace.exercise("fetching-3"))
        #expect(
            outcome.verdict
                == .crashed("Your code did not finish within 3 seconds (an endless loop?), so the program was stopped.")
        )
    }

    @Test func aRenamedFunctionIsExplainedAsASignatureChange() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write(
            "predicates-3",
            """
            import ObjectGraph

            func teens(in context: ManagedObjectContext) throws -> [ManagedObject] { [] }
            """)
        let outcome = try workspace.runner().check(try workspace.exercise("predicates-3"))
        guard case .doesNotCompile(let message) = outcome.verdict else {
            Issue.record("expected a compile error, got \(outcome)")
            return
        }
        #expect(message.hasPrefix("Your file compiles, but the check cannot call your code"))
        #expect(message.contains("(the exercise's main.swift)"))
        #expect(message.contains("teenagers"))
    }

    /// The acceptance test: three broken exercises and one solved, and the tool still lists
    /// every exercise, checks each on its own, and gives hints.
    @Test func brokenExercisesLeaveTheToolAndTheOtherExercisesWorking() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write("fetching-1", Self.doesNotCompile)
        try workspace.write("fetching-2", Self.traps)
        try workspace.solve("predicates-1")
        let root = workspace.root.path

        let progress = try WorkbookProcess.run(["exercises", "progress", "--root", root])
        #expect(progress.status == 0, "\(progress.output)")
        #expect(progress.output.contains("[!] fetching-1  Every book, by title  (does not compile)"))
        #expect(progress.output.contains("[!] fetching-2  Who earns more?  (crashed)"))
        #expect(progress.output.contains("[ ] fetching-3  The lowest salary\n"))
        #expect(progress.output.contains("[x] predicates-1  Bob in any case\n"))
        #expect(progress.output.contains("Solved 1 of \(ExerciseCatalog.all.count)."))
        // Each part's exercises under the part's heading.
        #expect(progress.output.hasPrefix("Part I: Three classic articles\n"), "\(progress.output)")
        #expect(
            progress.output.contains(
                "\n\nPart II: Core Data in an application\n[ ] contexts-1  Import in the background\n"))

        // The crashed program's stores (workbook-* folders) go with it: a temporary folder of
        // the test's own shows what is left.
        let temporary = workspace.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let crashed = try WorkbookProcess.run(
            ["exercises", "check", "fetching-2", "--root", root],
            environment: ["TMPDIR": temporary.path])
        #expect(crashed.status == 1)
        #expect(crashed.output.contains("Fatal error: Index out of range"))
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.filter { $0.hasPrefix("workbook-") }.isEmpty, "left behind: \(left)")

        let solved = try WorkbookProcess.run(["exercises", "check", "predicates-1", "--root", root])
        #expect(solved.status == 0, "\(solved.output)")
        #expect(solved.output.contains("[x] predicates-1"))

        let hint = try WorkbookProcess.run(["exercises", "hint", "fetching-1"])
        #expect(hint.status == 0)
        #expect(hint.output.contains("Hint: A fetch request with no predicate"))
    }

    /// A verdict is kept with its program: checking again without a change runs nothing.
    @Test func anUnchangedFileIsNotBuiltAgain() throws {
        let workspace = try ExerciseWorkspace()
        let runner = try workspace.runner()
        let exercise = try workspace.exercise("compounding-3")
        #expect(runner.check(exercise).verdict == .notSolvedYet)
        let program = workspace.root.appendingPathComponent(".build/exercises/compounding-3/program")
        let built = try FileManager.default.attributesOfItem(atPath: program.path)[.modificationDate] as? Date
        #expect(runner.check(exercise).verdict == .notSolvedYet)
        #expect(try FileManager.default.attributesOfItem(atPath: program.path)[.modificationDate] as? Date == built)
        try workspace.solve("compounding-3")
        #expect(runner.check(exercise).verdict == .solved)
    }
}
