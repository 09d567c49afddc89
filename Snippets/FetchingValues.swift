// Dictionary results: chosen columns, distinct values, computed columns with expression
// descriptions, groups with a having predicate, and an aggregate the store refuses.
import ObjectGraph
import Foundation

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-values-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let model = try ManagedObjectModel {
    EntityDescription("Book") {
        AttributeDescription("title", .string, optional: false)
        AttributeDescription("author", .string)
        AttributeDescription("salesRank", .integer32)
    }
}
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("Books.sqlite"))
let context = ManagedObjectContext(coordinator: coordinator)
for (title, author, rank) in [
    ("Fetch, Clarus, Fetch", "LaMarche", 192), ("Core Data by Example", "Zarra", 2_310),
    ("Predicates in Practice", "Zarra", 87), ("The Object Graph", "Eggert", 1_204),
] {
    let book = try context.insertNewObject(forEntityName: "Book")
    try book.checkedSetValue(title, forKey: "title")
    try book.checkedSetValue(author, forKey: "author")
    try book.checkedSetValue(rank, forKey: "salesRank")
}
try context.save()
// snippet.show
// snippet.distinct
let authors = FetchRequest(entityName: "Book")
authors.resultType = .dictionary
authors.propertiesToFetch = [.named("author")]
authors.returnsDistinctResults = true
authors.sortDescriptors = [SortDescriptor(key: "author")]
for row in try context.fetchDictionaries(authors) {
    print(row["author"] as! String)               // Eggert, LaMarche, Zarra
}
// snippet.end

// snippet.expression
let best = FetchRequest(entityName: "Book")
best.resultType = .dictionary
best.propertiesToFetch = [.expression(ExpressionDescription(
    name: "bestRank", expression: try Expression(checkedFormat: "min:(salesRank)"), resultType: .integer32))]
print(try context.fetchDictionaries(best))        // [["bestRank": 87]]
// snippet.end

// snippet.groups
let perAuthor = FetchRequest(entityName: "Book")
perAuthor.resultType = .dictionary
perAuthor.propertiesToFetch = [
    .named("author"),
    .expression(ExpressionDescription(
        name: "books", expression: try Expression(checkedFormat: "count:(title)"), resultType: .integer64)),
]
perAuthor.propertiesToGroupBy = [.named("author")]
perAuthor.havingPredicate = try Predicate(checkedFormat: "books > 1")
print(try context.fetchDictionaries(perAuthor))   // [["author": "Zarra", "books": 2]]
// snippet.end

// snippet.execute
perAuthor.havingPredicate = nil
if case .dictionaries(let rows) = try context.execute(perAuthor) {
    print(rows.count)                              // 3
}
// snippet.end

// snippet.errors
let median = FetchRequest(entityName: "Book")
median.resultType = .dictionary
median.propertiesToFetch = [.expression(ExpressionDescription(
    name: "middle", expression: try Expression(checkedFormat: "median:(salesRank)"), resultType: .double))]
do {
    _ = try context.fetchDictionaries(median)
} catch let error as CoreDataError {
    print(error)
    // Core Data exception NSInvalidArgumentException: Unsupported function expression
    // median:(salesRank) in the expression description middle; use count:, sum:, min:, max:
    // or average: of a key path
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
