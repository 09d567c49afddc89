import CoreData
import WorkbookSupport

enum CompoundSQL {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        // ANCHOR: compound-sql
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(
            format:
                "(author == %@ OR salesRank < %@) AND NOT publisher.name == %@", "Ann Kay", 1_000 as NSNumber, "BookCo")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let books = try context.fetch(request)
        // ANCHOR_END: compound-sql
        bench.print("Predicate: \(request.predicate!.predicateFormat)")
        for book in books { bench.print("  " + (try SampleData.describe(book: book))) }
    }
}
