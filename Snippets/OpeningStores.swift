// The four store types, reading a store's metadata without opening it, inspecting a file,
// moving a store to another type, and the errors for a store added wrongly.
import CoreData

// ObjectGraph's StoreInspection too: what a store file holds, read without a model, which Apple's
// Core Data does not offer. (The one declaration, not the module, which would bring Foundation's
// names beside CoreData's.)
import struct ObjectGraph.StoreInspection

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-stores-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let model = try NSManagedObjectModel {
    NSEntityDescription("Book") {
        NSAttributeDescription("title", .string, optional: false)
    }
}
// snippet.show
// snippet.types
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
let sqliteURL = folder.appendingPathComponent("Books.sqlite")
let store = try coordinator.addPersistentStore(type: .sqlite, at: sqliteURL)

let scratch = NSPersistentStoreCoordinator(managedObjectModel: model) // in memory: gone when the process ends
try scratch.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)

let readable = NSPersistentStoreCoordinator(managedObjectModel: model)
try readable.addPersistentStore(type: .xml, at: folder.appendingPathComponent("Books.xml"))

let compact = NSPersistentStoreCoordinator(managedObjectModel: model)
try compact.addPersistentStore(type: .binary, at: folder.appendingPathComponent("Books.binary"))
// snippet.end

let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator
let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
book.setValue("Fetch, Clarus, Fetch", forKey: "title")
try context.save()

// snippet.metadata
print(store.identifier == store.metadata[NSStoreUUIDKey] as? String) // true
let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: sqliteURL)
print(metadata[NSStoreTypeKey] ?? "?") // SQLite

let inspection = try StoreInspection(at: sqliteURL)
print(inspection.type, inspection.entityCounts.map { "\($0.entity): \($0.count)" })
// sqlite ["Book: 1"]
print(inspection.tables.map(\.name)) // ["ZBOOK", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"]
// snippet.end

// snippet.migrate
let xmlURL = folder.appendingPathComponent("Exported.xml")
let xmlStore = try coordinator.migratePersistentStore(store, to: xmlURL, type: .xml)
print(xmlStore.identifier == store.identifier) // true: object IDs stay valid
print(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))) // 1
// snippet.end

// snippet.errors
do {
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: nil, options: nil)
} catch {
    print(error) // Core Data error 134080: A SQLite store needs a file URL; use .inMemory for a store without a file
}
do {
    try coordinator.addPersistentStore(type: .xml, at: xmlURL)
} catch {
    print(error) // Core Data error 134081: The store at .../Exported.xml was already added to this coordinator
}
do {
    _ = try StoreInspection(at: folder.appendingPathComponent("Missing.sqlite"))
} catch {
    print((error as NSError).code == NSFileReadNoSuchFileError, (error as NSError).code) // true 260
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
