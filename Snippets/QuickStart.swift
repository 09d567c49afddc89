// Declare a model, open a SQLite store, insert and save two books, then fetch with a
// format-string predicate that runs as SQL inside SQLite: Apple's API, through `import CoreData`.
import CoreData

let model = try NSManagedObjectModel {
    NSEntityDescription("Book") {
        NSAttributeDescription("title", .string, optional: false)
        NSAttributeDescription("salesRank", .integer32)
    }
}
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("Books-\(UUID()).sqlite")
try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: nil)
let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator

try context.performAndWait {
    for (title, rank) in [("Fetch, Clarus, Fetch", 192), ("Core Data by Example", 2_310)] {
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        book.setValue(title, forKey: "title")
        book.setValue(rank, forKey: "salesRank")
    }
    try context.save()

    let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
    request.predicate = NSPredicate(format: "title BEGINSWITH[c] %@ AND salesRank < %@", "fetch", 1000 as NSNumber)
    request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
    for book in try context.fetch(request) {
        print(book.value(forKey: "title") ?? "?") // Fetch, Clarus, Fetch
    }
}
// snippet.hide
for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
}
