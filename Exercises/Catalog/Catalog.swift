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
    ]

    /// The exercise with this name.
    public static func exercise(named name: String) -> Exercise? { all.first { $0.name == name } }
}
