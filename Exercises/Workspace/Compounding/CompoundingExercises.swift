// Chapter 3 exercises. Replace each `throw NotSolvedYet()` with your code, then run
// `swift run workbook exercises check compounding-1` (and -2, -3, -4). `swift run workbook
// exercises hint compounding-1` gives a hint.
//
// The model is the chapter's bookstore: a Book has a title, an author, a salesRank (1 is the
// best seller) and at most one publisher; a Publisher has a name.
import ObjectGraph
import WorkbookSupport

public enum CompoundingExercises {
    /// compounding-1: the books whose publisher is any of the named publishers. With no names
    /// at all, no book qualifies.
    public static func books(fromAnyOf publishers: [String], in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: one `publisher.name == %@` predicate per name, combined with Predicate.or.
        throw NotSolvedYet()
    }

    /// compounding-2: the books ranked better than `rank` (salesRank < rank) that are not
    /// published by `publisher`. A book with no publisher is not published by it either.
    public static func bestsellers(rankedBetterThan rank: Int, notFrom publisher: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: Predicate.and of a comparison and a Predicate.not.
        throw NotSolvedYet()
    }

    /// compounding-3: ONE format string, with its arguments, for the books published by
    /// `first` or by `second` that are also ranked better than `rank`.
    public static func predicate(publishedBy first: String, or second: String, rankedBetterThan rank: Int) throws -> ObjectGraph.Predicate {
        // TODO: return try Predicate(format: "...", first, second, rank)
        throw NotSolvedYet()
    }

    /// compounding-4: the books that match none of the given predicates. With no predicates,
    /// every book matches none of them.
    public static func books(matchingNoneOf predicates: [ObjectGraph.Predicate], in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: a NOT around a single compound of the predicates.
        throw NotSolvedYet()
    }
}
