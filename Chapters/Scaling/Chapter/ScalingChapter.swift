import CoreData
import WorkbookSupport

/// Chapter 10: scaling out. Zarra's ToDo model on ObjectGraph's PostgreSQL store, which Apple's
/// Core Data does not have: what stays the same as on SQLite, what differs, and several
/// processes writing one store at once, with their conflicts and their history.
public enum ScalingChapter: Chapter {
    /// The executable's and the book page's name.
    public static let name = "scaling"
    /// The chapter's title.
    public static let title = "Chapter 10: Scaling out"

    /// The sections, in the book's order.
    public static let sections: [ChapterSection] = [
        ChapterSection("open-by-url", "The ToDo store on PostgreSQL, opened by URL", run: OpenByURL.run),
        ChapterSection("same-fetches", "The same fetches on SQLite and on PostgreSQL", run: SameFetches.run),
        ChapterSection("several-processes", "Three processes write one store at once", run: SeveralProcesses.run),
        ChapterSection(
            "conflict-across-processes", "Optimistic locking between two processes on one server",
            run: ConflictAcrossProcesses.run),
        ChapterSection(
            "history-across-processes", "Persistent history: what another process saved",
            run: HistoryAcrossProcesses.run),
    ]

    /// The chapter's model, for its diagram.
    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "todo-2": { try ToDoModels.version2() }
    ]

    /// Without a PostgreSQL server the chapter cannot run: why.
    public static var availability: @Sendable () -> String? { { ScalingServer.unavailableReason } }

    /// The fixed UUID of the n-th store a section makes, so that object IDs print the same.
    static func uuid(_ n: Int) -> String { String(format: "5CA11000-0000-4000-8000-%012d", n) }

    /// Removes the container's stores, closing their connections now rather than at exit.
    static func close(_ container: NSPersistentContainer) {
        let coordinator = container.persistentStoreCoordinator
        for store in coordinator.persistentStores { try? coordinator.remove(store) }
    }
}
