// Chapter 1 exercises. Replace each `throw NotSolvedYet()` with your code, then run
// `swift run workbook exercises check fetching-1` (and -2, -3). `swift run workbook
// exercises hint fetching-1` gives a hint.
import ObjectGraph
import WorkbookSupport

public enum FetchingExercises {
    /// fetching-1: every Book, sorted by title A to Z, ignoring case
    /// ("apple" and "Apple" sort together).
    public static func booksSortedByTitle(in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: build a FetchRequest for "Book" with a sort descriptor, and fetch.
        throw NotSolvedYet()
    }

    /// fetching-2: the employees who earn more than `amount`, highest salary first.
    /// Pass the amount as a format argument; don't paste it into the format string.
    public static func employees(earningMoreThan amount: Int, in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: a predicate with %@, and a descending sort on salary.
        throw NotSolvedYet()
    }

    /// fetching-3: the lowest salary of all employees, computed by the store (dictionary
    /// results and an expression description), or nil when there are no employees.
    public static func lowestSalary(in context: ManagedObjectContext) throws -> Decimal? {
        // TODO: resultType .dictionary, an ExpressionDescription with min:(salary).
        throw NotSolvedYet()
    }
}
