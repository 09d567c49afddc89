// Zarra's custom migration: version 1 of the ToDo model to version 2, where to-dos whose title
// begins with "a" must never alert. Xcode's default mapping model, a policy subclass, a policy
// named by class name, a value expression that calls the policy, the order of the policy
// methods, and the errors a custom migration can end with.
import ObjectGraph
import Foundation

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-policy-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
func toDoModel(_ version: String, withAlerts: Bool, maxTitleLength: Double? = nil) throws -> ManagedObjectModel {
    try ManagedObjectModel(versionIdentifier: version) {
        EntityDescription("Category") {
            AttributeDescription("name", .string)
            RelationshipDescription("todos", toMany: "ToDo", inverse: "category")
        }
        EntityDescription("ToDo") {
            AttributeDescription("title", .string, maxValue: maxTitleLength)
            AttributeDescription("dueDate", .date)
            AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
            if withAlerts {
                AttributeDescription("lastAlertDate", .date)
                AttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
            }
            RelationshipDescription("category", toOne: "Category", inverse: "todos")
        }
    }
}
/// Version 1: ToDo(title, dueDate, completed, category), Category(name, todos).
let v1 = try toDoModel("1", withAlerts: false)
/// Version 2 adds ToDo.lastAlertDate and ToDo.doNotAlert (required, default NO).
let v2 = try toDoModel("2", withAlerts: true)

/// A store that version 1 made: two categories and three to-dos.
let sourceURL = folder.appendingPathComponent("ToDo.sqlite")
do {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: v1)
    try coordinator.addPersistentStore(type: .sqlite, at: sourceURL)
    let context = ManagedObjectContext(coordinator: coordinator)
    let home = try context.insertNewObject(forEntityName: "Category")
    try home.checkedSetValue("Home", forKey: "name")
    let work = try context.insertNewObject(forEntityName: "Category")
    try work.checkedSetValue("Work", forKey: "name")
    for (title, category) in [("Answer mail", work), ("buy milk", home), ("apply patch", work)] {
        let todo = try context.insertNewObject(forEntityName: "ToDo")
        try todo.checkedSetValue(title, forKey: "title")
        try todo.checkedSetValue(category, forKey: "category")
    }
    try context.save()
}

/// What a migrated store holds: "title doNotAlert category" per to-do, in title order.
func contents(of url: URL) throws -> [String] {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: v2)
    try coordinator.addPersistentStore(type: .sqlite, at: url)
    let context = ManagedObjectContext(coordinator: coordinator)
    let request = FetchRequest(entityName: "ToDo")
    request.sortDescriptors = [SortDescriptor(key: "title")]
    return try context.fetch(request).map { todo in
        let category = try (todo.checkedValue(forKey: "category") as? ManagedObject)?.checkedValue(forKey: "name") ?? "nil"
        return "\(try todo.checkedValue(forKey: "title") ?? "-") \(try todo.checkedValue(forKey: "doNotAlert") ?? "-") \(category)"
    }
}
// snippet.show

// snippet.defaultMapping
let mapping = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
print(mapping)
// CategoryToCategory (transform, Category -> Category)
// ToDoToToDo (transform, ToDo -> ToDo)
let todos = mapping.entityMappingsByName["ToDoToToDo"]!
print(todos.sourceExpression!)
// FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "ToDo", "TRUEPREDICATE"),
//       $manager.sourceContext, 0)
for property in todos.attributeMappings + todos.relationshipMappings {
    print(property.name, property.valueExpression?.description ?? "(none: the default value)")
}
// title $source.title
// dueDate $source.dueDate
// completed $source.completed
// lastAlertDate (none: the default value)
// doNotAlert (none: the default value)
// category FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "CategoryToCategory",
//          $source.category)
// snippet.end

// snippet.policy
class DoNotAlertForAPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        let todo = try manager.destinationContext.insertNewObject(forEntityName: "ToDo")
        for key in ["title", "dueDate", "completed"] {
            try todo.checkedSetValue(try source.checkedValue(forKey: key), forKey: key)
        }
        let title = (try source.checkedValue(forKey: "title") as? String ?? "").lowercased()
        try todo.checkedSetValue(title.hasPrefix("a"), forKey: "doNotAlert")
        manager.associate(sourceInstance: source, withDestinationInstance: todo, for: mapping)
    }

    override func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        let migrated = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: nil)
        let expected = try manager.sourceContext.count(for: FetchRequest(entityName: "ToDo"))
        guard migrated.count == expected else {
            throw CoreDataError(.migration, "\(expected - migrated.count) of \(expected) to-dos have no version 2 to-do")
        }
    }
}
// snippet.end

// snippet.migrate
todos.mappingType = .custom
todos.entityMigrationPolicyType = DoNotAlertForAPolicy.self

let destinationURL = folder.appendingPathComponent("ToDo 2.sqlite")
let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
var passes: [Int] = []
manager.progressHandler = { progress in
    if passes.last != progress.pass { passes.append(progress.pass) }
}
try manager.migrateStore(from: sourceURL, type: .sqlite, with: mapping, to: destinationURL, type: .sqlite)
print(passes, manager.migrationProgress)      // [1, 2, 3] 1.0
print(try contents(of: destinationURL))
// ["Answer mail true Work", "apply patch true Work", "buy milk false Home"]
// snippet.end

// snippet.className
EntityMigrationPolicy.register(DoNotAlertForAPolicy.self, as: "ToDo.DoNotAlertForAPolicy")
let byName = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
byName.entityMappingsByName["ToDoToToDo"]!.mappingType = .custom
byName.entityMappingsByName["ToDoToToDo"]!.entityMigrationPolicyClassName = "ToDo.DoNotAlertForAPolicy"
// snippet.end
// snippet.hide
try MigrationManager(sourceModel: v1, destinationModel: v2)
    .migrateStore(from: sourceURL, type: .sqlite, with: byName, to: folder.appendingPathComponent("ByName.sqlite"), type: .sqlite)
print(try contents(of: folder.appendingPathComponent("ByName.sqlite")) == contents(of: destinationURL))   // true
// snippet.show

// snippet.entityPolicy
final class AlertRules: EntityMigrationPolicy {
    override func performFunction(_ selector: String, arguments: [Any?]) throws -> FunctionResult? {
        guard selector == "doNotAlertForTitle:" else { return nil }
        let title = (arguments.first as? String ?? "").lowercased()
        return FunctionResult(title.hasPrefix("a"))
    }
}
let byExpression = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
let todoMapping = byExpression.entityMappingsByName["ToDoToToDo"]!
todoMapping.entityMigrationPolicyType = AlertRules.self
let index = todoMapping.attributeMappings.firstIndex { $0.name == "doNotAlert" }!
todoMapping.attributeMappings[index] = try PropertyMapping(
    name: "doNotAlert", valueExpressionFormat: #"FUNCTION($entityPolicy, "doNotAlertForTitle:", $source.title)"#)
// snippet.end
// snippet.hide
try MigrationManager(sourceModel: v1, destinationModel: v2)
    .migrateStore(from: sourceURL, type: .sqlite, with: byExpression, to: folder.appendingPathComponent("ByExpression.sqlite"), type: .sqlite)
print(try contents(of: folder.appendingPathComponent("ByExpression.sqlite")) == contents(of: destinationURL))   // true
// snippet.show

// snippet.order
final class TracingPolicy: EntityMigrationPolicy {
    override func begin(_ mapping: EntityMapping, with manager: MigrationManager) throws {
        print("1 begin", mapping.name)
    }
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        print("1 createDestinationInstances", try source.checkedValue(forKey: "title") ?? "-")
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        print("1 endInstanceCreation", mapping.name)
    }
    override func createRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        print("2 createRelationships", try destination.checkedValue(forKey: "title") ?? "-")
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        print("2 endRelationshipCreation", mapping.name)
    }
    override func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        print("3 performCustomValidation", mapping.name)
    }
    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        print("3 end", mapping.name)
    }
}
let traced = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
let tracedToDos = traced.entityMappingsByName["ToDoToToDo"]!
tracedToDos.entityMigrationPolicyType = TracingPolicy.self
tracedToDos.sourceExpression = EntityMapping.fetchSourceExpression(entityName: "ToDo", predicate: "title == 'buy milk'")
try MigrationManager(sourceModel: v1, destinationModel: v2)
    .migrateStore(from: sourceURL, type: .sqlite, with: traced, to: folder.appendingPathComponent("Traced.sqlite"), type: .sqlite)
// 1 begin ToDoToToDo
// 1 createDestinationInstances buy milk
// 1 endInstanceCreation ToDoToToDo
// 2 createRelationships buy milk
// 2 endRelationshipCreation ToDoToToDo
// 3 performCustomValidation ToDoToToDo
// 3 end ToDoToToDo
// snippet.end

// snippet.forgetful
final class ForgetfulPolicy: DoNotAlertForAPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        let todo = try manager.destinationContext.insertNewObject(forEntityName: "ToDo")
        try todo.checkedSetValue(try source.checkedValue(forKey: "title"), forKey: "title")
        // No manager.associate(sourceInstance:withDestinationInstance:for:)
    }
}
todos.entityMigrationPolicyType = ForgetfulPolicy.self
do {
    try MigrationManager(sourceModel: v1, destinationModel: v2)
        .migrateStore(from: sourceURL, type: .sqlite, with: mapping, to: folder.appendingPathComponent("Lost.sqlite"), type: .sqlite)
} catch let error as CoreDataError {
    print(error)   // Core Data error 134110: 3 of 3 to-dos have no version 2 to-do
}
todos.entityMigrationPolicyType = DoNotAlertForAPolicy.self
// snippet.end

// snippet.errors
do {
    try manager.migrateStore(from: sourceURL, type: .sqlite, with: mapping, to: sourceURL, type: .sqlite)
} catch let error as CoreDataError {
    print(error)
    // Core Data error 134110: Migration source and destination URLs must be different (.../ToDo.sqlite):
    // migrate into a new file and replace the old one afterwards
}

let cancelled = folder.appendingPathComponent("Cancelled.sqlite")
manager.progressHandler = { progress in
    if progress.pass == 2 { manager.cancelMigration() }
}
do {
    try manager.migrateStore(from: sourceURL, type: .sqlite, with: mapping, to: cancelled, type: .sqlite)
} catch let error as CoreDataError {
    print(error, FileManager.default.fileExists(atPath: cancelled.path))
    // Core Data error 134120: The migration was cancelled false
}
manager.progressHandler = nil
// snippet.end

// snippet.expressionErrors
let typo = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
typo.entityMappingsByName["ToDoToToDo"]!.attributeMappings[0] = try PropertyMapping(
    name: "title", valueExpressionFormat: "$source.titel")
do {
    try manager.migrateStore(from: sourceURL, type: .sqlite, with: typo, to: folder.appendingPathComponent("Typo.sqlite"), type: .sqlite)
} catch let error as CoreDataError {
    print(error)
    // Core Data exception NSUnknownKeyException: The entity ToDo has no property named titel; its properties are
    // title, dueDate, completed, category
}

let unknown = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
let unknownToDos = unknown.entityMappingsByName["ToDoToToDo"]!
unknownToDos.entityMigrationPolicyType = AlertRules.self
unknownToDos.attributeMappings[4] = try PropertyMapping(
    name: "doNotAlert", valueExpressionFormat: #"FUNCTION($entityPolicy, "doNotAlertForName:", $source.title)"#)
do {
    try manager.migrateStore(from: sourceURL, type: .sqlite, with: unknown, to: folder.appendingPathComponent("Unknown.sqlite"), type: .sqlite)
} catch let error as CoreDataError {
    print(error)
    // Core Data error 134170: The entity mapping ToDoToToDo failed: FUNCTION selector
    // "doNotAlertForName:" is not registered; register it with FunctionRegistry.register(...
}

let unregistered = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
unregistered.entityMappingsByName["ToDoToToDo"]!.entityMigrationPolicyClassName = "ToDo.ToDoPolicy"
do {
    try manager.migrateStore(from: sourceURL, type: .sqlite, with: unregistered, to: folder.appendingPathComponent("Unregistered.sqlite"), type: .sqlite)
} catch let error as CoreDataError {
    print(error)
    // Core Data error 134170: The entity mapping ToDoToToDo names the policy class ToDo.ToDoPolicy,
    // which is not registered: call EntityMigrationPolicy.register(ToDoPolicy.self, as:
    // "ToDo.ToDoPolicy") first, or set entityMigrationPolicyType
}
// snippet.end

// snippet.validation
let strict = try toDoModel("2", withAlerts: true, maxTitleLength: 10)   // same hashes as v2
do {
    try MigrationManager(sourceModel: v1, destinationModel: strict)
        .migrateStore(from: sourceURL, type: .sqlite, with: mapping, to: folder.appendingPathComponent("Strict.sqlite"), type: .sqlite)
} catch let error as CoreDataError {
    print(error)
    // Core Data error 1560: Multiple validation errors occurred:
    //   - Core Data error 1660: ToDo.title of x-coredata://.../ToDo/p1: "Answer mail" is longer than 10 characters
    //   - Core Data error 1660: ToDo.title of x-coredata://.../ToDo/p3: "apply patch" is longer than 10 characters
}
// snippet.end

// snippet.missing
let v2Edited = try ManagedObjectModel(versionIdentifier: "2") {
    EntityDescription("Category") {
        AttributeDescription("name", .string)
        AttributeDescription("colour", .string)                       // added after the mapping model
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
let versions = try VersionedModel(name: "ToDo", versions: [("ToDo", v1), ("ToDo 2", v2Edited)],
                                  currentVersionName: "ToDo 2", mappingModels: [mapping])
do {
    try PersistentStoreCoordinator(versionedModel: versions).addPersistentStore(
        type: .sqlite, at: sourceURL, options: [StoreOption.migratePersistentStoresAutomatically: true])
} catch let error as CoreDataError {
    print(error)
    // Core Data error 134140: Can't find mapping model for migration from ToDo to ToDo 2: add a
    // MappingModel to the versioned model's mappingModels, or set inferMappingModelAutomatically
    // for a lightweight migration
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
