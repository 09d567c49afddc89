import ObjectGraph
import Testing
import WorkbookSupport

@testable import CompoundingChapter

// Every behaviour the compounding chapter states, asserted through the API (the book test
// checks the printed outputs). Each test names the text it comes from:
//   LaMarche, "Fetch, Clarus, Fetch" (MacTech, 2005), the part "Compounding Predicates";
//   Apple, NSCompoundPredicate: https://developer.apple.com/documentation/foundation/nscompoundpredicate
//   Apple, Predicate Programming Guide, "Predicate Format String Syntax", "Basic Compound Predicates":
//     https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pSyntax.html
//   reference/predicates.md, sections 1.9, 2.12 and 3.1, for what Apple's documentation leaves out.
@Suite struct CompoundingChapterTests {
    let bench = Workbench { _ in }

    func bookstore() throws -> (ManagedObjectContext, [ManagedObject]) {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        return (context, try SampleData.insertBookstore(into: context))
    }

    /// The titles a fetch with this predicate returns, sorted.
    func fetched(_ predicate: ObjectGraph.Predicate, in context: ManagedObjectContext) throws -> [String] {
        let request = FetchRequest(entityName: "Book")
        request.predicate = predicate
        return try SampleData.titles(context.fetch(request))
    }

    /// The titles of the books the predicate holds for, evaluated in memory, sorted.
    func evaluated(_ predicate: ObjectGraph.Predicate, on books: [ManagedObject]) throws -> [String] {
        try SampleData.titles(books.filter { try predicate.checkedEvaluate(with: $0) })
    }

    var fromBookCo: ObjectGraph.Predicate {
        get throws { try Predicate(checkedFormat: "publisher.name == %@", "BookCo") }
    }
    var bestseller: ObjectGraph.Predicate { get throws { try Predicate(checkedFormat: "salesRank < %@", 10_000) } }

    // LaMarche, "Compounding Predicates", and Apple, NSCompoundPredicate: andPredicateWithSubpredicates:,
    // orPredicateWithSubpredicates: and notPredicateWithSubpredicate: build AND, OR and NOT; "a
    // compound predicate with one or more subpredicates evaluates to the truth of its subpredicates".
    @Test func andOrAndNotCombineTheirSubpredicates() throws {
        let (context, books) = try bookstore()
        let both = Predicate.and([try fromBookCo, try bestseller])
        let either = Predicate.or([try fromBookCo, try bestseller])
        let notBookCo = Predicate.not(try fromBookCo)
        #expect(try fetched(both, in: context) == ["Cocoa Recipes"])
        #expect(
            try fetched(either, in: context) == [
                "Cocoa Recipes", "Moof!", "Predicates in Practice", "The Object Graph", "Unpublished Thoughts",
            ])
        #expect(
            try fetched(notBookCo, in: context) == ["Dogcow Diaries", "Predicates in Practice", "Unpublished Thoughts"])
        // The same answers in memory as in SQL.
        for p in [both, either, notBookCo] { #expect(try evaluated(p, on: books) == fetched(p, in: context)) }
        #expect(both.predicateFormat == #"publisher.name == "BookCo" AND salesRank < 10000"#)
        #expect(either.predicateFormat == #"publisher.name == "BookCo" OR salesRank < 10000"#)
        #expect(notBookCo.predicateFormat == #"NOT publisher.name == "BookCo""#)
    }

    // Apple, NSCompoundPredicate, init(type:subpredicates:): the designated initializer builds the
    // same predicate as the class methods.
    @Test func theInitializerWithATypeBuildsTheSamePredicate() throws {
        let same = Predicate.compound(
            try CompoundPredicate(type: .and, subpredicates: [try fromBookCo, try bestseller]))
        #expect(same == Predicate.and([try fromBookCo, try bestseller]))
        let or = Predicate.compound(try CompoundPredicate(type: .or, subpredicates: [try fromBookCo, try bestseller]))
        #expect(or == Predicate.or([try fromBookCo, try bestseller]))
        #expect(
            Predicate.compound(try CompoundPredicate(type: .not, subpredicates: [try fromBookCo]))
                == .not(try fromBookCo))
    }

    // Apple, NSCompoundPredicate: "An AND predicate with no subpredicates evaluates to true. An OR
    // predicate with no subpredicates evaluates to false." They print TRUEPREDICATE and
    // FALSEPREDICATE (reference 3.1 rule 15), and a fetch with them returns every book and none.
    @Test func anEmptyAndIsTrueAndAnEmptyOrIsFalse() throws {
        let (context, _) = try bookstore()
        #expect(try Predicate.and([]).checkedEvaluate(with: nil))
        #expect(try !Predicate.or([]).checkedEvaluate(with: nil))
        #expect(Predicate.and([]).predicateFormat == "TRUEPREDICATE")
        #expect(Predicate.or([]).predicateFormat == "FALSEPREDICATE")
        #expect(try fetched(.and([]), in: context).count == SampleData.books.count)
        #expect(try fetched(.or([]), in: context).isEmpty)
    }

    // Reference 3.1 rule 15: an AND or OR of one subpredicate prints just that subpredicate, and
    // (Apple, NSCompoundPredicate) evaluates to its truth.
    @Test func aCompoundOfOneIsThatSubpredicate() throws {
        let (context, _) = try bookstore()
        let clarus = try Predicate(checkedFormat: "author == %@", "Clarus")
        #expect(Predicate.and([clarus]).predicateFormat == #"author == "Clarus""#)
        #expect(Predicate.or([clarus]).predicateFormat == #"author == "Clarus""#)
        #expect(try fetched(.and([clarus]), in: context) == fetched(clarus, in: context))
    }

    // Reference 3.1 rules 14, 16 and 19 (Apple's printed output, observed): a compound
    // subpredicate is printed in parentheses, even one of the same type; a comparison never is;
    // NOT of a compound parenthesises it; the parentheses typed in a format string are not kept.
    @Test func compoundSubpredicatesArePrintedInParentheses() throws {
        let (context, _) = try bookstore()
        let byClarusOrAnn = Predicate.or([
            try Predicate(checkedFormat: "author == 'Clarus'"), try Predicate(checkedFormat: "author == 'Ann Kay'"),
        ])
        let nested = Predicate.and([try fromBookCo, byClarusOrAnn])
        #expect(
            nested.predicateFormat == #"publisher.name == "BookCo" AND (author == "Clarus" OR author == "Ann Kay")"#)
        #expect(try fetched(nested, in: context) == ["Cocoa Recipes", "Moof!"])
        #expect(
            Predicate.not(nested).predicateFormat
                == #"NOT (publisher.name == "BookCo" AND (author == "Clarus" OR author == "Ann Kay"))"#)
        let andInsideAnd = Predicate.and([.and([try fromBookCo, try bestseller]), byClarusOrAnn])
        #expect(andInsideAnd.predicateFormat.hasPrefix(#"(publisher.name == "BookCo" AND salesRank < 10000) AND ("#))
        let overBracketed = try Predicate(checkedFormat: "((publisher.name == 'BookCo')) AND ((salesRank < 10000))")
        #expect(overBracketed.predicateFormat == #"publisher.name == "BookCo" AND salesRank < 10000"#)
    }

    // Reference 1.9 (Apple's printed output, observed by objc.io): a chain of one operator in a
    // format string is one compound predicate with every operand, printed without parentheses.
    @Test func aChainOfOneOperatorIsOneCompound() throws {
        let chain = try Predicate(
            checkedFormat: "publisher.name == 'BookCo' AND salesRank < 10000 AND author == 'Ann Kay'")
        guard case .compound(let compound) = chain else {
            Issue.record("not a compound")
            return
        }
        #expect(compound.compoundPredicateType == .and)
        #expect(compound.subpredicates.count == 3)
        #expect(!chain.predicateFormat.contains("("))
    }

    // LaMarche, "Compounding Predicates": MTCDUtilities objectsForEntityNamed:matchingKeysAndValues:
    // usingOR:inContext:, on the article's example (publisher BookCo, sales rank 482769): OR finds
    // the books matching either pair, AND those matching both; the predicate is a compound of
    // `%K == %@` comparisons in the order the pairs are given.
    @Test func matchingKeysAndValuesWithOrAndWithAnd() throws {
        let (context, _) = try bookstore()
        let pairs: KeyValuePairs<String, Any?> = ["publisher.name": "BookCo", "salesRank": 482_769]
        let either = try FetchUtilities.objects(
            forEntityNamed: "Book", matchingKeysAndValues: pairs, usingOR: true, in: context)
        let both = try FetchUtilities.objects(
            forEntityNamed: "Book", matchingKeysAndValues: pairs, usingOR: false, in: context)
        #expect(try SampleData.titles(either) == ["Cocoa Recipes", "Dogcow Diaries", "Moof!", "The Object Graph"])
        #expect(try SampleData.titles(both) == ["Moof!"])
        #expect(
            try FetchUtilities.predicate(matchingKeysAndValues: pairs, usingOR: true).predicateFormat
                == #"publisher.name == "BookCo" OR salesRank == 482769"#)
        #expect(
            try FetchUtilities.predicate(
                matchingKeysAndValues: ["salesRank": 482_769, "publisher.name": "BookCo"], usingOR: false
            ).predicateFormat
                == #"salesRank == 482769 AND publisher.name == "BookCo""#)
        // No pairs: an OR of nothing finds nothing, an AND of nothing finds everything.
        #expect(
            try FetchUtilities.objects(forEntityNamed: "Book", matchingKeysAndValues: [:], usingOR: true, in: context)
                .isEmpty)
        #expect(
            try FetchUtilities.objects(forEntityNamed: "Book", matchingKeysAndValues: [:], usingOR: false, in: context)
                .count == SampleData.books.count)
    }

    // Apple, NSCompoundPredicate: NOT is "the NOT of a single predicate". Given several
    // subpredicates, Foundation (and swift-corelibs-foundation) evaluates only the first and
    // prints them joined by NOT, a string that does not parse (reference 2.12, 3.1 rule 17).
    @Test func aNotOfSeveralSubpredicatesLooksOnlyAtTheFirst() throws {
        let (context, books) = try bookstore()
        let notEither = Predicate.compound(
            try CompoundPredicate(type: .not, subpredicates: [try fromBookCo, try bestseller]))
        #expect(try fetched(notEither, in: context) == fetched(.not(try fromBookCo), in: context))
        #expect(try evaluated(notEither, on: books) == evaluated(.not(try fromBookCo), on: books))
        #expect(try fetched(.not(.or([try fromBookCo, try bestseller])), in: context) == ["Dogcow Diaries"])
        #expect(notEither.predicateFormat == #"publisher.name == "BookCo" NOT salesRank < 10000"#)
        let error = #expect(throws: PredicateError.self) { _ = try Predicate(checkedFormat: notEither.predicateFormat) }
        #expect(error?.code == .unparseable)
        // And a NOT of nothing is refused (Foundation raises NSInvalidArgumentException).
        #expect(throws: PredicateError.self) { _ = try CompoundPredicate(type: .not, subpredicates: []) }
    }

    // Apple's "Basic Compound Predicates" lists AND, OR and NOT but not their precedence;
    // reference 1.9: NOT binds tightest, then AND, then OR, as in C. So `a OR b AND c` is
    // `a OR (b AND c)`, which finds different books from `(a OR b) AND c`.
    @Test func andBindsTighterThanOr() throws {
        let (context, _) = try bookstore()
        let unbracketed = try Predicate(
            checkedFormat: "publisher.name == 'BookCo' OR salesRank < 1000 AND author == 'Ann Kay'")
        let bracketed = try Predicate(
            checkedFormat: "(publisher.name == 'BookCo' OR salesRank < 1000) AND author == 'Ann Kay'")
        #expect(
            unbracketed.predicateFormat == #"publisher.name == "BookCo" OR (salesRank < 1000 AND author == "Ann Kay")"#)
        #expect(
            bracketed.predicateFormat == #"(publisher.name == "BookCo" OR salesRank < 1000) AND author == "Ann Kay""#)
        #expect(
            try fetched(unbracketed, in: context) == [
                "Cocoa Recipes", "Moof!", "Predicates in Practice", "The Object Graph",
            ])
        #expect(try fetched(bracketed, in: context) == ["Cocoa Recipes", "Predicates in Practice"])
        // The explicit grouping parses to the same tree as the unbracketed string.
        #expect(
            try Predicate(checkedFormat: "publisher.name == 'BookCo' OR (salesRank < 1000 AND author == 'Ann Kay')")
                == unbracketed)
        // AND before OR whichever comes first in the string.
        #expect(
            try Predicate(checkedFormat: "salesRank < 1000 AND author == 'Ann Kay' OR publisher.name == 'BookCo'")
                .predicateFormat
                == #"(salesRank < 1000 AND author == "Ann Kay") OR publisher.name == "BookCo""#)
        let notFirst = try Predicate(checkedFormat: "NOT publisher.name == 'BookCo' AND salesRank < 1000")
        #expect(notFirst.predicateFormat == #"(NOT publisher.name == "BookCo") AND salesRank < 1000"#)
        #expect(try fetched(notFirst, in: context) == ["Predicates in Practice", "Unpublished Thoughts"])
    }

    // Apple, "Fetching Managed Objects": the SQLite store runs the predicate as SQL. The compound
    // becomes nested AND, OR and NOT in the WHERE clause, the to-one key path a join, and the
    // answer is the one the in-memory evaluation gives.
    @Test func aCompoundFetchRunsAsOneSQLStatement() throws {
        let section = try ChapterRunner.section(named: "compound-sql", in: CompoundingChapter.self)
        let output = try ChapterRunner.output(of: section, showingSQL: true)
        let selects = output.split(separator: "\n").filter { $0.contains("CoreData: sql: SELECT") }
        #expect(selects.count == 1)
        let sql = String(selects.first ?? "")
        #expect(sql.contains("JOIN ZPUBLISHER"))
        #expect(sql.contains(" OR ") && sql.contains(") AND (NOT ("))
        let (context, books) = try bookstore()
        let predicate = try Predicate(
            checkedFormat: "(author == %@ OR salesRank < %@) AND NOT publisher.name == %@", "Ann Kay", 1_000, "BookCo")
        #expect(try fetched(predicate, in: context) == evaluated(predicate, on: books))
        // Unpublished Thoughts has no publisher row, so its joined name is NULL: it stays.
        #expect(try fetched(predicate, in: context) == ["Predicates in Practice", "Unpublished Thoughts"])
    }

    // Apple, Predicate Programming Guide, "Using Null Values": "A comparison predicate does not
    // match any value with null except null (nil) or the NSNull null value." So a book with no
    // publisher is not from BookCo, and NOT of that comparison holds for it, in SQL as in memory.
    @Test func aBookWithNoPublisherIsNotFromBookCo() throws {
        let (context, books) = try bookstore()
        #expect(try fetched(.not(try fromBookCo), in: context).contains("Unpublished Thoughts"))
        #expect(try evaluated(.not(try fromBookCo), on: books).contains("Unpublished Thoughts"))
    }

    // The chapter's output is the same bytes on every run.
    @Test func theChapterPrintsTheSameOnEveryRun() throws {
        var first: [String] = []
        var second: [String] = []
        try ChapterRunner.run(CompoundingChapter.self, sections: [], showingSQL: true) { first.append($0) }
        try ChapterRunner.run(CompoundingChapter.self, sections: [], showingSQL: true) { second.append($0) }
        #expect(first == second)
        #expect(!first.joined().contains("/tmp"))
    }

    @Test(.enabled(if: Executables.url("compounding") != nil, "built by `swift build --build-tests`"))
    func theExecutableListsItsSections() throws {
        let result = try Executables.run("compounding", ["--list"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("and-or-not"))
        #expect(result.output.contains("compound-sql"))
        let one = try Executables.run("compounding", ["--section", "precedence"])
        #expect(one.output.contains(#"publisher.name == "BookCo" OR (salesRank < 1000 AND author == "Ann Kay")"#))
    }
}
