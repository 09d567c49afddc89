import Exercises
import ExerciseSolutions
import WorkbookSupport

/// Every exercise of the workbook, in book order, wired to the learner's code and to the
/// reference solution.
public enum ExerciseCatalog {
    /// All exercises.
    public static let all: [Exercise] = [
        Exercise(
            name: "fetching-1", chapter: "fetching", title: "Every book, by title",
            task: "Return every Book, sorted by title from A to Z without regard to case.",
            hint: "A fetch request with no predicate returns every object. Give it one SortDescriptor on \"title\", and pick the comparator that ignores case.",
            file: "Exercises/Workspace/Fetching/FetchingExercises.swift",
            solutionFile: "Exercises/Solutions/Fetching/FetchingSolutions.swift",
            checkAttempt: { FetchingChecks.booksSortedByTitle(FetchingExercises.booksSortedByTitle(in:)) },
            checkSolution: { FetchingChecks.booksSortedByTitle(FetchingSolutions.booksSortedByTitle(in:)) }),
        Exercise(
            name: "fetching-2", chapter: "fetching", title: "Who earns more?",
            task: "Return the employees who earn more than the given amount, highest salary first.",
            hint: "Predicate(format: \"salary > %@\", amount) lets Core Data quote the number for you. Then sort on \"salary\" with ascending: false.",
            file: "Exercises/Workspace/Fetching/FetchingExercises.swift",
            solutionFile: "Exercises/Solutions/Fetching/FetchingSolutions.swift",
            checkAttempt: { FetchingChecks.employeesEarningMoreThan(FetchingExercises.employees(earningMoreThan:in:)) },
            checkSolution: { FetchingChecks.employeesEarningMoreThan(FetchingSolutions.employees(earningMoreThan:in:)) }),
        Exercise(
            name: "fetching-3", chapter: "fetching", title: "The lowest salary",
            task: "Return the lowest salary of all saved employees, computed by the store, or nil when there are none.",
            hint: "Set resultType to .dictionary and propertiesToFetch to one .expression(ExpressionDescription(name:expression:resultType:)) whose expression is min:(salary); read the value from the first dictionary under the name you chose.",
            file: "Exercises/Workspace/Fetching/FetchingExercises.swift",
            solutionFile: "Exercises/Solutions/Fetching/FetchingSolutions.swift",
            checkAttempt: { FetchingChecks.lowestSalary(FetchingExercises.lowestSalary(in:)) },
            checkSolution: { FetchingChecks.lowestSalary(FetchingSolutions.lowestSalary(in:)) }),
        Exercise(
            name: "compounding-1", chapter: "compounding", title: "From any of these publishers",
            task: "Return the books whose publisher is any of the named publishers; with no names, no books.",
            hint: "Map each name to Predicate(format: \"publisher.name == %@\", name) and combine them with Predicate.or. An OR of no subpredicates is already FALSEPREDICATE, so the empty case needs no special code.",
            file: "Exercises/Workspace/Compounding/CompoundingExercises.swift",
            solutionFile: "Exercises/Solutions/Compounding/CompoundingSolutions.swift",
            checkAttempt: { CompoundingChecks.booksFromAnyOf(CompoundingExercises.books(fromAnyOf:in:)) },
            checkSolution: { CompoundingChecks.booksFromAnyOf(CompoundingSolutions.books(fromAnyOf:in:)) }),
        Exercise(
            name: "compounding-2", chapter: "compounding", title: "Bestsellers from anyone else",
            task: "Return the books ranked better than the given rank (salesRank < rank) that the given publisher did not publish; books with no publisher count as not published by it.",
            hint: "Predicate.and([rank comparison, Predicate.not(publisher comparison)]). NOT publisher.name == %@ is true for a book with no publisher, in memory and in SQL alike.",
            file: "Exercises/Workspace/Compounding/CompoundingExercises.swift",
            solutionFile: "Exercises/Solutions/Compounding/CompoundingSolutions.swift",
            checkAttempt: { CompoundingChecks.bestsellers(CompoundingExercises.bestsellers(rankedBetterThan:notFrom:in:)) },
            checkSolution: { CompoundingChecks.bestsellers(CompoundingSolutions.bestsellers(rankedBetterThan:notFrom:in:)) }),
        Exercise(
            name: "compounding-3", chapter: "compounding", title: "Where the parentheses go",
            task: "Write one format string for the books published by either of two publishers that are also ranked better than a given rank.",
            hint: "AND binds tighter than OR, so a OR b AND c means a OR (b AND c). Write (publisher.name == %@ OR publisher.name == %@) AND salesRank < %@.",
            file: "Exercises/Workspace/Compounding/CompoundingExercises.swift",
            solutionFile: "Exercises/Solutions/Compounding/CompoundingSolutions.swift",
            checkAttempt: { CompoundingChecks.predicatePublishedByEither(CompoundingExercises.predicate(publishedBy:or:rankedBetterThan:)) },
            checkSolution: { CompoundingChecks.predicatePublishedByEither(CompoundingSolutions.predicate(publishedBy:or:rankedBetterThan:)) }),
        Exercise(
            name: "compounding-4", chapter: "compounding", title: "None of the above",
            task: "Return the books that match none of the given predicates; with no predicates, every book.",
            hint: "CompoundPredicate(type: .not, subpredicates: predicates) looks only at the first predicate. Negate one OR instead: Predicate.not(.or(predicates)).",
            file: "Exercises/Workspace/Compounding/CompoundingExercises.swift",
            solutionFile: "Exercises/Solutions/Compounding/CompoundingSolutions.swift",
            checkAttempt: { CompoundingChecks.booksMatchingNoneOf(CompoundingExercises.books(matchingNoneOf:in:)) },
            checkSolution: { CompoundingChecks.booksMatchingNoneOf(CompoundingSolutions.books(matchingNoneOf:in:)) }),
    ]

    /// The exercise with this name.
    public static func exercise(named name: String) -> Exercise? { all.first { $0.name == name } }
}
