import CoreData
import WorkbookSupport

/// Chapter 9: batch work and history, after Apple's "Loading and Displaying a Large Data Feed",
/// "Consuming Relevant Store Changes" and the reference pages of the batch requests and of
/// persistent history.
public enum BatchChapter: Chapter {
    /// The executable's and the book page's name.
    public static let name = "batch"
    /// The chapter's title.
    public static let title = "Chapter 9: Batch work and history"

    /// The sections, in the book's order.
    public static let sections: [ChapterSection] = [
        ChapterSection(
            "batch-insert", "A batch insert beside an ordinary save: no objects, no notifications",
            run: BatchInsert.run),
        ChapterSection(
            "batch-update", "A batch update, merged into the view context; no validation", run: BatchUpdate.run),
        ChapterSection(
            "batch-delete", "A batch delete, merged into the view context", run: BatchDelete.run),
        ChapterSection(
            "work-chart", "What each way does to 1,000 quakes: objects, notifications, statements",
            run: WorkChart.run),
        ChapterSection(
            "history", "Persistent history: what another process changed, fetched, merged and purged",
            run: History.run),
    ]

    /// The chapter's model, for its diagram.
    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "quakes": BatchModels.quakes
    ]
}
