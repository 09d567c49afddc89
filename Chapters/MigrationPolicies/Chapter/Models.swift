import CoreData
import ObjectGraph
import WorkbookSupport

/// The chapter's third version of Zarra's ToDo model, and how a store gets there.
public enum PolicyModels {
    /// The names of the three versions, oldest first: the shipped bundle's two, and ours.
    public static let versionNames = ["ToDo", "ToDo 2", "ToDo 3"]

    /// Version 3: a to-do no longer says only whether it is done, but when: `completed`
    /// (Boolean) gives way to `completedDate` (an optional date; nil means not done yet).
    public static func version3() throws -> NSManagedObjectModel {
        // ANCHOR: todo-model-3
        try NSManagedObjectModel(versionIdentifier: "3") {
            NSEntityDescription("ToDo") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("dueDate", .date)
                NSAttributeDescription("completedDate", .date) // was completed, a Boolean
                NSAttributeDescription("lastAlertDate", .date)
                NSAttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
                NSRelationshipDescription("category", toOne: "Category", inverse: "todos", deleteRule: .nullify)
            }
            NSEntityDescription("Category") {
                NSAttributeDescription("name", .string, optional: false)
                NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category", deleteRule: .nullify)
            }
        }
        // ANCHOR_END: todo-model-3
    }

    /// Version 3 as lightweight migration would need it, if it could: `completedDate` marked as
    /// `completed` renamed. Inference still refuses (a Boolean does not become a date); the
    /// chapter shows the refusal and a test checks it.
    public static func version3RenamingCompleted() throws -> NSManagedObjectModel {
        // Descriptions are objects, as on a Mac: copy the frozen model's entities, then change
        // the copy's attribute.
        let entities = try version3().entities.map { $0.copy() }
        let todo = entities.first { $0.name == "ToDo" }
        todo?.attributesByName["completedDate"]?.renamingIdentifier = "completed"
        return try NSManagedObjectModel(entities: entities, versionIdentifiers: ["3"])
    }

    /// The mapping model from version 2 to version 3: Xcode's default, with the ToDo mapping
    /// made custom and given ``CompletedDatePolicy``.
    public static func completedDateMappingModel() throws -> NSMappingModel {
        // ANCHOR: completed-date-mapping
        let mapping = NSMappingModel.defaultMappingModel(
            forSourceModel: try ToDoModels.version2(),
            destinationModel: try version3())
        if let todos = mapping.entityMappingsByName["ToDoToToDo"] {
            todos.mappingType = .customEntityMappingType
            todos.entityMigrationPolicyType = CompletedDatePolicy.self
        }
        // ANCHOR_END: completed-date-mapping
        return mapping
    }

    /// All three versions, version 3 current, with the given mapping models.
    public static func versionedModel(mappingModels: [NSMappingModel]) throws -> VersionedModel {
        // ANCHOR: three-versions
        try VersionedModel(
            name: "ToDo",
            versions: [
                ("ToDo", try ToDoModels.version1()),
                ("ToDo 2", try ToDoModels.version2()),
                ("ToDo 3", try version3()),
            ], currentVersionName: "ToDo 3", mappingModels: mappingModels)
        // ANCHOR_END: three-versions
    }
}

/// The policy of the step from version 2 to version 3: every attribute as Xcode's default
/// mapping copies it, and a `completedDate` for the to-dos that were completed.
///
/// Version 2 knows only that a to-do is done, not when. The best the policy can say is "by
/// its due date"; a completed to-do without a due date gets the date of the migration, which
/// in this chapter is the fixed clock (an application would use `Date()`).
public final class CompletedDatePolicy: NSEntityMigrationPolicy {
    /// Creates the policy; the migration manager makes one per entity mapping.
    public required init() {}

    // ANCHOR: completed-date-policy
    /// When a migration runs: 09:00 UTC on 1 June 2009, the chapter's fixed clock, so that the
    /// output never changes (an application would use `Date()`).
    public static let migrationDate = Date(timeIntervalSinceReferenceDate: 265_539_600)

    /// Makes the version 3 to-do as the default does, then dates a completed one.
    public override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        // The default: a new to-do, its attributes from the property mappings, associated.
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        guard source.value(forKey: "completed") as? Bool == true,
            let todo = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])
                .first
        else { return }
        let due = source.value(forKey: "dueDate") as? Date
        todo.setValue(due ?? Self.migrationDate, forKey: "completedDate")
    }
    // ANCHOR_END: completed-date-policy
}
