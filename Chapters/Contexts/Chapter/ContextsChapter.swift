import CoreData
import WorkbookSupport

/// Chapter 6: contexts and concurrency, after Apple's "Using Core Data in the background" and
/// the "Concurrency" part of NSManagedObjectContext's reference.
public enum ContextsChapter: Chapter {
    /// The executable's and the book page's name.
    public static let name = "contexts"
    /// The chapter's title.
    public static let title = "Chapter 6: Contexts and concurrency"

    /// The sections, in the book's order.
    public static let sections: [ChapterSection] = [
        ChapterSection(
            "the-stack", "The stack an application uses: a view context and background contexts", run: TheStack.run),
        ChapterSection("perform", "perform and performAndWait: work on a context's queue", run: Performing.run),
        ChapterSection("scratch-pad", "A child context as a scratch pad: saved, or thrown away", run: ScratchPad.run),
        ChapterSection("merging", "Merging what another context saved", run: Merging.run),
        ChapterSection("off-queue", "A context used off its queue: the debug check", run: OffQueue.run),
    ]

    /// The chapter's model, for its diagram.
    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "library": ContextsModels.library
    ]

    /// The stack of contexts the chapter makes, drawn from its code.
    public static let diagrams: [String: @Sendable () throws -> String] = [
        "stack": ScratchPad.stackDiagram
    ]
}
