import CoreData
import WorkbookSupport

/// Chapter 1: LaMarche's "Fetch Requests" and Apple's "Fetching Managed Objects".
public enum FetchingChapter: Chapter {
    public static let name = "fetching"
    public static let title = "Chapter 1: Fetching managed objects"

    public static let sections: [ChapterSection] = [
        ChapterSection(
            "first-steps", "First steps: a stack, an object saved, fetched back, and a fault", run: FirstSteps.run),
        ChapterSection("all-books", "Fetching every object of an entity", run: AllObjects.run),
        ChapterSection("fetch-utilities", "A utility for fetching them all", run: AllObjects.runUtility),
        ChapterSection("listing-1", "A predicate and a sort: Apple's Listing 1", run: ListingOne.run),
        ChapterSection(
            "sort-case", "Sorting without regard to case: a sort descriptor's comparator", run: SortingCase.run),
        ChapterSection("fetch-window", "A page of results: fetchLimit and fetchOffset", run: FetchWindow.runWindow),
        ChapterSection("batch-size", "Values a batch at a time: fetchBatchSize", run: FetchWindow.runBatches),
        ChapterSection("self-equals", "Is this object still there? self == %@", run: SpecificObjects.runSelfEquals),
        ChapterSection("self-in", "Are these objects still there? self IN %@", run: SpecificObjects.runSelfIn),
        ChapterSection(
            "specific-values", "Fetching specific values: the highest salary, the first event", run: SpecificValues.run),
        ChapterSection("inheritance", "Fetching and entity inheritance", run: Inheritance.run),
        ChapterSection("transient", "Why a fetch cannot use a transient property", run: Transient.run),
    ]

    public static let models: [String: @Sendable () throws -> NSManagedObjectModel] = [
        "bookshop": FetchingModels.bookshop,
        "company": FetchingModels.company,
        "drawing": FetchingModels.drawing,
    ]
}
