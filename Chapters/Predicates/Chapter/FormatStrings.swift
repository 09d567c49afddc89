import ObjectGraph
import WorkbookSupport

enum FormatStrings {
    static func run(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        // ANCHOR: age-predicate
        let young = try Predicate(format: "age <= 21")
        // ANCHOR_END: age-predicate
        bench.print(PeopleData.line(young, try PeopleData.matches(young, in: context)))
        // ANCHOR: mary-or-joe
        let maryOrJoe = try Predicate(format: "name == %@ OR name == %@", "Mary", "Joe")
        // ANCHOR_END: mary-or-joe
        bench.print(PeopleData.line(maryOrJoe, try PeopleData.matches(maryOrJoe, in: context)))
        // ANCHOR: evaluate
        let joe = ["name": "Joe", "age": 21] as [String: Any]
        let isYoung = try young.evaluate(with: joe)
        // ANCHOR_END: evaluate
        bench.print("Evaluated on a dictionary for Joe, age 21: \(isYoung)")
    }
}

enum BobPitfall {
    static func run(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        // ANCHOR: bob-unquoted
        let unquoted = try Predicate(format: "name == Bob")
        let request = FetchRequest(entityName: "Person")
        request.predicate = unquoted
        do {
            _ = try context.fetch(request)
        } catch {
            bench.print("Fetching with \(unquoted.predicateFormat): \(error)")
        }
        // ANCHOR_END: bob-unquoted
        // ANCHOR: bob-in-memory
        let person = try context.fetch(FetchRequest(entityName: "Person"))[2]
        do {
            _ = try unquoted.evaluate(with: person)
        } catch {
            bench.print("Evaluating it on a Person: \(error)")
        }
        let dictionary = ["name": "Bob"] as [String: Any]
        let onDictionary = try unquoted.evaluate(with: dictionary)
        // ANCHOR_END: bob-in-memory
        bench.print("Evaluating it on [\"name\": \"Bob\"]: \(onDictionary) (a dictionary has no key Bob, so the right side is nil)")
        // ANCHOR: bob-quoted
        let quoted = try Predicate(format: "name == 'Bob'")
        // ANCHOR_END: bob-quoted
        bench.print(PeopleData.line(quoted, try PeopleData.matches(quoted, in: context)))
    }
}

enum Operators {
    static func run(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        // ANCHOR: operators
        let formats = [
            "age == 21", "age = 21", "age > 50", "age < 19", "age != 21", "age <> 21", "age >= 44", "age <= 19",
            "age > 18 AND age < 21", "age > 18 && age < 21",
            "age < 18 OR age > 60", "age < 18 || age > 60",
            "NOT age > 20", "!(age > 20)",
        ]
        for format in formats {
            let predicate = try Predicate(format: format)
            bench.print(format.padding(toLength: 24, withPad: " ", startingAt: 0) + PeopleData.line(predicate, try PeopleData.matches(predicate, in: context)))
        }
        // ANCHOR_END: operators
    }
}

enum StringOperators {
    static func run(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        // ANCHOR: substring-operators
        for format in ["text BEGINSWITH 'wa'", "text CONTAINS 'es'", "text ENDSWITH 'at'"] {
            let predicate = try Predicate(format: format)
            bench.print(PeopleData.line(predicate, try PeopleData.matches(predicate, entity: "Word", key: "text", in: context)))
        }
        // ANCHOR_END: substring-operators
        // ANCHOR: like
        for format in ["text LIKE 'w*t'", "text LIKE 'w?t'", "text LIKE 'w\\\\?t'"] {
            let predicate = try Predicate(format: format)
            bench.print(PeopleData.line(predicate, try PeopleData.matches(predicate, entity: "Word", key: "text", in: context)))
        }
        // ANCHOR_END: like
        // ANCHOR: matches
        let vowelPairs = try Predicate(format: "text MATCHES %@", "w[aeiou]{2}.*")
        // ANCHOR_END: matches
        bench.print(PeopleData.line(vowelPairs, try PeopleData.matches(vowelPairs, entity: "Word", key: "text", in: context)))
    }
}

enum CaseAndDiacritics {
    static func run(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        // ANCHOR: bob-cousins
        for format in ["name == 'bob'", "name ==[c] 'bob'", "name ==[d] 'bob'", "name ==[cd] 'bob'", "name BEGINSWITH[cd] 'BO'", "name LIKE[cd] 'b?b'"] {
            let predicate = try Predicate(format: format)
            bench.print(PeopleData.line(predicate, try PeopleData.matches(predicate, in: context)))
        }
        // ANCHOR_END: bob-cousins
    }
}

enum KeysAndValues {
    static func run(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        let key = "name", value = "Mary"
        // ANCHOR: broken-key
        let broken = try Predicate(format: "%@ == %@", key, value)
        // ANCHOR_END: broken-key
        bench.print(PeopleData.line(broken, try PeopleData.matches(broken, in: context)))
        // ANCHOR: fixed-key
        let fixed = try Predicate(format: "%K == %@", key, value)
        // ANCHOR_END: fixed-key
        bench.print(PeopleData.line(fixed, try PeopleData.matches(fixed, in: context)))
    }
}

enum Arguments {
    static func run(_ bench: Workbench) throws {
        let context = try PeopleData.context(bench)
        let cutoff = Workbench.date(days: -15_000)
        // ANCHOR: arguments
        let byName = try Predicate(format: "name == %@", "Joe")
        let byAge = try Predicate(format: "age > %@", 40)
        let byBirthday = try Predicate(format: "birthday < %@", cutoff)
        let withQuote = try Predicate(format: "name == %@", "O'Brien \"Bob\"")
        // ANCHOR_END: arguments
        for predicate in [byName, byAge, byBirthday, withQuote] {
            bench.print(PeopleData.line(predicate, try PeopleData.matches(predicate, in: context)))
        }
        bench.print("(The date is \(Workbench.format(cutoff)): dates print as seconds since 1 January 2001.)")
        // ANCHOR: printf
        let printf = try Predicate(format: "age > %d AND age < %d", 18, 21)
        // ANCHOR_END: printf
        bench.print(PeopleData.line(printf, try PeopleData.matches(printf, in: context)))
        // ANCHOR: quotes-stop-substitution
        do {
            _ = try Predicate(format: "name == '%@'", "Joe")
        } catch {
            bench.print("Quoting %@ yourself: \(error)")
        }
        // ANCHOR_END: quotes-stop-substitution
    }
}
