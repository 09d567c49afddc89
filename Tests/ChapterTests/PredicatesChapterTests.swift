import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import PredicatesChapter

private typealias Predicate = ObjectGraph.Predicate

// Every statement of the predicates chapter that a program can check. Sources: LaMarche,
// "Predicates and Format Strings" and "Fetching with Predicates"; Apple, Predicate
// Programming Guide, "Predicate Format String Syntax" and "Creating Predicates".
@Suite struct PredicatesChapterTests {
    let bench = Workbench { _ in }

    func names(_ format: String, _ arguments: Any?..., entity: String = "Person", key: String = "name") throws
        -> [String]
    {
        let context = try SampleData.peopleContext(bench)
        return try fetchNames(
            try Predicate(checkedFormat: format, argumentArray: arguments), entity: entity, key: key, in: context)
    }

    @Test func aFirstPredicateAndOneWithArguments() throws {
        #expect(try names("age <= 21") == ["Mary", "Joe", "bob", "bób"])
        #expect(try names("name == %@ OR name == %@", "Mary", "Joe") == ["Mary", "Joe"])
        #expect(try Predicate(checkedFormat: "age <= 21").checkedEvaluate(with: ["name": "Joe", "age": 21]))
    }

    // LaMarche: an unquoted word is a key path, not a string.
    @Test func anUnquotedWordIsAKeyPath() throws {
        let unquoted = try Predicate(checkedFormat: "name == Bob")
        guard case .comparison(let c) = unquoted else {
            Issue.record("not a comparison")
            return
        }
        #expect(c.rightExpression == .keyPath("Bob"))
        let context = try SampleData.peopleContext(bench)
        let request = FetchRequest(entityName: "Person")
        request.predicate = unquoted
        let error = #expect(throws: CoreDataError.self) { _ = try context.fetch(request) }
        #expect(error?.message == "keypath Bob not found in entity Person")
        #expect(try !unquoted.checkedEvaluate(with: ["name": "Bob"]))
        #expect(try names("name == 'Bob'") == ["Bob"])
        #expect(try names("name == \"Bob\"") == ["Bob"])
    }

    // Apple, "Predicate Format String Syntax": each operator and its other spellings.
    @Test(arguments: [
        ("age == 21", "age = 21"), ("age != 21", "age <> 21"), ("age >= 44", "age => 44"), ("age <= 19", "age =< 19"),
        ("age > 18 AND age < 21", "age > 18 && age < 21"), ("age < 18 OR age > 60", "age < 18 || age > 60"),
        ("NOT age > 20", "!(age > 20)"),
    ])
    func spellingsOfOneOperatorAreTheSamePredicate(_ one: String, _ other: String) throws {
        #expect(try Predicate(checkedFormat: one) == Predicate(checkedFormat: other))
        #expect(try names(one) == names(other))
    }

    @Test func stringOperators() throws {
        #expect(try names("text BEGINSWITH 'wa'", entity: "Word", key: "text") == ["wait", "want"])
        #expect(try names("text CONTAINS 'es'", entity: "Word", key: "text") == ["west"])
        #expect(try names("text ENDSWITH 'at'", entity: "Word", key: "text") == ["what", "swat"])
        // LIKE is a whole-string match with * (any run) and ? (one character).
        #expect(
            try names("text LIKE 'w*t'", entity: "Word", key: "text") == [
                "wet", "wait", "wt", "west", "what", "wit", "want", "w?t",
            ])
        #expect(try names("text LIKE 'w?t'", entity: "Word", key: "text") == ["wet", "wit", "w?t"])
        #expect(try names("text LIKE 'w\\\\?t'", entity: "Word", key: "text") == ["w?t"])
        #expect(try names("text MATCHES %@", "w[aeiou]{2}.*", entity: "Word", key: "text") == ["wait"])
    }

    // Apple: "String comparisons are, by default, case and diacritic sensitive." (Erratum 1.)
    @Test func comparisonsAreCaseAndDiacriticSensitiveByDefault() throws {
        #expect(try names("name == 'bob'") == ["bob"])
        #expect(try names("name ==[c] 'bob'") == ["Bob", "bob", "BOB"])
        // bób is found by [d] alone: the data has a name only diacritic-insensitivity finds.
        #expect(try names("name ==[d] 'bob'") == ["bob", "bób"])
        #expect(try names("name ==[cd] 'bob'") == ["Bob", "bob", "BOB", "Böb", "bób"])
        #expect(try names("name LIKE[cd] 'b?b'") == ["Bob", "bob", "BOB", "Böb", "bób"])
        #expect(try !Predicate(checkedFormat: "'Hello' BEGINSWITH 'he'").checkedEvaluate(with: nil))
    }

    // Erratum 3: %@ makes a value even for a key's name; %K makes a key path.
    @Test func percentAtMakesAValuePercentKAKeyPath() throws {
        let broken = try Predicate(checkedFormat: "%@ == %@", "name", "Mary")
        #expect(broken.predicateFormat == #""name" == "Mary""#)
        #expect(try names("%@ == %@", "name", "Mary").isEmpty)
        let fixed = try Predicate(checkedFormat: "%K == %@", "name", "Mary")
        #expect(fixed.predicateFormat == #"name == "Mary""#)
        #expect(try names("%K == %@", "name", "Mary") == ["Mary"])
    }

    // Apple, "Creating Predicates": arguments are quoted for you; quotes stop substitution.
    @Test func argumentsAreQuotedForYou() throws {
        #expect(
            try Predicate(checkedFormat: "name == %@", "O'Brien \"Bob\"").predicateFormat
                == #"name == "O'Brien \"Bob\"""#)
        #expect(try Predicate(checkedFormat: "age > %@", 40).predicateFormat == "age > 40")
        #expect(
            try Predicate(checkedFormat: "birthday < %@", Date(timeIntervalSinceReferenceDate: -1_030_460_400))
                .predicateFormat
                == #"birthday < CAST(-1030460400.000000, "NSDate")"#)
        let error = #expect(throws: ObjectGraph.PredicateError.self) {
            _ = try Predicate(checkedFormat: "name == '%@'", "Joe")
        }
        #expect(error?.message.contains("1 argument given but the format uses 0") == true)
    }

    // Erratum 2: printf-style specifiers are supported.
    @Test func printfSpecifiersAreSupported() throws {
        #expect(
            try Predicate(checkedFormat: "age > %d AND age < %d", 18, 21).predicateFormat == "age > 18 AND age < 21")
        #expect(try names("age > %d AND age < %d", 18, 21) == ["Mary", "bob"])
        #expect(try Predicate(checkedFormat: "age > %f", 18.5).predicateFormat == "age > 18.5")
        #expect(try Predicate(checkedFormat: "age == %ld", 21) == Predicate(checkedFormat: "age == %i", 21))
    }

    // Erratum 4 and LaMarche's single-object utility: one object or nil; several is an error.
    @Test func theBookWithId192IsOneObjectOrNil() throws {
        let context = try SampleData.bookContext(bench)
        let book = try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 192, in: context)
        #expect(try book?.checkedValue(forKey: "title") as? String == "Fetch, Clarus, Fetch")
        #expect(try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 999, in: context) == nil)
        let error = #expect(throws: FetchUtilities.TooManyEntitiesReturned.self) {
            _ = try FetchUtilities.object(
                forEntityNamed: "Book", matchingKey: "publisher", value: "BookCo", in: context)
        }
        #expect(error?.count == 2)
        #expect(
            try FetchUtilities.objects(forEntityNamed: "Book", matchingKey: "publisher", value: "BookCo", in: context)
                .count == 2)
        // A string never equals a number.
        #expect(
            try FetchUtilities.objects(forEntityNamed: "Book", matchingKey: "id", value: "192", in: context).isEmpty)
    }

    // The sample people's birthdays, spelled as dates in their listing, all arrive in the
    // store (a date that failed to parse would be nil), at midnight UTC.
    @Test func everyPersonHasTheBirthdayOfTheListing() throws {
        let context = try SampleData.peopleContext(bench)
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        #expect(people.count == SampleData.people.count)
        let dates = ISO8601DateFormatter()
        for person in people {
            let name = try #require(person.checkedValue(forKey: "name") as? String)
            let listed = try #require(SampleData.people.first { $0.name == name })
            let birthday = try #require(person.checkedValue(forKey: "birthday") as? Date, "\(name) has no birthday")
            #expect(birthday == dates.date(from: listed.birthday + "T00:00:00Z"), "\(name)")
        }
        #expect(try names("birthday < %@", dates.date(from: "1968-05-07T00:00:00Z")) == ["BOB", "Böb", "Anne"])
    }

    // fetchLine, the chapter's one line of output: predicateFormat, padded, an arrow, the names.
    @Test func fetchLineShowsThePredicateAndWhatItFound() throws {
        let context = try SampleData.peopleContext(bench)
        #expect(
            try fetchLine(Predicate(checkedFormat: "age > 60"), in: context) == "age > 60"
                + String(repeating: " ", count: 26) + "  → Anne")
        #expect(try fetchLine(Predicate(checkedFormat: "name == 'Nobody'"), in: context).hasSuffix("  → (none)"))
        #expect(
            try fetchLine(Predicate(checkedFormat: "text ENDSWITH 'at'"), entity: "Word", key: "text", in: context)
                .hasSuffix("→ what, swat"))
    }

    // The chapter's claim that every predicate runs inside SQLite.
    @Test func fetchesRunAsSQL() throws {
        var lines: [String] = []
        let workbench = Workbench(showsSQL: true) { lines.append($0) }
        try FetchingWithPredicates.runSQL(workbench)
        let sql = lines.filter { $0.contains("CoreData: sql: SELECT") }
        #expect(sql.count == 6)
        #expect(sql.allSatisfy { $0.contains(" WHERE ") })
        #expect(lines.contains { $0.contains("OG_FOLD") })
    }
}
