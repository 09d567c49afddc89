import CoreData
import Foundation
import ScalingChapter
import WorkbookSupport

/// How the chapter 10 exercises are judged. Two need the chapter's private PostgreSQL server and
/// are skipped, saying why, where none can start; the fetch exercise runs on SQLite everywhere
/// and on PostgreSQL too when there is a server.
public enum ScalingChecks {
    /// A new store location on the private server, or a skip saying why there is none.
    static func store(_ name: String) throws -> ScalingStore {
        if let reason = ScalingServer.unavailableReason { throw CheckSkipped(reason) }
        guard let store = ScalingServer.store(name, on: Workbench { _ in }) else { throw CheckSkipped("no server") }
        return store
    }

    /// scaling-1: a container on the PostgreSQL store at a URL, loaded.
    public static func openByURL(_ attempt: (URL) throws -> NSPersistentContainer) -> Verdict {
        judge {
            let place = try store("exercise1")
            let container: NSPersistentContainer
            do {
                container = try attempt(place.url)
            } catch is NotSolvedYet {
                throw NotSolvedYet()
            } catch {
                return [
                    "Loading the store failed: \(place.shown("\(error)")). NSPersistentStoreDescription(url:) describes a SQLite store until you set its type: set description.type = .postgres (or use NSPersistentStoreDescription.postgres(url:) from ObjectGraphPostgres), then loadPersistentStores."
                ]
            }
            defer { close(container) }
            let stores = container.persistentStoreCoordinator.persistentStores
            guard let opened = stores.first else {
                return [
                    "The container has no store: set container.persistentStoreDescriptions = [description], then call container.loadPersistentStores { _, error in ... } and throw the error it gives, if any."
                ]
            }
            var problems: [String] = []
            if opened.type != .postgres {
                problems.append(
                    "The store's type is \(opened.type.rawValue), not PostgreSQL: an NSPersistentStoreDescription is a SQLite store by default. Set description.type = .postgres."
                )
                return problems
            }
            if opened.url != place.url {
                problems.append(
                    "The store is at \(place.shown(opened.url?.absoluteString ?? "nil")), not at the URL given.")
            }
            guard container.managedObjectModel.entitiesByName["ToDo"] != nil else {
                problems.append("The container's model has no ToDo entity: use ToDoModels.version2().")
                return problems
            }
            let writer = container.newBackgroundContext()
            try writer.performAndWait {
                let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: writer)
                todo.setValue("Written through your container", forKey: "title")
                try writer.save()
            }
            let other = try ToDoStore.makeContainer(url: place.url)
            defer { close(other) }
            if try ToDoStore.count(in: other) != 1 {
                problems.append(
                    "A to-do saved through your container is not in the schema the URL names: open the store at the URL you are given, unchanged."
                )
            }
            return problems
        }
    }

    /// The titles `request` fetches from `container`, in order.
    static func titles(_ request: NSFetchRequest<NSManagedObject>, in container: NSPersistentContainer) throws
        -> [String]
    {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "nil" }
        }
    }

    /// The open to-dos due before day 8, soonest first: what scaling-2's request must fetch.
    static let expectedTitles = ["Buy milk", "Review pull request", "Write chapter 10", "Book flights"]

    /// scaling-2: one fetch request, the same answer on SQLite and on PostgreSQL.
    public static func sameOnBoth(_ attempt: (Date) throws -> NSFetchRequest<NSManagedObject>) -> Verdict {
        judge {
            let request = try attempt(Workbench.date(days: 8))
            let bench = Workbench { _ in }
            let sqlite = try ToDoStore.makeSQLiteContainer(in: bench.makeDataFolder())
            try ToDoStore.insertSamples(into: sqlite)
            let onSQLite = try titles(request, in: sqlite)
            var problems = problemsWith(onSQLite)
            if ScalingServer.unavailableReason == nil, let place = ScalingServer.store("exercise2", on: bench) {
                let postgres = try ToDoStore.makeContainer(url: place.url)
                defer { close(postgres) }
                try ToDoStore.insertSamples(into: postgres)
                let onPostgres = try titles(request, in: postgres)
                if onPostgres != onSQLite {
                    problems.append(
                        "The two stores disagree: SQLite gives \(onSQLite), PostgreSQL \(onPostgres). Fetch with a predicate and sort descriptors the store runs in SQL, and nothing that depends on the order rows happen to come in."
                    )
                }
            }
            return problems
        }
    }

    /// What is wrong with the titles a scaling-2 request fetched.
    static func problemsWith(_ titles: [String]) -> [String] {
        if titles == expectedTitles { return [] }
        if titles.contains("Call the plumber") {
            return [
                "\"Call the plumber\" is done (completed is YES): add completed == NO to the predicate, with AND."
            ]
        }
        if Set(titles) == Set(expectedTitles) {
            return [
                "The right to-dos in the wrong order: \(titles). Soonest first is NSSortDescriptor(key: \"dueDate\", ascending: true); without sort descriptors the order is whatever the store gives, and may differ between SQLite and PostgreSQL."
            ]
        }
        return [
            "You fetched \(titles); the open to-dos due before the date are \(expectedTitles), soonest first: NSPredicate(format: \"completed == NO AND dueDate < %@\", date as NSDate)."
        ]
    }

    /// scaling-3: a title saved over another process's change to the same to-do.
    public static func acrossProcesses(_ attempt: (String, NSManagedObjectID, NSManagedObjectContext) throws -> Void)
        -> Verdict
    {
        judge {
            let place = try store("exercise3")
            let container = try ToDoStore.makeContainer(url: place.url)
            defer { close(container) }
            try ToDoStore.insertSamples(into: container)
            let editor = container.newBackgroundContext()
            let id = try editor.performAndWait { try ToDoStore.todo(titled: "Buy milk", in: editor)?.objectID }
            guard let id else { return ["The check could not find its to-do."] }
            // The other process: a coordinator and connections of its own, on the same schema.
            let other = try ToDoStore.makeContainer(url: place.url)
            defer { close(other) }
            let otherContext = other.newBackgroundContext()
            try otherContext.performAndWait {
                try ToDoStore.todo(titled: "Buy milk", in: otherContext)?.setValue(true, forKey: "completed")
                try otherContext.save()
            }
            let title = "Buy oat milk"
            do {
                try attempt(title, id, editor)
            } catch let error where (error as NSError).code == NSManagedObjectMergeError {
                return [
                    "The save failed with 133020 (NSManagedObjectMergeError): the other process saved the to-do (done) after the editor read it, and a context's merge policy is NSErrorMergePolicy. Set editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy, or refresh the to-do with mergeChanges: true, before saving."
                ]
            }
            let stored = try ToDoStore.stored(id, in: container)
            var problems: [String] = []
            if !stored.hasPrefix("\"\(title)\"") {
                problems.append(
                    "The store holds \(stored): your title was not saved. Set it inside editor.performAndWait on editor.object(with: id), then save the editor; NSRollbackMergePolicy drops the editor's change."
                )
            }
            if !stored.hasSuffix("done") {
                problems.append(
                    "The store holds \(stored): the other process marked it done, and your save wrote back the value the editor had read. NSOverwriteMergePolicy writes the whole object; NSMergeByPropertyObjectTrumpMergePolicy writes only what the editor changed."
                )
            }
            return problems
        }
    }

    /// Closes a container's stores (their connections).
    static func close(_ container: NSPersistentContainer) {
        let coordinator = container.persistentStoreCoordinator
        for store in coordinator.persistentStores { try? coordinator.remove(store) }
    }
}
