// Chapter 2 exercises. Replace each `throw NotSolvedYet()` with your code, then run
// `swift run workbook exercises check predicates-1` (and -2, -3, -4).
import ObjectGraph
import WorkbookSupport

public enum PredicatesExercises {
    /// predicates-1: the people whose name is `name` when case is ignored, but accents are
    /// not ("bob" finds Bob and BOB, not Böb).
    public static func people(named name: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: a fetch of "Person" with a predicate that uses an option after the operator.
        throw NotSolvedYet()
    }

    /// predicates-2: a predicate that is true when the object's value for `key` equals
    /// `value`, for any key and any value chosen at run time.
    public static func predicate(key: String, equals value: Any) throws -> ObjectGraph.Predicate {
        // TODO: one format string, two specifiers.
        throw NotSolvedYet()
    }

    /// predicates-3: the teenagers (13 to 19, both included), youngest first.
    public static func teenagers(in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: a predicate on "age" and a sort descriptor.
        throw NotSolvedYet()
    }

    /// predicates-4: the one person with exactly this name, or nil when there is none; when
    /// several share it, let the error FetchUtilities throws reach the caller.
    public static func person(named name: String, in context: ManagedObjectContext) throws -> ManagedObject? {
        // TODO: FetchUtilities has a method for exactly this.
        throw NotSolvedYet()
    }
}
