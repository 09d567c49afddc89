import CoreData
import WorkbookSupport

/// `fetchLimit` and `fetchOffset` (a page of the sorted results), and `fetchBatchSize`
/// (values loaded a batch at a time, on first use).
enum FetchWindow {
    static func runWindow(_ bench: Workbench) throws {
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        // ANCHOR: fetch-window
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "salesRank", ascending: true)]
        request.fetchLimit = 2
        let firstPage = try context.fetch(request)
        request.fetchOffset = 2
        let secondPage = try context.fetch(request)
        request.fetchOffset = 4
        let pastTheEnd = try context.fetch(request)
        // ANCHOR_END: fetch-window
        print("Best sellers, two to a page (fetchLimit = 2):")
        for (page, books) in [
            ("first page, fetchOffset = 0", firstPage), ("second page, fetchOffset = 2", secondPage),
            ("fetchOffset = 4", pastTheEnd),
        ] {
            let titles = books.map { "\($0.value(forKey: "title") ?? "")" }
            print("  \(page): \(titles.isEmpty ? "no books" : titles.joined(separator: "; "))")
        }
    }

    static func runBatches(_ bench: Workbench) throws {
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        // ANCHOR: batch-size
        // A new context, so that no book is in memory before the fetch.
        let reader = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        reader.persistentStoreCoordinator = context.persistentStoreCoordinator
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "salesRank", ascending: true)]
        request.fetchBatchSize = 2
        let books = try reader.fetch(request)
        print("Fetched \(books.count) books; isFault: \(books.map(\.isFault))")
        _ = books[0].value(forKey: "title")
        print("Read the first title;   isFault: \(books.map(\.isFault))")
        _ = books[2].value(forKey: "title")
        print("Read the third title;   isFault: \(books.map(\.isFault))")
        // ANCHOR_END: batch-size
    }
}
