// A child process for the multi-process tests of the stores: several of it run at once on one
// store and each prints every write once its save has returned, so the parent can count that
// no confirmed write was lost and none was made twice.
//
// objectgraph-writer-child <xml|binary|sqlite|sqlite-history|postgres|postgres-history> <store path or URL> increment
// <n>
//         n times: add 1 to the one Counter and save; on 133020 (another writer saved it
//         first) refresh it from the store and try again. Prints "increment <new value>", and
//         "conflict 133020" for each save refused.
//     objectgraph-writer-child <kind> <store path or URL> insert <n> <writer name>
//         n saves of one new Record each. Prints "insert <writer> <index> <primary key>".
//     objectgraph-writer-child <kind> <store path or URL> reopen <n>
//         n times: a new coordinator opens the store and fetches every Record, and all of it
//         is let go. Prints "resident <kB after the first> <kB after the last>", the process's
//         resident memory, so the parent can check that opening a store leaks nothing.
//
// `sqlite-history` is a SQLite store with persistent history (NSPersistentHistoryTrackingKey),
// each save's transaction author the writer's name, or `increment <pid>`. `postgres` and
// `postgres-history` are the PostgreSQL store (ObjectGraphPostgres) at a `postgres://` URL
// whose `schema` query item names the store's schema.
//
// The model is the one WriterModel in the tests builds: Counter(value) and Record(writer, index).
import Foundation
import ObjectGraph
import ObjectGraphPostgres

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("writer child: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, let count = Int(arguments[3]),
    let type = [
        "xml": StoreType.xml, "binary": .binary, "sqlite": .sqlite, "sqlite-history": .sqlite,
        "postgres": .postgres, "postgres-history": .postgres,
    ][arguments[0]]
else {
    fail(
        "usage: objectgraph-writer-child <xml|binary|sqlite|sqlite-history|postgres|postgres-history> <store path or URL> <increment|insert|reopen> <n> [writer name]"
    )
}
/// Prints a line at once (unbuffered), so the parent sees exactly what was confirmed.
func confirm(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// A new coordinator with the store the arguments name added.
func openedCoordinator(_ model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    let history = arguments[0].hasSuffix("-history")
    if type == .postgres {
        guard let url = URL(string: arguments[1]), url.scheme == "postgres" || url.scheme == "postgresql" else {
            fail("\(arguments[1]) is no postgres:// URL")
        }
        // As the options dictionary below means: no automatic migration.
        let description = PersistentStoreDescription.postgres(url: url)
        description.timeout = 120
        description.isPersistentHistoryTrackingEnabled = history
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        try coordinator.addPersistentStore(with: description)
    } else {
        try coordinator.addPersistentStore(
            type: type, at: URL(fileURLWithPath: arguments[1]),
            options: [StoreOption.timeout: 120.0, StoreOption.persistentHistoryTracking: history])
    }
    return coordinator
}

/// The process's resident memory in kilobytes, from /proc/self/statm (pages).
func residentKilobytes() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

do {
    let model = try ManagedObjectModel {
        EntityDescription("Counter") {
            AttributeDescription("value", .integer64, optional: false)
        }
        EntityDescription("Record") {
            AttributeDescription("writer", .string, optional: false)
            AttributeDescription("index", .integer64, optional: false)
        }
    }
    let coordinator = try openedCoordinator(model)
    let context = ManagedObjectContext(coordinator: coordinator)
    context.transactionAuthor =
        arguments.count > 4 ? arguments[4] : "increment \(ProcessInfo.processInfo.processIdentifier)"
    switch arguments[2] {
    case "increment":
        guard let counter = try context.fetch(FetchRequest(entityName: "Counter")).first else {
            fail("the store has no Counter")
        }
        var done = 0
        while done < count {
            let value = (try counter.checkedValue(forKey: "value") as? Int ?? 0) + 1
            try counter.checkedSetValue(value, forKey: "value")
            do {
                try context.save()
                confirm("increment \(value)")
                done += 1
            } catch let error as CoreDataError where error.code == .merge {
                // Another writer saved the counter first: read its value again and retry.
                confirm("conflict \(error.code?.rawValue ?? 0)")
                try context.checkedRefresh(counter, mergeChanges: false)
            }
        }
    case "insert":
        guard arguments.count == 5 else { fail("insert needs a writer name") }
        for index in 1...max(count, 1) where count > 0 {
            let record = try context.insertNewObject(forEntityName: "Record")
            try record.checkedSetValue(arguments[4], forKey: "writer")
            try record.checkedSetValue(index, forKey: "index")
            try context.save()
            confirm("insert \(arguments[4]) \(index) \(record.objectID.primaryKey)")
        }
    case "reopen":
        var afterFirst = 0
        for round in 1...max(count, 1) {
            let reader = ManagedObjectContext(coordinator: try openedCoordinator(model))
            _ = try reader.fetch(FetchRequest(entityName: "Record"))
            if round == 1 { afterFirst = residentKilobytes() }
        }
        confirm("resident \(afterFirst) \(residentKilobytes())")
    default:
        fail("unknown kind \(arguments[2]); use increment, insert or reopen")
    }
} catch {
    fail("\(error)")
}
