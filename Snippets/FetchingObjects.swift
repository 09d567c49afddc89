// Fetch requests with predicates, sort descriptors, limits, counts and object IDs; a
// predicate template with variables; and what goes wrong when a request is mistaken.
import CoreData

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-fetching-\(UUID().uuidString)")
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
// snippet.request
let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
request.predicate = NSPredicate(format: "author == %@ OR salesRank < %@", "Zarra", 200 as NSNumber)
request.sortDescriptors = [NSSortDescriptor(key: "salesRank", ascending: true)]
request.fetchLimit = 2
let bestSellers = try context.fetch(request)
print(bestSellers.map { $0.value(forKey: "title") as! String })
// ["Predicates in Practice", "Fetch, Clarus, Fetch"]

request.fetchLimit = 0
print(try context.count(for: request)) // 3
let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Book")
ids.predicate = request.predicate
ids.resultType = .managedObjectIDResultType
print(try context.fetch(ids).count) // 3
// snippet.end

// snippet.formats
let name = "O'Reilly \"Zarra\"" // quotes and all
let byAuthor = NSPredicate(format: "author == %@", name)
let byKey = NSPredicate(format: "%K BEGINSWITH[cd] %@", "title", "fetch")
let ranked = NSPredicate(format: "salesRank BETWEEN %@", [1, 100] as NSArray)
print(byAuthor, byKey, ranked, separator: "\n")
// author == "O'Reilly \"Zarra\""
// title BEGINSWITH[cd] "fetch"
// salesRank BETWEEN {1, 100}
// snippet.end

// snippet.pending
let draft = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
draft.setValue("Unsaved Thoughts", forKey: "title")
draft.setValue("Zarra", forKey: "author")
print(try context.count(for: request)) // 4: unsaved inserts count
request.includesPendingChanges = false
print(try context.count(for: request)) // 3: only what the store holds
context.rollback()
request.includesPendingChanges = true
// snippet.end

// snippet.template
let template = NSPredicate(format: "author == $AUTHOR AND salesRank <= $RANK")
request.predicate = template.withSubstitutionVariables(["AUTHOR": "Zarra", "RANK": 100])
print(request.predicate!.predicateFormat) // author == "Zarra" AND salesRank <= 100
print(try context.count(for: request)) // 1
// snippet.end

// snippet.errors
do {
    // A format string the program did not write itself: the throwing twin, where
    // NSPredicate(format:) would stop the program, as Apple's raises.
    request.predicate = try NSPredicate(checkedFormat: "title BEGINSWITH[c] %@ AND", "fetch")
} catch {
    print(error)
    // Unable to parse the format string "title BEGINSWITH[c] %@ AND": at offset 26, found the
    // end of the string, expected an expression
    //     title BEGINSWITH[c] %@ AND
    //                               ^
}
// On a Mac, Core Data raises the next two as exceptions, which stop the program; here the fetch
// throws them, as CoreDataErrors that name the exception.
do {
    request.predicate = NSPredicate(format: "pages > %@", 100 as NSNumber)
    _ = try context.fetch(request)
} catch {
    print(error) // Core Data exception NSInvalidArgumentException: keypath pages not found in entity Book
}
do {
    _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Books"))
} catch {
    // Core Data exception NSInternalInconsistencyException: The model has no entity named Books; its entities are Book
    print(error)
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
