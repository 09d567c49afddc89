// The four store types, reading a store's metadata without opening it, inspecting a file,
// moving a store to another type, and the errors for a store added wrongly.
import ObjectGraph
import Foundation

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-stores-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let model = try ManagedObjectModel {
    EntityDescription("Book") {
        AttributeDescription("title", .string, optional: false)
    }
}
// snippet.show
// snippet.types
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
let sqliteURL = folder.appendingPathComponent("Books.sqlite")
let store = try coordinator.addPersistentStore(type: .sqlite, at: sqliteURL)

let scratch = PersistentStoreCoordinator(managedObjectModel: model)
try scratch.addPersistentStore(type: .inMemory)            // no file: gone when the process ends

let readable = PersistentStoreCoordinator(managedObjectModel: model)
try readable.addPersistentStore(type: .xml, at: folder.appendingPathComponent("Books.xml"))

let compact = PersistentStoreCoordinator(managedObjectModel: model)
try compact.addPersistentStore(type: .binary, at: folder.appendingPathComponent("Books.binary"))
// snippet.end

let context = ManagedObjectContext(coordinator: coordinator)
let book = try context.insertNewObject(forEntityName: "Book")
try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
try context.save()

// snippet.metadata
print(store.identifier == store.metadata["NSStoreUUID"] as? String)   // true
let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: sqliteURL)
print(metadata["NSStoreType"] ?? "?")                                  // SQLite

let inspection = try StoreInspection(at: sqliteURL)
print(inspection.type, inspection.entityCounts.map { "\($0.entity): \($0.count)" })
// sqlite ["Book: 1"]
print(inspection.tables.map(\.name))   // ["ZBOOK", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"]
// snippet.end

// snippet.migrate
let xmlURL = folder.appendingPathComponent("Exported.xml")
let xmlStore = try coordinator.migratePersistentStore(store, to: xmlURL, type: .xml)
print(xmlStore.identifier == store.identifier)                          // true: object IDs stay valid
print(try context.count(for: FetchRequest(entityName: "Book")))         // 1
// snippet.end

// snippet.errors
do {
    try coordinator.addPersistentStore(type: .sqlite)
} catch let error as CoreDataError {
    print(error)   // Core Data error 134080: A SQLite store needs a file URL; use .inMemory for a store without a file
}
do {
    try coordinator.addPersistentStore(type: .xml, at: xmlURL)
} catch let error as CoreDataError {
    print(error)   // Core Data error 134081: The store at .../Exported.xml was already added to this coordinator
}
do {
    _ = try StoreInspection(at: folder.appendingPathComponent("Missing.sqlite"))
} catch let error as CoreDataError {
    print(error.code == .fileReadNoSuchFile, error.kind)   // true error 260
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
