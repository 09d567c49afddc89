// A child process for the crash-safety test of save: it saves batches of objects in a loop,
// printing each batch number once its save has returned, until it is killed.
//
//     objectgraph-crash-child <store path>
import Foundation
import ObjectGraph

let arguments = CommandLine.arguments
// `objectgraph-crash-child --confinement`: uses a private-queue context off its queue, which
// stops a debug build; the confinement test (ConfinementTests) runs it and expects the stop.
if arguments.count == 2 && arguments[1] == "--confinement" {
    let coordinator = PersistentStoreCoordinator(
        managedObjectModel: try ManagedObjectModel {
            EntityDescription("Record") { AttributeDescription("batch", .integer64) }
        })
    try coordinator.addPersistentStore(type: .inMemory)
    let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    let count = try context.count(for: FetchRequest(entityName: "Record"))
    FileHandle.standardOutput.write(Data("not stopped: counted \(count)\n".utf8))
    exit(0)
}
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: objectgraph-crash-child <store path>\n".utf8))
    exit(2)
}
do {
    let model = try ManagedObjectModel {
        EntityDescription("Record") {
            AttributeDescription("batch", .integer64, optional: false)
            AttributeDescription("index", .integer64, optional: false)
            AttributeDescription("payload", .string, optional: false)
        }
    }
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[1]))
    let context = ManagedObjectContext(coordinator: coordinator)
    let existing = try context.count(for: FetchRequest(entityName: "Record"))
    var batch = existing / 50
    while true {
        batch += 1
        for index in 0..<50 {
            let record = try context.insertNewObject(forEntityName: "Record")
            try record.checkedSetValue(batch, forKey: "batch")
            try record.checkedSetValue(index, forKey: "index")
            try record.checkedSetValue(String(repeating: "\(batch)-\(index);", count: 20), forKey: "payload")
        }
        try context.save()
        // Unbuffered, so the parent reads exactly what was confirmed before the kill.
        FileHandle.standardOutput.write(Data("saved \(batch)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("crash child failed: \(error)\n".utf8))
    exit(1)
}
