import CoreData
import WorkbookSupport

/// Chapter 7: watching changes, after the reference pages of NSManagedObjectContext's
/// notifications, NSManagedObject's change state, NSFetchedResultsController and undoManager.
public enum ChangesChapter: Chapter {
    /// The executable's and the book page's name.
    public static let name = "changes"
    /// The chapter's title.
    public static let title = "Chapter 7: Watching changes"

    /// The sections, in the book's order.
    public static let sections: [ChapterSection] = [
        ChapterSection(
            "notifications", "Objects did change, did save: what each carries, and when it is posted",
            run: Notifications.run),
        ChapterSection("change-state", "Each object's change state, before and after a save", run: ChangeState.run),
        ChapterSection(
            "fetched-results", "A fetched results controller drives a list: inserts, moves, updates, deletes",
            run: FetchedResults.run),
        ChapterSection("undo", "Undo and redo with a context's undo manager", run: Undoing.run),
    ]

    /// The chapter's model, for its diagram: Zarra's ToDo, version 2.
    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "todo": ToDoModels.version2
    ]
}
