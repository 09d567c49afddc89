import FetchingChapter
import ObjectGraph
import WorkbookSupport

/// How the chapter 1 exercises are judged: each check builds a fresh store with known data,
/// calls an implementation, and explains any difference from what Core Data would return.
public enum FetchingChecks {
    public static func booksSortedByTitle(_ attempt: (ManagedObjectContext) throws -> [ManagedObject]) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let context = try bench.makeContext(model: FetchingModels.bookshop())
            for title in ["banana bread", "Apple pie", "cherry tart", "apple crumble", "Date loaf"] {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.checkedSetValue(title, forKey: "title")
            }
            try context.save()
            let titles = try attempt(context).map { try $0.checkedValue(forKey: "title") as? String ?? "?" }
            let expected = ["apple crumble", "Apple pie", "banana bread", "cherry tart", "Date loaf"]
            if titles.count != expected.count {
                return [
                    "You returned \(titles.count) books, but the store holds \(expected.count). Fetch every Book: no predicate is needed."
                ]
            }
            if titles == ["Apple pie", "Date loaf", "apple crumble", "banana bread", "cherry tart"] {
                return [
                    "The titles are sorted, but upper-case letters come before every lower-case one. Sort ignoring case: SortDescriptor(key:ascending:comparator:) takes .caseInsensitiveCompare."
                ]
            }
            if titles != expected {
                return [
                    "The titles came back as \(titles), but A to Z ignoring case they are \(expected). Add a sort descriptor on \"title\"."
                ]
            }
            return []
        }
    }

    public static func employeesEarningMoreThan(_ attempt: (Int, ManagedObjectContext) throws -> [ManagedObject])
        -> Verdict
    {
        judge {
            let bench = Workbench { _ in }
            let context = try bench.makeContext(model: FetchingModels.company())
            for (name, salary) in [("Ann", 50_000), ("Ben", 90_000), ("Cy", 70_000), ("Di", 120_000), ("Ed", 70_001)] {
                let e = try context.insertNewObject(forEntityName: "Employee")
                try e.checkedSetValue(name, forKey: "firstName")
                try e.checkedSetValue(name, forKey: "lastName")
                try e.checkedSetValue(salary, forKey: "salary")
            }
            try context.save()
            var problems: [String] = []
            for (amount, expected) in [(70_000, ["Di", "Ben", "Ed"]), (100_000, ["Di"]), (200_000, [])] {
                let names = try attempt(amount, context).map {
                    try $0.checkedValue(forKey: "firstName") as? String ?? "?"
                }
                if Set(names) != Set(expected) {
                    problems.append(
                        "For more than \(amount) you returned \(names), but the employees earning more are \(expected). Use \"salary > %@\": strictly more, not \"at least\"."
                    )
                } else if names != expected {
                    problems.append(
                        "For more than \(amount) you found the right employees, in the order \(names); highest salary first is \(expected). Sort on salary with ascending: false."
                    )
                }
            }
            return problems
        }
    }

    public static func lowestSalary(_ attempt: (ManagedObjectContext) throws -> Decimal?) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let empty = try bench.makeContext(model: FetchingModels.company())
            var problems: [String] = []
            if let value = try attempt(empty) {
                problems.append(
                    "With no employees at all you returned \(value); there is no lowest salary then, so return nil.")
            }
            let context = try bench.makeContext(model: FetchingModels.company())
            for salary in [52_000, 48_500, 61_000] {
                let e = try context.insertNewObject(forEntityName: "Employee")
                try e.checkedSetValue("X", forKey: "lastName")
                try e.checkedSetValue(salary, forKey: "salary")
            }
            try context.save()
            // Unsaved objects are not in the store, so a dictionary fetch does not see them.
            let unsaved = try context.insertNewObject(forEntityName: "Employee")
            try unsaved.checkedSetValue("Y", forKey: "lastName")
            try unsaved.checkedSetValue(1, forKey: "salary")
            let value = try attempt(context)
            if value == 1 {
                problems.append(
                    "You returned 1, the salary of an employee who was never saved. Ask the store (a dictionary fetch with min:(salary)) rather than fetching objects."
                )
            } else if value != 48_500 {
                problems.append("You returned \(value.map { "\($0)" } ?? "nil"), but the lowest saved salary is 48500.")
            }
            return problems
        }
    }
}
