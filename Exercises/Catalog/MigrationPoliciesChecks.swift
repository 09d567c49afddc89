import MigrationPoliciesChapter
import ObjectGraph
import WorkbookSupport

/// How the chapter 5 exercises are judged: each check makes a small store of an older
/// version, migrates it with the learner's policy, value expression or mapping model, and
/// explains any to-do that came out differently, in terms of the chapter.
public enum MigrationPoliciesChecks {
    struct Item {
        let title: String
        let due: Date?
        let completed: Bool
        var doNotAlert = false
        let category: String
    }

    /// What a migrated to-do holds.
    struct Migrated {
        let doNotAlert: Bool?
        let completedDate: Date?
        let dueDate: Date?
        let category: String?
    }

    static let items = [
        Item(title: "apply patch", due: Workbench.date(days: 2), completed: false, category: "Work"),
        Item(title: "Archive mail", due: Workbench.date(days: -1), completed: true, category: "Work"),
        Item(title: "Buy milk", due: Workbench.date(hours: 3), completed: false, doNotAlert: true, category: "Home"),
        Item(title: "Call the bank", due: Workbench.date(days: -3), completed: true, category: "Home"),
        Item(title: "Someday: learn Welsh", due: nil, completed: false, category: "Home"),
        Item(title: "Water the plants", due: nil, completed: true, category: "Home"),
    ]

    /// An XML store of `model` (version 1 or 2) holding ``items``, closed, in the workbench's folder.
    static func store(_ bench: Workbench, model: ManagedObjectModel) throws -> URL {
        let coordinator = try bench.makeCoordinator(model: model, type: .xml)
        let context = ManagedObjectContext(coordinator: coordinator)
        var categories: [String: ManagedObject] = [:]
        for name in ["Home", "Work"] {
            let category = try context.insertNewObject(forEntityName: "Category")
            try category.checkedSetValue(name, forKey: "name")
            categories[name] = category
        }
        let hasDoNotAlert = model.entitiesByName["ToDo"]?.attribute(named: "doNotAlert") != nil
        for item in items {
            let todo = try context.insertNewObject(forEntityName: "ToDo")
            try todo.checkedSetValue(item.title, forKey: "title")
            try todo.checkedSetValue(item.due, forKey: "dueDate")
            try todo.checkedSetValue(item.completed, forKey: "completed")
            if hasDoNotAlert { try todo.checkedSetValue(item.doNotAlert, forKey: "doNotAlert") }
            try todo.checkedSetValue(categories[item.category], forKey: "category")
        }
        try context.save()
        let store = coordinator.persistentStores[0]
        try coordinator.remove(store)
        return store.url!
    }

    /// Migrates the store with the mapping model and reads the result back, by title.
    static func migrate(
        _ url: URL, from source: ManagedObjectModel, to destination: ManagedObjectModel,
        with mapping: MappingModel
    ) throws -> [String: Migrated] {
        let out = url.deletingLastPathComponent().appendingPathComponent("Migrated.xml")
        try MigrationManager(sourceModel: source, destinationModel: destination)
            .migrateStore(from: url, type: .xml, with: mapping, to: out, type: .xml)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: destination)
        try coordinator.addPersistentStore(type: .xml, at: out)
        let context = ManagedObjectContext(coordinator: coordinator)
        let entity = destination.entitiesByName["ToDo"]!
        var result: [String: Migrated] = [:]
        for todo in try context.fetch(FetchRequest(entityName: "ToDo")) {
            let title = try todo.checkedValue(forKey: "title") as? String ?? "?"
            result[title] = Migrated(
                doNotAlert: try todo.checkedValue(forKey: "doNotAlert") as? Bool,
                completedDate: entity.attribute(named: "completedDate") == nil
                    ? nil : try todo.checkedValue(forKey: "completedDate") as? Date,
                dueDate: try todo.checkedValue(forKey: "dueDate") as? Date,
                category: try (todo.checkedValue(forKey: "category") as? ManagedObject)?.checkedValue(forKey: "name")
                    as? String)
        }
        return result
    }

    static func yesNo(_ b: Bool?) -> String { b.map { $0 ? "YES" : "NO" } ?? "nil" }

    /// The problems every migration can have: to-dos missing, or out of their category.
    static func lostToDos(_ migrated: [String: Migrated]) -> [String] {
        var problems: [String] = []
        let missing = items.map(\.title).filter { migrated[$0] == nil }
        if !missing.isEmpty {
            problems.append(
                "The migrated store lacks \(missing.joined(separator: ", ")): every to-do must come through, with its title."
            )
        }
        let homeless = items.filter { migrated[$0.title] != nil && migrated[$0.title]?.category != $0.category }.map(
            \.title)
        if !homeless.isEmpty {
            problems.append(
                "\(homeless.joined(separator: ", ")) lost \(homeless.count == 1 ? "its category" : "their categories"). The second pass finds a to-do's new category through the association of source and destination: call super, or manager.associate(sourceInstance:withDestinationInstance:for:) yourself."
            )
        }
        return problems
    }

    public static func doNotAlertWhenCompleted(_ policy: EntityMigrationPolicy.Type) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let version1 = try ToDoModels.version1()
            let version2 = try ToDoModels.version2()
            let url = try store(bench, model: version1)
            let mapping = MappingModel.defaultMappingModel(forSourceModel: version1, destinationModel: version2)
            let todos = mapping.entityMappingsByName["ToDoToToDo"]!
            todos.mappingType = .custom
            todos.entityMigrationPolicyType = policy
            let migrated = try migrate(url, from: version1, to: version2, with: mapping)
            var problems = lostToDos(migrated)
            for item in items {
                guard let got = migrated[item.title] else { continue }
                if got.doNotAlert != item.completed {
                    var why =
                        "\(item.title) is \(item.completed ? "" : "not ")completed, so its doNotAlert must be \(yesNo(item.completed)); it is \(yesNo(got.doNotAlert))."
                    if item.title.lowercased().hasPrefix("a") {
                        why += " (Zarra's rule looked at the title; this one looks at completed.)"
                    }
                    problems.append(why)
                }
                if got.dueDate != item.due {
                    problems.append("\(item.title) lost its due date: copy dueDate too.")
                }
            }
            return problems
        }
    }

    public static func doNotAlertValueExpression(_ attempt: () throws -> String) -> Verdict {
        judge {
            let format = try attempt()
            let property: PropertyMapping
            do {
                property = try PropertyMapping(name: "doNotAlert", valueExpressionFormat: format)
            } catch {
                return ["Your value expression \(format) does not parse: \(error)"]
            }
            let bench = Workbench { _ in }
            let version1 = try ToDoModels.version1()
            let version2 = try ToDoModels.version2()
            let url = try store(bench, model: version1)
            let mapping = MappingModel.defaultMappingModel(forSourceModel: version1, destinationModel: version2)
            let todos = mapping.entityMappingsByName["ToDoToToDo"]!
            todos.attributeMappings[todos.attributeMappings.firstIndex { $0.name == "doNotAlert" }!] = property
            let migrated: [String: Migrated]
            do {
                migrated = try migrate(url, from: version1, to: version2, with: mapping)
            } catch let error as CoreDataError where error.message.contains("desired type = Boolean") {
                return [
                    "With \(format) the migration stopped: \(error.message). A quoted \"YES\" is a string; write YES and NO without quotes."
                ]
            }
            var problems = lostToDos(migrated)
            for item in items {
                guard let got = migrated[item.title] else { continue }
                let expected = item.completed || item.due == nil
                if got.doNotAlert != expected {
                    let state =
                        "\(item.completed ? "completed" : "not completed") and \(item.due == nil ? "has no due date" : "has a due date")"
                    problems.append(
                        "\(item.title) is \(state), so doNotAlert must be \(yesNo(expected)); your expression \(format) gave \(yesNo(got.doNotAlert))."
                    )
                }
            }
            return problems
        }
    }

    public static func completedDateMappingModel(
        _ attempt: (ManagedObjectModel, ManagedObjectModel) throws -> MappingModel
    ) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let version2 = try ToDoModels.version2()
            let version3 = try PolicyModels.version3()
            let mapping = try attempt(version2, version3)
            guard mapping.matches(sourceModel: version2, destinationModel: version3) else {
                return [
                    "Your mapping model does not match versions 2 and 3 (its entity mappings must name their entities with these models' version hashes, and map every entity of version 3). Start from MappingModel.defaultMappingModel(forSourceModel: version2, destinationModel: version3)."
                ]
            }
            let url = try store(bench, model: version2)
            let migrated = try migrate(url, from: version2, to: version3, with: mapping)
            var problems = lostToDos(migrated)
            for item in items {
                guard let got = migrated[item.title] else { continue }
                let expectedDate = item.completed ? item.due : nil
                if got.completedDate != expectedDate {
                    let shown = got.completedDate.map(Workbench.format) ?? "none"
                    problems.append(
                        item.completed
                            ? "\(item.title) was completed and due \(item.due.map(Workbench.format) ?? "never"), so its completedDate must be \(expectedDate.map(Workbench.format) ?? "nil"); it is \(shown)."
                            : "\(item.title) was not completed, so it must have no completedDate; it has \(shown).")
                }
                let expectedFlag = item.completed || item.doNotAlert
                if got.doNotAlert != expectedFlag {
                    problems.append(
                        item.completed
                            ? "\(item.title) was completed, so its doNotAlert must be YES; it is \(yesNo(got.doNotAlert))."
                            : "\(item.title) was not completed and had doNotAlert \(yesNo(item.doNotAlert)), which it must keep; it has \(yesNo(got.doNotAlert))."
                    )
                }
                if got.dueDate != item.due { problems.append("\(item.title) lost its due date: keep $source.dueDate.") }
            }
            return problems
        }
    }
}
