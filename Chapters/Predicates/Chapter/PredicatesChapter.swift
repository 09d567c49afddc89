import CoreData
import WorkbookSupport

/// Chapter 2: LaMarche's "Predicates and Format Strings" and "Fetching with Predicates".
public enum PredicatesChapter: Chapter {
    public static let name = "predicates"
    public static let title = "Chapter 2: Predicates and format strings"

    public static let sections: [ChapterSection] = [
        ChapterSection("format-strings", "A first predicate, and one with arguments", run: FormatStrings.run),
        ChapterSection("bob-pitfall", "The Bob pitfall: a word is a key path", run: BobPitfall.run),
        ChapterSection("operators", "The comparison and logical operators", run: Operators.run),
        ChapterSection(
            "string-operators", "BEGINSWITH, CONTAINS, ENDSWITH, LIKE and MATCHES", run: StringOperators.run),
        ChapterSection("case-and-diacritics", "[c], [d] and [cd]: Bob and his cousins", run: CaseAndDiacritics.run),
        ChapterSection("keys-and-values", "%K for keys, %@ for values", run: KeysAndValues.run),
        ChapterSection("arguments", "Strings, numbers and dates as arguments, and %d", run: Arguments.run),
        ChapterSection("fetching", "Fetching with predicates: the utility methods", run: FetchingWithPredicates.run),
        ChapterSection("sql", "What the fetches run in SQLite", run: FetchingWithPredicates.runSQL),
    ]

    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "people": PredicatesModels.people,
        "bookshop": PredicatesModels.bookshop,
    ]
}
