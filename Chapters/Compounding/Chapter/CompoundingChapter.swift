import CoreData
import WorkbookSupport

/// Chapter 3: the "Compounding Predicates" part of LaMarche's "Fetch, Clarus, Fetch", checked
/// against Apple's NSCompoundPredicate reference.
public enum CompoundingChapter: Chapter {
    public static let name = "compounding"
    public static let title = "Chapter 3: Compounding predicates"

    public static let sections: [ChapterSection] = [
        ChapterSection("and-or-not", "AND, OR and NOT from arrays of predicates", run: AndOrNot.run),
        ChapterSection("empty", "An AND of nothing, an OR of nothing", run: EmptyCompounds.run),
        ChapterSection("nesting", "Compounds of compounds, and where the parentheses go", run: Nesting.run),
        ChapterSection("keys-and-values", "Matching several keys and values, with AND or OR", run: KeysAndValues.run),
        ChapterSection("not-several", "NOT given several subpredicates", run: NotSeveral.run),
        ChapterSection("precedence", "AND and OR in one format string", run: Precedence.run),
        ChapterSection("compound-sql", "A compound predicate in SQL", run: CompoundSQL.run),
    ]

    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "bookstore": CompoundingModels.bookstore
    ]
}
