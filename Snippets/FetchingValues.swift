// Dictionary results: chosen columns, distinct values, computed columns with expression
// descriptions, groups with a having predicate, and an aggregate the store refuses.
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
let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType, coordinator: coordinator)
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
let authors = NSFetchRequest<NSManagedObject>(entityName: "Book")
authors.resultType = .dictionary
authors.propertiesToFetch = [.named("author")]
authors.returnsDistinctResults = true
authors.sortDescriptors = [NSSortDescriptor(key: "author")]
for row in try context.fetchDictionaries(authors) {
    print(row["author"] as! String)               // Eggert, LaMarche, Zarra
}
// snippet.end

// snippet.expression
let best = NSFetchRequest<NSManagedObject>(entityName: "Book")
best.resultType = .dictionary
best.propertiesToFetch = [.expression(NSExpressionDescription(
    name: "bestRank", expression: NSExpression(format: "min:(salesRank)"), resultType: .integer32))]
print(try context.fetchDictionaries(best))        // [["bestRank": 87]]
// snippet.end

// snippet.groups
let perAuthor = NSFetchRequest<NSManagedObject>(entityName: "Book")
perAuthor.resultType = .dictionary
perAuthor.propertiesToFetch = [
    .named("author"),
    .expression(NSExpressionDescription(
        name: "books", expression: NSExpression(format: "count:(title)"), resultType: .integer64)),
]
perAuthor.propertiesToGroupBy = [.named("author")]
perAuthor.havingPredicate = NSPredicate(format: "books > 1")
print(try context.fetchDictionaries(perAuthor))   // [["author": "Zarra", "books": 2]]
// snippet.end

// snippet.execute
perAuthor.havingPredicate = nil
if case .dictionaries(let rows) = try context.execute(perAuthor) {
    print(rows.count)                              // 3
}
// snippet.end

// snippet.errors
let median = NSFetchRequest<NSManagedObject>(entityName: "Book")
median.resultType = .dictionary
median.propertiesToFetch = [.expression(NSExpressionDescription(
    name: "middle", expression: NSExpression(format: "median:(salesRank)"), resultType: .double))]
do {
    _ = try context.fetchDictionaries(median)
} catch {
    print(error)
    // Core Data exception NSInvalidArgumentException: Unsupported function expression
    // median:(salesRank) in the expression description middle; use count:, sum:, min:, max:
    // or average: of a key path
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
