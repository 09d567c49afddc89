// Zarra's custom migration: version 1 of the ToDo model to version 2, where to-dos whose title
// begins with "a" must never alert. Xcode's default mapping model, a policy subclass, a policy
// named by class name, a value expression that calls the policy, the order of the policy
// methods, and the errors a custom migration can end with.
import CoreData

// ObjectGraph's declarations for what has no Apple counterpart on Linux: FunctionResult (a policy
// answers FUNCTION($entityPolicy, ...) in performFunction(_:arguments:): Linux has no selectors)
// and VersionedModel. Each declaration, not the module, which would bring Foundation's names
// beside CoreData's. The manager's progressHandler and cancelMigration() are ObjectGraph's too
// (Apple's are KVO on migrationProgress and cancelMigrationWithError(_:)).
import struct ObjectGraph.FunctionResult
import class ObjectGraph.VersionedModel

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-policy-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
func toDoModel(_ version: String, withAlerts: Bool, maxTitleLength: Double? = nil) throws -> NSManagedObjectModel {
    try NSManagedObjectModel(versionIdentifier: version) {
        NSEntityDescription("Category") {
            NSAttributeDescription("name", .string)
            NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category")
        }
        NSEntityDescription("ToDo") {
            NSAttributeDescription("title", .string, maxValue: maxTitleLength)
            NSAttributeDescription("dueDate", .date)
            NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
            if withAlerts {
                NSAttributeDescription("lastAlertDate", .date)
                NSAttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
            }
            NSRelationshipDescription("category", toOne: "Category", inverse: "todos")
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
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v1)
    try coordinator.addPersistentStore(type: .sqlite, at: sourceURL)
    let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    let home = NSEntityDescription.insertNewObject(forEntityName: "Category", into: context)
    home.setValue("Home", forKey: "name")
    let work = NSEntityDescription.insertNewObject(forEntityName: "Category", into: context)
    work.setValue("Work", forKey: "name")
    for (title, category) in [("Answer mail", work), ("buy milk", home), ("apply patch", work)] {
        let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
        todo.setValue(title, forKey: "title")
        todo.setValue(category, forKey: "category")
    }
    try context.save()
}

/// What a migrated store holds: "title doNotAlert category" per to-do, in title order.
func contents(of url: URL) throws -> [String] {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v2)
    try coordinator.addPersistentStore(type: .sqlite, at: url)
    let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
    request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
    return try context.fetch(request).map { todo in
        let category = (todo.value(forKey: "category") as? NSManagedObject)?.value(forKey: "name") ?? "nil"
        let doNotAlert = (todo.value(forKey: "doNotAlert") as? Bool).map { "\($0)" } ?? "-"
        return "\(todo.value(forKey: "title") ?? "-") \(doNotAlert) \(category)"
    }
}
// snippet.show

// snippet.defaultMapping
let mapping = NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
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
class DoNotAlertForAPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: manager.destinationContext)
        for key in ["title", "dueDate", "completed"] {
            todo.setValue(source.value(forKey: key), forKey: key)
        }
        let title = (source.value(forKey: "title") as? String ?? "").lowercased()
        todo.setValue(title.hasPrefix("a"), forKey: "doNotAlert")
        manager.associate(sourceInstance: source, withDestinationInstance: todo, for: mapping)
    }

    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        let migrated = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: nil)
        let expected = try manager.sourceContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "ToDo"))
        guard migrated.count == expected else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(expected - migrated.count) of \(expected) to-dos have no version 2 to-do"
                ])
        }
    }
}
// snippet.end

// snippet.migrate
todos.mappingType = .customEntityMappingType
todos.entityMigrationPolicyType = DoNotAlertForAPolicy.self

let destinationURL = folder.appendingPathComponent("ToDo 2.sqlite")
let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
var passes: [Int] = []
manager.progressHandler = { progress in
    if passes.last != progress.pass { passes.append(progress.pass) }
}
try manager.migrateStore(from: sourceURL, type: .sqlite, mapping: mapping, to: destinationURL, type: .sqlite)
print(passes, manager.migrationProgress) // [1, 2, 3] 1.0
print(try contents(of: destinationURL))
// ["Answer mail true Work", "apply patch true Work", "buy milk false Home"]
// snippet.end

// snippet.className
NSEntityMigrationPolicy.register(DoNotAlertForAPolicy.self, as: "ToDo.DoNotAlertForAPolicy")
let byName = NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
byName.entityMappingsByName["ToDoToToDo"]!.mappingType = .customEntityMappingType
byName.entityMappingsByName["ToDoToToDo"]!.entityMigrationPolicyClassName = "ToDo.DoNotAlertForAPolicy"
// snippet.end
// snippet.hide
try NSMigrationManager(sourceModel: v1, destinationModel: v2)
    .migrateStore(
        from: sourceURL, type: .sqlite, mapping: byName, to: folder.appendingPathComponent("ByName.sqlite"),
        type: .sqlite)
print(try contents(of: folder.appendingPathComponent("ByName.sqlite")) == contents(of: destinationURL)) // true
// snippet.show

// snippet.entityPolicy
final class AlertRules: NSEntityMigrationPolicy {
    override func performFunction(_ selector: String, arguments: [Any?]) throws -> FunctionResult? {
        guard selector == "doNotAlertForTitle:" else { return nil }
        let title = (arguments.first as? String ?? "").lowercased()
        return FunctionResult(title.hasPrefix("a"))
    }
}
let byExpression = NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
let todoMapping = byExpression.entityMappingsByName["ToDoToToDo"]!
todoMapping.entityMigrationPolicyType = AlertRules.self
let index = todoMapping.attributeMappings.firstIndex { $0.name == "doNotAlert" }!
todoMapping.attributeMappings[index] = try NSPropertyMapping(
    name: "doNotAlert", valueExpressionFormat: #"FUNCTION($entityPolicy, "doNotAlertForTitle:", $source.title)"#)
// snippet.end
// snippet.hide
try NSMigrationManager(sourceModel: v1, destinationModel: v2)
    .migrateStore(
        from: sourceURL, type: .sqlite, mapping: byExpression, to: folder.appendingPathComponent("ByExpression.sqlite"),
        type: .sqlite)
print(try contents(of: folder.appendingPathComponent("ByExpression.sqlite")) == contents(of: destinationURL)) // true
// snippet.show

// snippet.order
final class TracingPolicy: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        print("1 begin", mapping.name)
    }
    override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        print("1 createDestinationInstances", source.value(forKey: "title") ?? "-")
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        print("1 endInstanceCreation", mapping.name)
    }
    override func createRelationships(
        forDestination destination: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        print("2 createRelationships", destination.value(forKey: "title") ?? "-")
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        print("2 endRelationshipCreation", mapping.name)
    }
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        print("3 performCustomValidation", mapping.name)
    }
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        print("3 end", mapping.name)
    }
}
let traced = NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
let tracedToDos = traced.entityMappingsByName["ToDoToToDo"]!
tracedToDos.entityMigrationPolicyType = TracingPolicy.self
tracedToDos.sourceExpression = NSEntityMapping.fetchSourceExpression(
    entityName: "ToDo", predicate: "title == 'buy milk'")
try NSMigrationManager(sourceModel: v1, destinationModel: v2)
    .migrateStore(
        from: sourceURL, type: .sqlite, mapping: traced, to: folder.appendingPathComponent("Traced.sqlite"),
        type: .sqlite)
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
    override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: manager.destinationContext)
        todo.setValue(source.value(forKey: "title"), forKey: "title")
        // No manager.associate(sourceInstance:withDestinationInstance:for:)
    }
}
todos.entityMigrationPolicyType = ForgetfulPolicy.self
do {
    try NSMigrationManager(sourceModel: v1, destinationModel: v2)
        .migrateStore(
            from: sourceURL, type: .sqlite, mapping: mapping, to: folder.appendingPathComponent("Lost.sqlite"),
            type: .sqlite)
} catch {
    let error = error as NSError
    print(error.code, error.localizedDescription) // 134110 3 of 3 to-dos have no version 2 to-do
}
todos.entityMigrationPolicyType = DoNotAlertForAPolicy.self
// snippet.end

// snippet.errors
do {
    try manager.migrateStore(from: sourceURL, type: .sqlite, mapping: mapping, to: sourceURL, type: .sqlite)
} catch {
    print(error)
    // Core Data error 134110: Migration source and destination URLs must be different (.../ToDo.sqlite):
    // migrate into a new file and replace the old one afterwards
}

let cancelled = folder.appendingPathComponent("Cancelled.sqlite")
manager.progressHandler = { progress in
    if progress.pass == 2 { manager.cancelMigration() }
}
do {
    try manager.migrateStore(from: sourceURL, type: .sqlite, mapping: mapping, to: cancelled, type: .sqlite)
} catch {
    print(error, FileManager.default.fileExists(atPath: cancelled.path))
    // Core Data error 134120: The migration was cancelled false
}
manager.progressHandler = nil
// snippet.end

// snippet.expressionErrors
let typo = NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
typo.entityMappingsByName["ToDoToToDo"]!.attributeMappings[0] = try NSPropertyMapping(
    name: "title", valueExpressionFormat: "$source.titel")
do {
    try manager.migrateStore(
        from: sourceURL, type: .sqlite, mapping: typo, to: folder.appendingPathComponent("Typo.sqlite"), type: .sqlite)
} catch {
    print(error)
    // Core Data exception NSUnknownKeyException: The entity ToDo has no property named titel; its properties are
    // title, dueDate, completed, category
}

let unknown = NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
let unknownToDos = unknown.entityMappingsByName["ToDoToToDo"]!
unknownToDos.entityMigrationPolicyType = AlertRules.self
unknownToDos.attributeMappings[4] = try NSPropertyMapping(
    name: "doNotAlert", valueExpressionFormat: #"FUNCTION($entityPolicy, "doNotAlertForName:", $source.title)"#)
do {
    try manager.migrateStore(
        from: sourceURL, type: .sqlite, mapping: unknown, to: folder.appendingPathComponent("Unknown.sqlite"),
        type: .sqlite)
} catch {
    print(error)
    // Core Data error 134170: The entity mapping ToDoToToDo failed: FUNCTION selector
    // "doNotAlertForName:" is not registered; register it with FunctionRegistry.register(...
}

let unregistered = NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
unregistered.entityMappingsByName["ToDoToToDo"]!.entityMigrationPolicyClassName = "ToDo.ToDoPolicy"
do {
    try manager.migrateStore(
        from: sourceURL, type: .sqlite, mapping: unregistered, to: folder.appendingPathComponent("Unregistered.sqlite"),
        type: .sqlite)
} catch {
    print(error)
    // Core Data error 134170: The entity mapping ToDoToToDo names the policy class ToDo.ToDoPolicy,
    // which is not registered: call EntityMigrationPolicy.register(ToDoPolicy.self, as:
    // "ToDo.ToDoPolicy") first, or set entityMigrationPolicyType
}
// snippet.end

// snippet.validation
let strict = try toDoModel("2", withAlerts: true, maxTitleLength: 10) // same hashes as v2
do {
    try NSMigrationManager(sourceModel: v1, destinationModel: strict)
        .migrateStore(
            from: sourceURL, type: .sqlite, mapping: mapping, to: folder.appendingPathComponent("Strict.sqlite"),
            type: .sqlite)
} catch {
    print(error)
    // Core Data error 1560: Multiple validation errors occurred:
    //   - Core Data error 1660: ToDo.title of x-coredata://.../ToDo/p1: "Answer mail" is longer than 10 characters
    //   - Core Data error 1660: ToDo.title of x-coredata://.../ToDo/p3: "apply patch" is longer than 10 characters
}
// snippet.end

// snippet.missing
let v2Edited = try NSManagedObjectModel(versionIdentifier: "2") {
    NSEntityDescription("Category") {
        NSAttributeDescription("name", .string)
        NSAttributeDescription("colour", .string) // added after the mapping model
        NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category")
    }
    NSEntityDescription("ToDo") {
        NSAttributeDescription("title", .string)
        NSAttributeDescription("dueDate", .date)
        NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
        NSAttributeDescription("lastAlertDate", .date)
        NSAttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
        NSRelationshipDescription("category", toOne: "Category", inverse: "todos")
    }
}
let versions = try VersionedModel(
    name: "ToDo", versions: [("ToDo", v1), ("ToDo 2", v2Edited)],
    currentVersionName: "ToDo 2", mappingModels: [mapping])
do {
    try NSPersistentStoreCoordinator(versionedModel: versions).addPersistentStore(
        type: .sqlite, at: sourceURL, options: [NSMigratePersistentStoresAutomaticallyOption: true])
} catch {
    print(error)
    // Core Data error 134140: Can't find mapping model for migration from ToDo to ToDo 2: add a
    // MappingModel to the versioned model's mappingModels, or set inferMappingModelAutomatically
    // for a lightweight migration
}
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
