import CoreData
import WorkbookSupport

/// Chapter 8: uniqueness and conflicts, after Apple's reference pages for NSMergePolicy,
/// NSMergeConflict, NSConstraintConflict and NSEntityDescription's uniquenessConstraints.
public enum ConflictsChapter: Chapter {
    /// The executable's and the book page's name.
    public static let name = "conflicts"
    /// The chapter's title.
    public static let title = "Chapter 8: Uniqueness and conflicts"

    /// The sections, in the book's order.
    public static let sections: [ChapterSection] = [
        ChapterSection(
            "uniqueness", "A uniqueness constraint: a duplicate fails, or becomes an update", run: Uniqueness.run),
        ChapterSection(
            "merge-policies", "What each merge policy keeps when two contexts change one book", run: PolicyTable.run),
        ChapterSection(
            "optimistic-locking", "Optimistic locking between two contexts: 133020, then resolved",
            run: OptimisticLocking.run),
        ChapterSection(
            "two-processes", "Optimistic locking between two processes", run: TwoProcesses.run),
    ]

    /// The chapter's model, for its diagram.
    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "shelf": ConflictsModels.shelf
    ]
}
