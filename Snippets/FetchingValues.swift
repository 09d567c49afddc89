// Dictionary results: chosen columns, distinct values, computed columns with expression
// descriptions, groups with a having predicate, a request of any result type, and an aggregate
// the store refuses.
//
// Everything is Apple's: an expression description is set up property by property and goes into
// propertiesToFetch beside property names.
import CoreData

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-values-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let model = try NSManagedObjectModel {
    NSEntityDescription("Book") {
        NSAttributeDescription("title", .string, optional: false)
        NSAttributeDescription("author", .string)
        NSAttributeDescription("salesRank", .integer32)
    }
}
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("Books.sqlite"))
let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType) // used on the main thread
context.persistentStoreCoordinator = coordinator
for (title, author, rank) in [
    ("Fetch, Clarus, Fetch", "LaMarche", 192), ("Core Data by Example", "Zarra", 2_310),
    ("Predicates in Practice", "Zarra", 87), ("The Object Graph", "Eggert", 1_204),
] {
    let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
    book.setValue(title, forKey: "title")
    book.setValue(author, forKey: "author")
    book.setValue(rank, forKey: "salesRank")
}
try context.save()
// snippet.show
// snippet.distinct
let authors = NSFetchRequest<NSDictionary>(entityName: "Book")
authors.resultType = .dictionaryResultType
authors.propertiesToFetch = ["author"]
authors.returnsDistinctResults = true
authors.sortDescriptors = [NSSortDescriptor(key: "author", ascending: true)]
for row in try context.fetch(authors) {
    print(row["author"] as! String) // Eggert, LaMarche, Zarra
}
// snippet.end

// snippet.expression
let best = NSFetchRequest<NSDictionary>(entityName: "Book")
best.resultType = .dictionaryResultType
let bestRank = NSExpressionDescription()
bestRank.name = "bestRank"
bestRank.expression = NSExpression(format: "min:(salesRank)")
bestRank.expressionResultType = .integer32AttributeType
best.propertiesToFetch = [bestRank]
print(try context.fetch(best).first?["bestRank"] ?? "none") // 87
// snippet.end

// snippet.groups
let perAuthor = NSFetchRequest<NSDictionary>(entityName: "Book")
perAuthor.resultType = .dictionaryResultType
let books = NSExpressionDescription()
books.name = "books"
books.expression = NSExpression(format: "count:(title)")
books.expressionResultType = .integer64AttributeType
perAuthor.propertiesToFetch = ["author", books]
perAuthor.propertiesToGroupBy = ["author"]
perAuthor.havingPredicate = NSPredicate(format: "books > 1")
for row in try context.fetch(perAuthor) {
    print(row["author"] ?? "-", row["books"] ?? 0) // Zarra 2
}
// snippet.end

// snippet.execute
let counting = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
counting.resultType = .countResultType
counting.predicate = NSPredicate(format: "author == %@", "Zarra")
print(try context.fetch(counting).first as? NSNumber ?? 0) // 2
// snippet.end

// snippet.errors
let median = NSFetchRequest<NSDictionary>(entityName: "Book")
median.resultType = .dictionaryResultType
let middle = NSExpressionDescription()
middle.name = "middle"
middle.expression = NSExpression(format: "median:(salesRank)")
middle.expressionResultType = .doubleAttributeType
median.propertiesToFetch = [middle]
do {
    _ = try context.fetch(median)
} catch {
    // On a Mac, Core Data raises this as an exception, which stops the program; here the fetch
    // throws it, as a CoreDataError that names the exception.
    print(error)
    // Core Data exception NSInvalidArgumentException: Unsupported function expression
    // median:(salesRank) in the expression description middle; use count:, sum:, min:, max:
    // or average: of a key path
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
