import CoreData
import WorkbookSupport

/// Chapter 5: the custom-migration part of Marcus Zarra's "Core Data Versioning" (MacTech,
/// 2009): mapping models, the three passes of a migration manager, a migration policy of our
/// own (his Listing 12), what the listing gets wrong, and a progressive migration to a third
/// version that needs a policy again.
public enum MigrationPoliciesChapter: Chapter {
    public static let name = "migration-policies"
    public static let title = "Chapter 5: Mapping models and migration policies"

    public static let sections: [ChapterSection] = [
        ChapterSection("default-mapping", "The mapping model Xcode creates", run: DefaultMapping.run),
        ChapterSection("value-expressions", "Value expressions, evaluated", run: ValueExpressions.run),
        ChapterSection("listing-12", "Listing 12: a policy of our own, pass by pass", run: ListingTwelve.run),
        ChapterSection("listing-12-sqlite", "Listing 12 between SQLite stores", run: ListingTwelveSQLite.run),
        ChapterSection(
            "listing-12-errors", "What Listing 12 gets wrong: a string in a Boolean", run: ListingTwelveErrors.run),
        ChapterSection("version-3", "Version 3: what inference would lose", run: VersionThree.run),
        ChapterSection("progressive", "A progressive migration, one step at a time", run: Progressive.run),
    ]

    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "todo-1": ToDoModels.version1,
        "todo-2": ToDoModels.version2,
        "todo-3": PolicyModels.version3,
    ]
}
