import CoreData
import WorkbookSupport

/// Chapter 4: Marcus Zarra's "Core Data Versioning" (MacTech, 2009): the Core Data stack,
/// the ToDo application's first version and its minute timer, a second model version, and
/// what Core Data does when the model changes under a store full of data.
public enum VersioningChapter: Chapter {
    public static let name = "versioning"
    public static let title = "Chapter 4: Versioning and migration"

    public static let sections: [ChapterSection] = [
        ChapterSection("stack", "The Core Data stack", run: Stack.run),
        ChapterSection("minute-timer", "Version 1 and its minute timer", run: MinuteTimer.run),
        ChapterSection("model-versions", "Version 2, in an .xcdatamodeld", run: ModelVersions.run),
        ChapterSection("incompatible", "The old store and the new model", run: Incompatible.run),
        ChapterSection("automatic-migration", "Automatic migration", run: AutomaticMigration.run),
        ChapterSection("schema-diff", "What migration did to the SQLite tables", run: SchemaDiff.run),
        ChapterSection("alert-once", "Listing 11: alert once", run: AlertOnce.run),
        ChapterSection("fixture-stores", "Stores from version 1, migrated", run: FixtureStores.run),
    ]

    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "todo-1": ToDoModels.version1,
        "todo-2": ToDoModels.version2,
    ]
}
