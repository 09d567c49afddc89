import CoreData
import WorkbookSupport

// Each section starts from a new store holding the people and words of `SampleData`. Its
// listings print with `print`, as a reader's own code would; here that goes to the section's
// output, so that the book embeds what they really printed.

enum FormatStrings {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: age-predicate
        let young = NSPredicate(format: "age <= 21")
        print(try fetchLine(young, in: context))
        // ANCHOR_END: age-predicate
        // ANCHOR: mary-or-joe
        let maryOrJoe = NSPredicate(format: "name == %@ OR name == %@", "Mary", "Joe")
        print(try fetchLine(maryOrJoe, in: context))
        // ANCHOR_END: mary-or-joe
        // ANCHOR: evaluate
        let joe = ["name": "Joe", "age": 21] as [String: Any]
        let isYoung = young.evaluate(with: joe)
        print("Evaluated on a dictionary for Joe, age 21: \(isYoung)")
        // ANCHOR_END: evaluate
    }
}

enum BobPitfall {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: bob-unquoted
        let unquoted = NSPredicate(format: "name == Bob")
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = unquoted
        do {
            _ = try context.fetch(request)
        } catch {
            print("Fetching with \(unquoted.predicateFormat): \(error)")
        }
        // ANCHOR_END: bob-unquoted
        // ANCHOR: bob-in-memory
        if let person = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first {
            do {
                _ = try unquoted.checkedEvaluate(with: person)
            } catch {
                print("Evaluating it on a Person: \(error)")
            }
        }
        let dictionary = ["name": "Bob"] as [String: Any]
        let onDictionary = unquoted.evaluate(with: dictionary)
        print("Evaluating it on [\"name\": \"Bob\"]: \(onDictionary)")
        // ANCHOR_END: bob-in-memory
        // ANCHOR: bob-quoted
        let quoted = NSPredicate(format: "name == 'Bob'")
        print(try fetchLine(quoted, in: context))
        // ANCHOR_END: bob-quoted
    }
}

enum Operators {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: operators
        let formats = [
            "age == 21", "age = 21", "age > 50", "age < 19", "age != 21", "age <> 21", "age >= 44", "age <= 19",
            "age > 18 AND age < 21", "age > 18 && age < 21",
            "age < 18 OR age > 60", "age < 18 || age > 60",
            "NOT age > 20", "!(age > 20)",
        ]
        for format in formats {
            let predicate = NSPredicate(format: format)
            print(format.padding(toLength: 24, withPad: " ", startingAt: 0) + (try fetchLine(predicate, in: context)))
        }
        // ANCHOR_END: operators
    }
}

enum StringOperators {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: substring-operators
        for format in ["text BEGINSWITH 'wa'", "text CONTAINS 'es'", "text ENDSWITH 'at'"] {
            let predicate = NSPredicate(format: format)
            print(try fetchLine(predicate, entity: "Word", key: "text", in: context))
        }
        // ANCHOR_END: substring-operators
        // ANCHOR: like
        for format in ["text LIKE 'w*t'", "text LIKE 'w?t'", "text LIKE 'w\\\\?t'"] {
            let predicate = NSPredicate(format: format)
            print(try fetchLine(predicate, entity: "Word", key: "text", in: context))
        }
        // ANCHOR_END: like
        // ANCHOR: matches
        let vowelPairs = NSPredicate(format: "text MATCHES %@", "w[aeiou]{2}.*")
        print(try fetchLine(vowelPairs, entity: "Word", key: "text", in: context))
        // ANCHOR_END: matches
    }
}

enum CaseAndDiacritics {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: bob-cousins
        for format in [
            "name == 'bob'", "name ==[c] 'bob'", "name ==[d] 'bob'", "name ==[cd] 'bob'", "name BEGINSWITH[cd] 'BO'",
            "name LIKE[cd] 'b?b'",
        ] {
            let predicate = NSPredicate(format: format)
            print(try fetchLine(predicate, in: context))
        }
        // ANCHOR_END: bob-cousins
    }
}

enum KeysAndValues {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: broken-key
        let key = "name"
        let value = "Mary"
        let broken = NSPredicate(format: "%@ == %@", key, value)
        print(try fetchLine(broken, in: context))
        // ANCHOR_END: broken-key
        // ANCHOR: fixed-key
        let fixed = NSPredicate(format: "%K == %@", key, value)
        print(try fetchLine(fixed, in: context))
        // ANCHOR_END: fixed-key
    }
}

enum Arguments {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try SampleData.peopleContext(bench)
        // ANCHOR: arguments
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withFullDate]
        let cutoff = dates.date(from: "1968-05-07")!
        let byName = NSPredicate(format: "name == %@", "Joe")
        let byAge = NSPredicate(format: "age > %@", 40 as NSNumber)
        let byBirthday = NSPredicate(format: "birthday < %@", cutoff as NSDate)
        let withQuote = NSPredicate(format: "name == %@", "O'Brien \"Bob\"")
        for predicate in [byName, byAge, byBirthday, withQuote] {
            print(try fetchLine(predicate, in: context))
        }
        // ANCHOR_END: arguments
        print(
            "(1968-05-07, midnight UTC, is \(Int(cutoff.timeIntervalSinceReferenceDate)) seconds from 1 January 2001.)")
        // ANCHOR: printf
        let printf = NSPredicate(format: "age > %d AND age < %d", 18, 21)
        print(try fetchLine(printf, in: context))
        // ANCHOR_END: printf
        // ANCHOR: quotes-stop-substitution
        do {
            _ = try NSPredicate(checkedFormat: "name == '%@'", "Joe")
        } catch {
            print("Quoting %@ yourself: \(error)")
        }
        // ANCHOR_END: quotes-stop-substitution
    }
}
