import Testing
import ObjectGraph

// Issue: in a file a learner edits, `let byTitle: SortDescriptor = ...` did not compile
// ("ambiguous for type lookup"): Foundation on Linux declares a Predicate, an Expression, a
// SortDescriptor and a PredicateError of its own. ObjectGraph re-exports Foundation, so a file
// that imports only ObjectGraph (as this one, and every exercise file) can write the four
// names as types; this file compiling is most of the test.
@Suite struct NamesTests {
    @Test func theFourNamesAreObjectGraphsWhereOnlyObjectGraphIsImported() throws {
        let byTitle: SortDescriptor = SortDescriptor(key: "title", ascending: true)
        let predicate: Predicate = try Predicate(format: "title BEGINSWITH %@", "Fetch")
        let expression: Expression = try Expression(format: "title")
        let error: PredicateError? = nil
        #expect(ObjectIdentifier(type(of: byTitle)) == ObjectIdentifier(ObjectGraph.SortDescriptor.self))
        #expect(ObjectIdentifier(type(of: predicate)) == ObjectIdentifier(ObjectGraph.Predicate.self))
        #expect(ObjectIdentifier(type(of: expression)) == ObjectIdentifier(ObjectGraph.Expression.self))
        #expect(error == nil)
        // Foundation comes along: no second import needed for URL or Date.
        #expect(URL(fileURLWithPath: "/tmp").path == "/tmp")
        #expect(try predicate.evaluate(with: ["title": "Fetch, Clarus, Fetch"]))
    }
}
