import ExerciseRunner
import ObjectGraph
import Testing

// Issue: in a file a learner edits, `let byTitle: SortDescriptor = ...` did not compile
// ("ambiguous for type lookup"): Foundation on Linux declares a Predicate, an Expression, a
// SortDescriptor and a PredicateError of its own. ObjectGraph re-exports Foundation, so a file
// that imports only ObjectGraph (as this one, and every exercise file) can write the four
// names as types; this file compiling is most of the test.
@Suite struct NamesTests {
    @Test func theFourNamesAreObjectGraphsWhereOnlyObjectGraphIsImported() throws {
        let byTitle: SortDescriptor = SortDescriptor(key: "title", ascending: true)
        let predicate: Predicate = try Predicate(checkedFormat: "title BEGINSWITH %@", "Fetch")
        let expression: Expression = try Expression(checkedFormat: "title")
        let error: PredicateError? = nil
        #expect(ObjectIdentifier(type(of: byTitle)) == ObjectIdentifier(ObjectGraph.SortDescriptor.self))
        #expect(ObjectIdentifier(type(of: predicate)) == ObjectIdentifier(ObjectGraph.Predicate.self))
        #expect(ObjectIdentifier(type(of: expression)) == ObjectIdentifier(ObjectGraph.Expression.self))
        #expect(error == nil)
        // Foundation comes along: no second import needed for URL or Date.
        #expect(URL(fileURLWithPath: "/tmp").path == "/tmp")
        #expect(try predicate.checkedEvaluate(with: ["title": "Fetch, Clarus, Fetch"]))
    }

    /// The same, as a learner writes it: an exercise file, built into its own program the way
    /// `workbook exercises` builds the learner's, names the four as types and solves fetching-1.
    @Test func anExerciseFileCanWriteTheFourNamesAsTypes() throws {
        let workspace = try ExerciseWorkspace()
        try workspace.write(
            "fetching-1",
            """
            import ObjectGraph
            import WorkbookSupport

            func booksSortedByTitle(in context: ManagedObjectContext) throws -> [ManagedObject] {
                let byTitle: SortDescriptor = SortDescriptor(key: "title", ascending: true, comparator: .caseInsensitiveCompare)
                let everything: Predicate = try Predicate(checkedFormat: "TRUEPREDICATE")
                let title: Expression = try Expression(checkedFormat: "title")
                let noError: PredicateError? = nil
                precondition(title.description == "title" && noError == nil)
                let request = FetchRequest(entityName: "Book")
                request.predicate = everything
                request.sortDescriptors = [byTitle]
                return try context.fetch(request)
            }
            """)
        let outcome = try workspace.runner().check(try workspace.exercise("fetching-1"))
        #expect(outcome.verdict == .solved, "\(outcome)")
    }
}
