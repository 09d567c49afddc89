import ObjectGraph
import WorkbookSupport

/// How the chapter 4 exercises are judged: each check makes stores of the ToDo model in a
/// temporary folder, calls an implementation, and explains any difference from what Core
/// Data would do.
public enum VersioningChecks {
    /// A temporary folder for one check, removed afterwards.
    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("exercise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// A store written by ToDo model `version` with one to-do, "Pay rent".
    static func makeStore(at url: URL, type: StoreType, version: Int) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: version))
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let todo = try context.insertNewObject(forEntityName: "ToDo")
        try todo.checkedSetValue("Pay rent", forKey: "title")
        try context.save()
    }

    public static func versionName(_ attempt: (URL, StoreType, VersionedModel) throws -> String?) -> Verdict {
        judge {
            try withFolder { folder in
                var problems: [String] = []
                let versions = try ToDoModels.versionedModel()
                for (version, type) in [(1, StoreType.xml), (2, .xml), (1, .sqlite), (2, .sqlite)] {
                    let url = folder.appendingPathComponent("v\(version).\(type == .xml ? "xml" : "sqlite")")
                    try makeStore(at: url, type: type, version: version)
                    let expected = ToDoModels.versionNames[version - 1]
                    let got = try attempt(url, type, versions)
                    if got != expected {
                        problems.append(
                            "A \(type.rawValue) store written by version \"\(expected)\" got \(got.map { "\"\($0)\"" } ?? "nil"). Read PersistentStoreCoordinator.metadataForPersistentStore(type:at:) and ask versions.versionName(forStoreMetadata:)."
                        )
                    }
                }
                // A store of another model altogether.
                let books = try ManagedObjectModel {
                    EntityDescription("Book") { AttributeDescription("title", .string) }
                }
                let other = folder.appendingPathComponent("books.sqlite")
                try PersistentStoreCoordinator(managedObjectModel: books).addPersistentStore(type: .sqlite, at: other)
                if let got = try attempt(other, .sqlite, versions) {
                    problems.append(
                        "A store of a Book model, which no ToDo version wrote, got \"\(got)\"; the answer is nil.")
                }
                return problems
            }
        }
    }

    public static func openMigrating(_ attempt: (URL, StoreType, VersionedModel) throws -> ManagedObjectContext)
        -> Verdict
    {
        judge {
            try withFolder { folder in
                var problems: [String] = []
                let versions = try ToDoModels.versionedModel()
                for type in [StoreType.xml, .sqlite] {
                    let url = folder.appendingPathComponent("old.\(type == .xml ? "xml" : "sqlite")")
                    try makeStore(at: url, type: type, version: 1)
                    let context = try attempt(url, type, versions)
                    let todos = try context.fetch(FetchRequest(entityName: "ToDo"))
                    let title = try todos.first?.checkedValue(forKey: "title") as? String
                    if todos.count != 1 || title != "Pay rent" {
                        problems.append(
                            "After opening a version 1 \(type.rawValue) store, the context should hold its one to-do, \"Pay rent\"; it holds \(todos.count)."
                        )
                    } else if try context.persistentStoreCoordinator.managedObjectModel.entity(named: "ToDo").attribute(
                        named: "doNotAlert") == nil
                    {
                        problems.append(
                            "The context uses version 1 of the model. Make the coordinator with NSPersistentStoreCoordinator(versionedModel:), so it uses the current version."
                        )
                    }
                    let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
                    if versions.versionName(forStoreMetadata: metadata) != "ToDo 2" {
                        problems.append(
                            "The \(type.rawValue) store was not migrated: its metadata still says version \"\(versions.versionName(forStoreMetadata: metadata) ?? "?")\"."
                        )
                    }
                }
                // A store that is already current opens as it is.
                let current = folder.appendingPathComponent("current.sqlite")
                try makeStore(at: current, type: .sqlite, version: 2)
                if try attempt(current, .sqlite, versions).count(for: FetchRequest(entityName: "ToDo")) != 1 {
                    problems.append("A store already at version 2 should open as it is, with its one to-do.")
                }
                return problems
            }
        }
    }

    public static func alertedInHour(_ attempt: (Date, ManagedObjectContext) throws -> [ManagedObject]) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let context = try bench.makeContext(model: ToDoModels.version2())
            let now = Workbench.now
            // Minutes before now at which each to-do was last alerted; nil for never.
            let alerted: [(String, Double?)] = [
                ("never", nil), ("just now", 0), ("ten minutes ago", 10), ("an hour ago", 60),
                ("two hours ago", 120), ("in the future", -5), ("half an hour ago", 30),
            ]
            for (title, minutes) in alerted {
                let todo = try context.insertNewObject(forEntityName: "ToDo")
                try todo.checkedSetValue(title, forKey: "title")
                try todo.checkedSetValue(minutes.map { now.addingTimeInterval(-$0 * 60) }, forKey: "lastAlertDate")
            }
            try context.save()
            let titles = try attempt(now, context).map { try $0.checkedValue(forKey: "title") as? String ?? "?" }
            let expected = ["just now", "ten minutes ago", "half an hour ago", "an hour ago"]
            if Set(titles) != Set(expected) {
                var problems = ["You returned \(titles); the to-dos alerted in the hour up to now are \(expected)."]
                if titles.contains("never") {
                    problems.append("A to-do never alerted has no lastAlertDate; it should not match.")
                }
                if !titles.contains("an hour ago") {
                    problems.append("Exactly one hour ago counts: include both ends (>= and <=, or BETWEEN).")
                }
                if titles.contains("in the future") {
                    problems.append("An alert after now does not count: bound lastAlertDate by now too.")
                }
                return problems
            }
            if titles != expected {
                return [
                    "The right to-dos, in the order \(titles); most recently alerted first is \(expected). Sort on lastAlertDate with ascending: false."
                ]
            }
            return []
        }
    }
}
