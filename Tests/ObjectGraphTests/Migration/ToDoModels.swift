import Foundation
import ObjectGraph

/// Zarra's ToDo model ("Core Data Versioning", MacTech 2009) in three versions, and the
/// article's custom policy.
enum ToDoModels {
    /// Version 1: ToDo(title, dueDate, completed, category) and Category(name, todos).
    static func v1() throws -> ManagedObjectModel {
        try ManagedObjectModel(versionIdentifier: "1") {
            EntityDescription("Category") {
                AttributeDescription("name", .string)
                RelationshipDescription("todos", toMany: "ToDo", inverse: "category")
            }
            EntityDescription("ToDo") {
                AttributeDescription("title", .string)
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                RelationshipDescription("category", toOne: "Category", inverse: "todos")
            }
        }
    }

    /// Version 2 adds ToDo.lastAlertDate (optional) and ToDo.doNotAlert (default NO).
    static func v2() throws -> ManagedObjectModel {
        try ManagedObjectModel(versionIdentifier: "2") {
            EntityDescription("Category") {
                AttributeDescription("name", .string)
                RelationshipDescription("todos", toMany: "ToDo", inverse: "category")
            }
            EntityDescription("ToDo") {
                AttributeDescription("title", .string)
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                AttributeDescription("lastAlertDate", .date)
                AttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
                RelationshipDescription("category", toOne: "Category", inverse: "todos")
            }
        }
    }

    /// Version 3: Category renamed Folder (renaming identifier), ToDo.title renamed name,
    /// Folder gains a colour.
    static func v3() throws -> ManagedObjectModel {
        try ManagedObjectModel(versionIdentifier: "3") {
            EntityDescription("Folder", renamingIdentifier: "Category") {
                AttributeDescription("name", .string)
                AttributeDescription("colour", .string, defaultValue: "grey")
                RelationshipDescription("todos", toMany: "ToDo", inverse: "folder")
            }
            EntityDescription("ToDo") {
                AttributeDescription("name", .string, renamingIdentifier: "title")
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                AttributeDescription("lastAlertDate", .date)
                AttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
                RelationshipDescription("folder", toOne: "Folder", inverse: "todos", renamingIdentifier: "category")
            }
        }
    }

    /// The article's mapping model: Xcode's default v1 -> v2, with the custom policy on
    /// ToDoToToDo.
    static func customMapping(_ v1: ManagedObjectModel, _ v2: ManagedObjectModel) -> MappingModel {
        let mapping = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
        let todo = mapping.entityMappingsByName["ToDoToToDo"]!
        todo.mappingType = .custom
        todo.entityMigrationPolicyType = ToDoMigrationPolicy.self
        return mapping
    }

    static let titles = ["Answer mail", "buy milk", "Call Alice", "apply patch", "Write article", "archive photos", "Back up disk"]

    /// A v1 store with two categories and `count` to-dos, titles cycling through `titles`.
    static func seed(_ url: URL, type: StoreType = .sqlite, count: Int = 7) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try v1())
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let home = try context.insertNewObject(forEntityName: "Category")
        try home.setValue("Home", forKey: "name")
        let work = try context.insertNewObject(forEntityName: "Category")
        try work.setValue("Work", forKey: "name")
        for i in 0..<count {
            let todo = try context.insertNewObject(forEntityName: "ToDo")
            try todo.setValue(titles[i % titles.count], forKey: "title")
            try todo.setValue(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400), forKey: "dueDate")
            try todo.setValue(i % 3 == 0, forKey: "completed")
            try todo.setValue(i % 2 == 0 ? home : work, forKey: "category")
        }
        try context.save()
    }
}

/// Zarra's policy: doNotAlert is YES for titles beginning with "a" (after lowercasing); the
/// Category relationship is kept through the manager's association tables.
final class ToDoMigrationPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        let todo = try manager.destinationContext.insertNewObject(forEntityName: "ToDo")
        for key in ["title", "dueDate", "completed"] {
            try todo.setValue(try source.value(forKey: key), forKey: key)
        }
        let title = (try source.value(forKey: "title") as? String ?? "").lowercased()
        try todo.setValue(title.hasPrefix("a"), forKey: "doNotAlert")
        manager.associate(sourceInstance: source, withDestinationInstance: todo, for: mapping)
    }

    override func createRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        guard let source = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination]).first,
              let category = try source.value(forKey: "category") as? ManagedObject else { return }
        let migrated = try manager.destinationInstances(forEntityMappingName: "CategoryToCategory", sourceInstances: [category])
        try destination.setValue(migrated.first, forKey: "category")
    }
}
