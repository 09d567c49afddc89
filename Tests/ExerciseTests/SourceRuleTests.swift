import ExerciseCatalog
import ExerciseRunner
import Foundation
import Testing
import WorkbookSupport

// fetching-2's file says "Pass the amount as a format argument; don't paste it into the format
// string", and the check accepted a pasted amount: both build the same predicate, so only the
// file can tell them apart.
@Suite struct SourceRuleTests {
    static func pasted(_ format: String) -> String {
        """
        import CoreData

        func employees(earningMoreThan amount: Int, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
            request.predicate = NSPredicate(format: \(format))
            request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: false)]
            return try context.fetch(request)
        }
        """
    }

    @Test(arguments: [#""salary > \(amount)""#, #""salary > " + String(amount)"#, #""salary > " + amount.description"#])
    func anAmountPastedIntoTheFormatIsRefused(format: String) throws {
        let exercise = try #require(ExerciseCatalog.exercise(named: "fetching-2"))
        let message = try #require(exercise.sourceRules.first?.message)
        #expect(exercise.sourceRules.compactMap { $0.violation(in: Self.pasted(format)) } == [message])
    }

    @Test func theArgumentAndTheFilesOwnWordsPass() throws {
        let exercise = try #require(ExerciseCatalog.exercise(named: "fetching-2"))
        let solution = try String(
            contentsOf: ExerciseWorkspace.packageRoot.appendingPathComponent(exercise.solutionFile),
            encoding: .utf8)
        let starter = try String(
            contentsOf: ExerciseWorkspace.packageRoot.appendingPathComponent(exercise.file),
            encoding: .utf8)
        #expect(exercise.sourceRules.compactMap { $0.violation(in: solution) }.isEmpty)
        #expect(exercise.sourceRules.compactMap { $0.violation(in: starter) }.isEmpty)
    }

    @Test func theRunnerRefusesThePastedFileWithoutBuildingIt() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write("fetching-2", Self.pasted(#""salary > \(amount)""#))
        let outcome = try workspace.runner().check(try workspace.exercise("fetching-2"))
        guard case .failed(let problems) = outcome.verdict else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(problems.count == 1 && problems[0].hasPrefix("The amount is pasted into the format string"))
    }
}
