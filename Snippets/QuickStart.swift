// Declare a model, open a SQLite store, insert and save two books, then fetch with a
// format-string predicate that runs as SQL inside SQLite.
import ObjectGraph
import Foundation

let model = try ManagedObjectModel {
    EntityDescription("Book") {
        AttributeDescription("title", .string, optional: false)
        AttributeDescription("salesRank", .integer32)
    }
}
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("Books-\(UUID()).sqlite")
try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
let context = ManagedObjectContext(coordinator: coordinator)

for (title, rank) in [("Fetch, Clarus, Fetch", 192), ("Core Data by Example", 2_310)] {
    let book = try context.insertNewObject(forEntityName: "Book")
    try book.checkedSetValue(title, forKey: "title")
    try book.checkedSetValue(rank, forKey: "salesRank")
}
try context.save()

let request = FetchRequest(entityName: "Book")
request.predicate = try Predicate(checkedFormat: "title BEGINSWITH[c] %@ AND salesRank < %@", "fetch", 1000)
request.sortDescriptors = [SortDescriptor(key: "title")]
for book in try context.fetch(request) {
    print(try book.checkedValue(forKey: "title") ?? "?")   // Fetch, Clarus, Fetch
}
// snippet.hide
for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
}
