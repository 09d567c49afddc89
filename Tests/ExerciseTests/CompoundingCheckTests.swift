import ObjectGraph
import Testing
import WorkbookSupport

@testable import ExerciseCatalog

// The compounding checks explain the mistakes the chapter warns about in the learner's words:
// each wrong attempt here is one a learner is likely to write.
@Suite struct CompoundingCheckTests {
    static func fetch(_ predicate: ObjectGraph.Predicate, _ context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Book")
        request.predicate = predicate
        return try context.fetch(request)
    }

    static func messages(_ verdict: Verdict) -> String {
        if case .failed(let messages) = verdict { return messages.joined(separator: "\n") }
        return "verdict \(verdict)"
    }

    @Test func combiningPublishersWithAndIsExplained() {
        let verdict = CompoundingChecks.booksFromAnyOf { names, context in
            try Self.fetch(.and(try names.map { try Predicate(checkedFormat: "publisher.name == %@", $0) }), context)
        }
        #expect(
            Self.messages(verdict).contains(
                "combine the comparisons with orPredicateWithSubpredicates:, not andPredicateWithSubpredicates:"))
        #expect(Self.messages(verdict).contains("With no publisher names you returned"))
    }

    @Test func leavingOutBooksWithNoPublisherIsExplained() {
        let verdict = CompoundingChecks.bestsellers { rank, publisher, context in
            try Self.fetch(
                try Predicate(
                    checkedFormat: "salesRank < %@ AND publisher != nil AND NOT publisher.name == %@", rank, publisher),
                context)
        }
        #expect(Self.messages(verdict).contains("Canto has no publisher"))
    }

    @Test func aMissingParenthesisShowsHowCoreDataReadsIt() {
        let verdict = CompoundingChecks.predicatePublishedByEither { first, second, rank in
            try Predicate(
                checkedFormat: "publisher.name == %@ OR publisher.name == %@ AND salesRank < %@", first, second, rank)
        }
        let text = Self.messages(verdict)
        #expect(
            text.contains(
                #"Your predicate is read as publisher.name == "BookCo" OR (publisher.name == "Clarus Press" AND salesRank < 1000)"#
            ))
        #expect(text.contains("AND binds tighter than OR"))
    }

    @Test func aNotOfSeveralSubpredicatesIsExplained() {
        let verdict = CompoundingChecks.booksMatchingNoneOf { predicates, context in
            try Self.fetch(.compound(try CompoundPredicate(type: .not, subpredicates: predicates)), context)
        }
        let text = Self.messages(verdict)
        #expect(text.contains("only the first predicate counted"))
        #expect(text.contains("With no predicates your code threw"))
    }

    @Test func notOfAnAndIsExplained() {
        let verdict = CompoundingChecks.booksMatchingNoneOf { predicates, context in
            try Self.fetch(.not(.and(predicates)), context)
        }
        #expect(Self.messages(verdict).contains("NOT (a OR b), not NOT (a AND b)"))
    }
}
