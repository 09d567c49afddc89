// Fetch requests with predicates, sort descriptors, limits, counts and object IDs; a
// predicate template with variables; and what goes wrong when a request is mistaken.
import ObjectGraph
import Foundation

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-fetching-\(UUID().uuidString)")
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
// snippet.request
let request = FetchRequest(entityName: "Book")
request.predicate = try Predicate(checkedFormat: "author == %@ OR salesRank < %@", "Zarra", 200)
request.sortDescriptors = [SortDescriptor(key: "salesRank", ascending: true)]
request.fetchLimit = 2
let bestSellers = try context.fetch(request)
print(try bestSellers.map { try $0.checkedValue(forKey: "title") as! String })
// ["Predicates in Practice", "Fetch, Clarus, Fetch"]

request.fetchLimit = 0
print(try context.count(for: request))            // 3
print(try context.fetchObjectIDs(request).count)  // 3
// snippet.end

// snippet.formats
let name = "O'Reilly \"Zarra\""                                       // quotes and all
let byAuthor = try Predicate(checkedFormat: "author == %@", name)
let byKey = try Predicate(checkedFormat: "%K BEGINSWITH[cd] %@", "title", "fetch")
let ranked = try Predicate(checkedFormat: "salesRank BETWEEN %@", [1, 100])
print(byAuthor, byKey, ranked, separator: "\n")
// author == "O'Reilly \"Zarra\""
// title BEGINSWITH[cd] "fetch"
// salesRank BETWEEN {1, 100}
// snippet.end

// snippet.pending
let draft = try context.insertNewObject(forEntityName: "Book")
try draft.checkedSetValue("Unsaved Thoughts", forKey: "title")
try draft.checkedSetValue("Zarra", forKey: "author")
print(try context.count(for: request))            // 4: unsaved inserts count
request.includesPendingChanges = false
print(try context.count(for: request))            // 3: only what the store holds
context.rollback()
request.includesPendingChanges = true
// snippet.end

// snippet.template
let template = try Predicate(checkedFormat: "author == $AUTHOR AND salesRank <= $RANK")
request.predicate = try template.withSubstitutionVariables(["AUTHOR": "Zarra", "RANK": 100])
print(request.predicate!.predicateFormat)          // author == "Zarra" AND salesRank <= 100
print(try context.count(for: request))            // 1
// snippet.end

// snippet.errors
do {
    request.predicate = try Predicate(checkedFormat: "title BEGINSWITH[c] %@ AND", "fetch")
} catch let error as ObjectGraph.PredicateError {
    print(error.code)      // unparseable
    print(error)
    // Unable to parse the format string "title BEGINSWITH[c] %@ AND": at offset 26, found the
    // end of the string, expected an expression
    //     title BEGINSWITH[c] %@ AND
    //                               ^
}
do {
    request.predicate = try Predicate(checkedFormat: "pages > %@", 100)
    _ = try context.fetch(request)
} catch let error as CoreDataError {
    print(error)           // Core Data exception NSInvalidArgumentException: keypath pages not found in entity Book
}
do {
    _ = try context.fetch(FetchRequest(entityName: "Books"))
} catch let error as CoreDataError {
    print(error)           // Core Data exception NSInternalInconsistencyException: The model has no entity named Books; its entities are Book
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
