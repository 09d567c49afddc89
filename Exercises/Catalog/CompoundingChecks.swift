import CompoundingChapter
import ObjectGraph
import WorkbookSupport

/// How the chapter 3 exercises are judged: each check builds a fresh bookstore with known
/// books, calls an implementation, and explains any difference from what Core Data would
/// return, in terms of the chapter.
public enum CompoundingChecks {
    typealias Book = (title: String, publisher: String?, salesRank: Int)

    /// A context on a new store holding these books and their publishers.
    static func bookstore(_ books: [Book]) throws -> (Workbench, ManagedObjectContext) {
        let bench = Workbench { _ in }
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        var publishers: [String: ManagedObject] = [:]
        for name in Set(books.compactMap(\.publisher)).sorted() {
            let publisher = try context.insertNewObject(forEntityName: "Publisher")
            try publisher.checkedSetValue(name, forKey: "name")
            publishers[name] = publisher
        }
        for book in books {
            let object = try context.insertNewObject(forEntityName: "Book")
            try object.checkedSetValue(book.title, forKey: "title")
            try object.checkedSetValue("Anon", forKey: "author")
            try object.checkedSetValue(book.salesRank, forKey: "salesRank")
            try object.checkedSetValue(book.publisher.flatMap { publishers[$0] }, forKey: "publisher")
        }
        try context.save()
        // The workbench deletes the store's folder when it goes, so it travels with the context.
        return (bench, context)
    }

    static func titles(_ books: [ManagedObject]) throws -> [String] {
        try books.map { try $0.checkedValue(forKey: "title") as? String ?? "?" }.sorted()
    }

    static func show(_ titles: [String]) -> String {
        titles.isEmpty ? "no books" : titles.joined(separator: ", ")
    }

    public static func booksFromAnyOf(_ attempt: ([String], ManagedObjectContext) throws -> [ManagedObject]) -> Verdict
    {
        judge {
            let (bench, context) = try bookstore([
                ("Atlas", "BookCo", 10), ("Breeze", "Clarus Press", 20), ("Canto", "Moof Media", 30),
                ("Drift", nil, 40), ("Ember", "BookCo", 50),
            ])
            defer { withExtendedLifetime(bench) {} }
            var problems: [String] = []
            let cases: [([String], [String])] = [
                (["BookCo", "Moof Media"], ["Atlas", "Canto", "Ember"]),
                (["Clarus Press"], ["Breeze"]),
                (["Nobody"], []),
                ([], []),
            ]
            for (names, expected) in cases {
                let got = try titles(attempt(names, context))
                guard got != expected else { continue }
                if names.isEmpty {
                    problems.append(
                        "With no publisher names you returned \(show(got)). No book is from any of no publishers: an OR of no subpredicates is FALSEPREDICATE, so NSCompoundPredicate(orPredicateWithSubpredicates: []) finds nothing, as it should."
                    )
                } else if names.count > 1 && got.isEmpty {
                    problems.append(
                        "For \(names) you returned no books. A book has one publisher, so it cannot match both names at once: combine the comparisons with orPredicateWithSubpredicates:, not andPredicateWithSubpredicates:."
                    )
                } else {
                    problems.append(
                        "For \(names) you returned \(show(got)), but the books from any of those publishers are \(show(expected))."
                    )
                }
            }
            return problems
        }
    }

    public static func bestsellers(_ attempt: (Int, String, ManagedObjectContext) throws -> [ManagedObject]) -> Verdict
    {
        judge {
            let (bench, context) = try bookstore([
                ("Atlas", "BookCo", 10), ("Breeze", "Clarus Press", 20), ("Canto", nil, 5),
                ("Drift", "Moof Media", 5_000), ("Ember", "BookCo", 50_000),
            ])
            defer { withExtendedLifetime(bench) {} }
            var problems: [String] = []
            for (rank, publisher, expected) in [
                (1_000, "BookCo", ["Breeze", "Canto"]), (5_000, "Clarus Press", ["Atlas", "Canto"]),
            ] {
                let got = try titles(attempt(rank, publisher, context))
                guard got != expected else { continue }
                var why: [String] = []
                if expected.contains("Canto") && !got.contains("Canto") {
                    why.append(
                        "Canto has no publisher, so it is not published by \(publisher) either: NOT publisher.name == %@ is true for it"
                    )
                }
                if got.contains("Drift") {
                    why.append(
                        "Drift ranks exactly \(5_000), which is not better than \(rank): use salesRank < %@, not <=")
                }
                if got.contains(where: { ["Atlas", "Ember"].contains($0) }) && publisher == "BookCo" {
                    why.append(
                        "you kept books published by BookCo; wrap that comparison in NSCompoundPredicate(notPredicateWithSubpredicate:)"
                    )
                }
                problems.append(
                    "For rank \(rank), not from \(publisher), you returned \(show(got)), but the answer is \(show(expected))."
                        + (why.isEmpty ? "" : " " + why.joined(separator: "; ") + "."))
            }
            return problems
        }
    }

    public static func predicatePublishedByEither(_ attempt: (String, String, Int) throws -> ObjectGraph.Predicate)
        -> Verdict
    {
        judge {
            let (bench, context) = try bookstore([
                ("Atlas", "BookCo", 10), ("Breeze", "BookCo", 900_000), ("Canto", "Clarus Press", 20),
                ("Drift", "Clarus Press", 900_000), ("Ember", "Moof Media", 5), ("Fable", nil, 1),
            ])
            defer { withExtendedLifetime(bench) {} }
            var problems: [String] = []
            let cases: [(String, String, Int, [String], [String])] = [
                ("BookCo", "Clarus Press", 1_000, ["Atlas", "Canto"], ["Atlas", "Breeze", "Canto"]),
                ("Moof Media", "BookCo", 100, ["Atlas", "Ember"], ["Atlas", "Ember"]),
            ]
            for (first, second, rank, expected, unbracketed) in cases {
                let predicate = try attempt(first, second, rank)
                let request = FetchRequest(entityName: "Book")
                request.predicate = predicate
                let got = try titles(context.fetch(request))
                guard got != expected else { continue }
                if got == unbracketed {
                    problems.append(
                        "For \(first) or \(second), ranked better than \(rank), you found \(show(got)): Breeze ranks \(900_000) but came back anyway. Your predicate is read as \(predicate.predicateFormat), because AND binds tighter than OR. Put parentheses around the OR."
                    )
                } else {
                    problems.append(
                        "For \(first) or \(second), ranked better than \(rank), your predicate \(predicate.predicateFormat) found \(show(got)), but the answer is \(show(expected))."
                    )
                }
            }
            return problems
        }
    }

    public static func booksMatchingNoneOf(
        _ attempt: ([ObjectGraph.Predicate], ManagedObjectContext) throws -> [ManagedObject]
    ) -> Verdict {
        judge {
            let (bench, context) = try bookstore([
                ("Atlas", "BookCo", 10), ("Breeze", "BookCo", 5_000), ("Canto", "Clarus Press", 50),
                ("Drift", "Clarus Press", 5_000), ("Ember", nil, 7), ("Fable", nil, 90_000),
            ])
            defer { withExtendedLifetime(bench) {} }
            let fromBookCo = try Predicate(checkedFormat: "publisher.name == 'BookCo'")
            let bestseller = try Predicate(checkedFormat: "salesRank < 100")
            var problems: [String] = []
            let got = try titles(attempt([fromBookCo, bestseller], context))
            let expected = ["Drift", "Fable"]
            if got == ["Canto", "Drift", "Ember", "Fable"] {
                problems.append(
                    "You returned \(show(got)): only the first predicate counted. A NOT given several subpredicates looks only at the first (and prints them as `a NOT b`). Put the predicates in one NSCompoundPredicate(orPredicateWithSubpredicates:) and negate that."
                )
            } else if got == ["Breeze", "Canto", "Drift", "Ember", "Fable"] {
                problems.append(
                    "You returned \(show(got)), the books that fail at least one predicate. None of them means failing every one: NOT (a OR b), not NOT (a AND b)."
                )
            } else if got != expected {
                problems.append(
                    "For \(fromBookCo.predicateFormat) and \(bestseller.predicateFormat) you returned \(show(got)), but the books matching neither are \(show(expected))."
                )
            }
            let single = try titles(attempt([bestseller], context))
            if single != ["Breeze", "Drift", "Fable"] {
                problems.append(
                    "For the one predicate \(bestseller.predicateFormat) you returned \(show(single)), but the books not matching it are Breeze, Drift, Fable."
                )
            }
            do {
                let none = try titles(attempt([], context))
                if none.count != 6 {
                    problems.append(
                        "With no predicates you returned \(show(none)). Every book matches none of no predicates, so return all 6: an OR of nothing is FALSEPREDICATE, and its NOT is true."
                    )
                }
            } catch is NotSolvedYet {
                throw NotSolvedYet()
            } catch {
                problems.append(
                    "With no predicates your code threw: \(error). A NOT needs exactly one subpredicate: give it the OR of the predicates, which is FALSEPREDICATE when there are none."
                )
            }
            return problems
        }
    }
}
