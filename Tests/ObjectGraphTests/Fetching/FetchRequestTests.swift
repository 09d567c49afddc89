import Foundation
import Testing

@testable import ObjectGraph

@Suite struct FetchRequestTests {
    // Apple, NSFetchRequest reference, `predicate`: "If the predicate is empty (for example, an
    // AND predicate whose array of elements contains no predicates) the request has its
    // predicate set to nil."
    @Test func anEmptyAndPredicateBecomesNil() throws {
        let request = FetchRequest(entityName: "Book")
        request.predicate = ObjectGraph.Predicate.and([])
        #expect(request.predicate == nil)
    }

    // Only an empty AND: an empty OR (FALSEPREDICATE) and a non-empty AND stay as they are.
    @Test func otherPredicatesStay() throws {
        let request = FetchRequest(entityName: "Book")
        request.predicate = ObjectGraph.Predicate.or([])
        #expect(request.predicate == ObjectGraph.Predicate.or([]))
        let title = try ObjectGraph.Predicate(checkedFormat: "title == 'x'")
        request.predicate = ObjectGraph.Predicate.and([title])
        #expect(request.predicate == ObjectGraph.Predicate.and([title]))
    }
}
