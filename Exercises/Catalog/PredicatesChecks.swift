import ObjectGraph
import PredicatesChapter
import WorkbookSupport

/// How the chapter 2 exercises are judged.
public enum PredicatesChecks {
    static func people(_ names: [(String, Int)]) throws -> ManagedObjectContext {
        let bench = Workbench { _ in }
        let context = try bench.makeContext(model: PredicatesModels.people())
        for (name, age) in names {
            let p = try context.insertNewObject(forEntityName: "Person")
            try p.checkedSetValue(name, forKey: "name")
            try p.checkedSetValue(age, forKey: "age")
        }
        try context.save()
        return context
    }

    static func names(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.checkedValue(forKey: "name") as? String ?? "?" }
    }

    public static func peopleNamed(_ attempt: (String, ManagedObjectContext) throws -> [ManagedObject]) -> Verdict {
        judge {
            let context = try people([("Bob", 30), ("bob", 20), ("BOB", 40), ("Böb", 50), ("Rob", 60)])
            let found = Set(try names(attempt("bob", context)))
            if found == ["bob"] {
                return [
                    "You found only \"bob\": comparisons are case-sensitive by default. Add [c] after the operator."
                ]
            }
            if found.contains("Böb") { return ["You found Böb too: [cd] also ignores accents. Use [c] alone."] }
            if found != ["Bob", "bob", "BOB"] {
                return [
                    "For \"bob\" you returned \(found.sorted()), but the people named bob in any case are Bob, bob and BOB."
                ]
            }
            return []
        }
    }

    public static func predicateForKey(_ attempt: (String, Any) throws -> ObjectGraph.Predicate) -> Verdict {
        judge {
            let predicate = try attempt("city", "Paris")
            if predicate.predicateFormat == #""city" == "Paris""# {
                return [
                    "Your predicate compares the string \"city\" with \"Paris\", which is never true: %@ makes a value. Use %K for the key."
                ]
            }
            var problems: [String] = []
            if try !predicate.checkedEvaluate(with: ["city": "Paris"]) {
                problems.append("It should be true for [\"city\": \"Paris\"], but is false.")
            }
            if try predicate.checkedEvaluate(with: ["city": "Rome"]) {
                problems.append("It should be false for [\"city\": \"Rome\"], but is true.")
            }
            let numeric = try attempt("age", 42)
            if try !numeric.checkedEvaluate(with: ["age": 42]) {
                problems.append(
                    "For key \"age\" and value 42 it should be true for [\"age\": 42]; pass the value as an argument rather than in the string."
                )
            }
            return problems
        }
    }

    public static func teenagers(_ attempt: (ManagedObjectContext) throws -> [ManagedObject]) -> Verdict {
        judge {
            let context = try people([("Ann", 19), ("Ben", 12), ("Cy", 13), ("Di", 20), ("Ed", 16)])
            let found = try names(attempt(context))
            if Set(found) == ["Ed"] || Set(found) == ["Cy", "Ed"] || Set(found) == ["Ed", "Ann"] {
                return [
                    "You left out someone aged exactly 13 or 19: both ends are teenagers. <= and >= include the bound; so does BETWEEN."
                ]
            }
            if Set(found) != ["Ann", "Cy", "Ed"] {
                return ["You returned \(found), but the teenagers are Cy (13), Ed (16) and Ann (19)."]
            }
            if found != ["Cy", "Ed", "Ann"] {
                return ["The right people, but in the order \(found); youngest first is Cy, Ed, Ann. Sort on \"age\"."]
            }
            return []
        }
    }

    public static func personNamed(_ attempt: (String, ManagedObjectContext) throws -> ManagedObject?) -> Verdict {
        judge {
            let context = try people([("Ann", 19), ("Ben", 12), ("Ben", 40)])
            var problems: [String] = []
            if try attempt("Ann", context).flatMap({ try $0.checkedValue(forKey: "name") as? String }) != "Ann" {
                problems.append("For \"Ann\" you should return her, the only Ann.")
            }
            if try attempt("Zoe", context) != nil { problems.append("For \"Zoe\", who is not there, return nil.") }
            do {
                let ben = try attempt("Ben", context)
                problems.append(
                    "There are two Bens, so the call should throw FetchUtilities.TooManyEntitiesReturned; you returned \(ben == nil ? "nil" : "one of them")."
                )
            } catch is FetchUtilities.TooManyEntitiesReturned {
            }
            return problems
        }
    }
}
