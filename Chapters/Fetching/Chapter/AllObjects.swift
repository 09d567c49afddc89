import CoreData
import ObjectGraph
import WorkbookSupport

enum AllObjects {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        // ANCHOR: fetch-all
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        let books = try context.fetch(request)
        // ANCHOR_END: fetch-all
        bench.print("The fetch returned \(books.count) books:")
        for book in books { bench.print("  " + Workbench.describe(object: book)) }
    }

    static func runUtility(_ bench: Workbench) throws {
        // The listing prints with `print`, as a reader's code would; here into the output.
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        // ANCHOR: utility
        let books = try FetchUtilities.objects(forEntityNamed: "Book", in: context)
        // ANCHOR_END: utility
        bench.print("FetchUtilities found \(books.count) books.")
        // ANCHOR: utility-error
        do {
            _ = try FetchUtilities.objects(forEntityNamed: "Magazine", in: context)
        } catch {
            print("Asking for an entity the model lacks: \(error)")
        }
        // ANCHOR_END: utility-error
    }
}
