// Model versions, version hashes and store metadata, the 134100 error, automatic lightweight
// migration with a container or with store options, a pre-flight check, what cannot be
// inferred (134140), renaming identifiers and a progressive migration along three versions.
import CoreData

import struct ObjectGraph.MigrationProgress
import typealias ObjectGraph.MigrationProgressHandler
import struct ObjectGraph.ModelBundle
import enum ObjectGraph.StoreOption
// ObjectGraph's declarations for what Apple's Core Data keeps inside a compiled .momd or does not
// offer: VersionedModel (a model's versions and their migration steps), ModelBundle (an
// .xcdatamodeld written from code), and a migration's progress told to a handler (in a store
// description or under StoreOption.migrationProgressHandler). Each declaration, not the module,
// which would bring Foundation's names beside CoreData's.
import class ObjectGraph.VersionedModel

// snippet.hide
let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("objectgraph-migration-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
// snippet.show
// snippet.versions
let v1 = try NSManagedObjectModel(versionIdentifier: "1") {
    NSEntityDescription("Category") {
        NSAttributeDescription("name", .string)
        NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category")
    }
    NSEntityDescription("ToDo") {
        NSAttributeDescription("title", .string)
        NSAttributeDescription("dueDate", .date)
        NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
        NSRelationshipDescription("category", toOne: "Category", inverse: "todos")
    }
}
let v2 = try NSManagedObjectModel(versionIdentifier: "2") {
    NSEntityDescription("Category") {
        NSAttributeDescription("name", .string)
        NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category")
    }
    NSEntityDescription("ToDo") {
        NSAttributeDescription("title", .string)
        NSAttributeDescription("dueDate", .date)
        NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
        NSAttributeDescription("lastAlertDate", .date) // new, optional
        NSAttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false) // new, with a default
        NSRelationshipDescription("category", toOne: "Category", inverse: "todos")
    }
}
let versions = try VersionedModel(name: "ToDo", versions: [("ToDo", v1), ("ToDo 2", v2)], currentVersionName: "ToDo 2")
// snippet.end

// snippet.hide
/// A store that version 1 made, with two categories and three to-dos.
func seedVersion1Store(_ url: URL, type: NSPersistentStore.StoreType = .sqlite) throws {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v1)
    try coordinator.addPersistentStore(type: type, at: url)
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
let storeURL = folder.appendingPathComponent("ToDo.sqlite")
try seedVersion1Store(storeURL)
// snippet.show

// snippet.xcode
let bundleURL = folder.appendingPathComponent("ToDo.xcdatamodeld")
try ModelBundle(versions: [("ToDo", v1), ("ToDo 2", v2)], currentVersionName: "ToDo 2").write(to: bundleURL)

let fromXcode = try VersionedModel(contentsOf: bundleURL)
print(fromXcode.name, fromXcode.versionNames, fromXcode.currentVersionName) // ToDo ["ToDo", "ToDo 2"] ToDo 2
print(fromXcode.versionHashes == versions.versionHashes) // true
// snippet.end

// snippet.hashes
print(v1.entityVersionHashesByName["Category"] == v2.entityVersionHashesByName["Category"]) // true
print(v1.entityVersionHashesByName["ToDo"] == v2.entityVersionHashesByName["ToDo"]) // false

let v1Edited = try NSManagedObjectModel(versionIdentifier: "1.1") {
    NSEntityDescription("Category") {
        NSAttributeDescription("name", .string, defaultValue: "Inbox", indexed: true) // same hash
        NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category", deleteRule: .cascade)
    }
    NSEntityDescription("ToDo") {
        NSAttributeDescription("title", .string, maxValue: 200) // same hash
        NSAttributeDescription("dueDate", .date)
        NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
        NSRelationshipDescription("category", toOne: "Category", inverse: "todos")
    }
}
print(v1Edited.entityVersionHashesByName == v1.entityVersionHashesByName) // true
// snippet.end

// snippet.metadata
let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: storeURL)
print((metadata[NSStoreModelVersionHashesKey] as? [String: Data])?.keys.sorted() ?? []) // ["Category", "ToDo"]
print(v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)) // true
print(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)) // false: migrate first
print(versions.versionName(forStoreMetadata: metadata) ?? "no version made it") // ToDo
// snippet.end

// snippet.incompatible
do {
    let plain = NSPersistentStoreCoordinator(managedObjectModel: v2)
    try plain.addPersistentStore(type: .sqlite, at: storeURL)
} catch {
    print(error)
    // Core Data error 134100: The model used to open the store at .../ToDo.sqlite is incompatible
    // with the one used to create the store: entities that differ: ToDo (changed). Open it with
    // the options migratePersistentStoresAutomatically and inferMappingModelAutomatically (a
    // PersistentContainer sets both) and the model's versions, or with the model that created it
}
// snippet.end

// snippet.preflight
let steps = try versions.migrationSteps(forStoreMetadata: metadata)
print(steps) // [ToDo -> ToDo 2 (lightweight)]
// snippet.end

// snippet.container
let container = NSPersistentContainer(name: "ToDo", versionedModel: versions)
var description = NSPersistentStoreDescription(url: storeURL)
var reports: [MigrationProgress] = []
description.migrationProgressHandler = { reports.append($0) }
container.persistentStoreDescriptions = [description]
container.loadPersistentStores { _, error in // migrates the version 1 store, then adds it
    if let error { fatalError("\(error)") }
}

let todos = try container.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "ToDo"))
print(todos.map { $0.value(forKey: "doNotAlert") as? Bool ?? true }) // [false, false, false]
print(reports.first?.fractionCompleted ?? -1, reports.last?.fractionCompleted ?? -1) // 0.0 1.0
// snippet.end

// snippet.options
let xmlURL = folder.appendingPathComponent("ToDo.xml")
// snippet.hide
try seedVersion1Store(xmlURL, type: .xml)
// snippet.show
var last: MigrationProgress?
let coordinator = NSPersistentStoreCoordinator(versionedModel: versions)
try coordinator.addPersistentStore(
    type: .xml, at: xmlURL,
    options: [
        NSMigratePersistentStoresAutomaticallyOption: true,
        NSInferMappingModelAutomaticallyOption: true,
        StoreOption.migrationProgressHandler: { last = $0 } as MigrationProgressHandler,
    ])
print(last?.fractionCompleted ?? 0, last?.pass ?? 0, last?.totalUnits ?? 0) // 1.0 3 15
// snippet.end

// snippet.cannotInfer
let v2Changed = try NSManagedObjectModel(versionIdentifier: "2b") {
    NSEntityDescription("Category") {
        NSAttributeDescription("name", .string)
        NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category")
    }
    NSEntityDescription("ToDo") {
        NSAttributeDescription("title", .string)
        NSAttributeDescription("dueDate", .date)
        NSAttributeDescription("completed", .string) // was Boolean
        NSAttributeDescription("priority", .integer16, optional: false) // required, no default
        NSRelationshipDescription("category", toOne: "Category", inverse: "todos")
    }
}
let oldURL = folder.appendingPathComponent("Old.sqlite")
// snippet.hide
try seedVersion1Store(oldURL)
// snippet.show
let changedVersions = try VersionedModel(
    name: "ToDo", versions: [("ToDo", v1), ("ToDo 2b", v2Changed)],
    currentVersionName: "ToDo 2b")
do {
    _ = try changedVersions.migrationSteps(
        forStoreMetadata: NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: oldURL))
} catch {
    print(error)
    // Core Data error 134140: Can't find or automatically infer mapping model for migration from
    // ToDo to ToDo 2b. Can't infer a mapping model: ToDo.completed changed type from Boolean to
    // String: write a mapping model whose value expression converts it, or add a new attribute;
    // ToDo.priority is new and required but has no default value for the existing objects: give
    // it a default value or make it optional. Write a MappingModel for this step and add it to
    // the versioned model's mappingModels
}
do {
    try NSPersistentStoreCoordinator(versionedModel: changedVersions).addPersistentStore(
        type: .sqlite, at: oldURL,
        options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
        ])
} catch {
    print((error as NSError).code) // 134140: the same error when the store is added
}
let untouched = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: oldURL)
print(changedVersions.versionName(forStoreMetadata: untouched) ?? "-") // ToDo: still version 1's store
// snippet.end

// snippet.renaming
let v3 = try NSManagedObjectModel(versionIdentifier: "3") {
    NSEntityDescription("Folder", renamingIdentifier: "Category") {
        NSAttributeDescription("name", .string)
        NSAttributeDescription("colour", .string, defaultValue: "grey")
        NSRelationshipDescription("todos", toMany: "ToDo", inverse: "folder")
    }
    NSEntityDescription("ToDo") {
        NSAttributeDescription("name", .string, renamingIdentifier: "title")
        NSAttributeDescription("dueDate", .date)
        NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
        NSAttributeDescription("lastAlertDate", .date)
        NSAttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
        NSRelationshipDescription("folder", toOne: "Folder", inverse: "todos", renamingIdentifier: "category")
    }
}
// snippet.end

// snippet.progressive
let threeVersions = try VersionedModel(
    name: "ToDo", versions: [("ToDo", v1), ("ToDo 2", v2), ("ToDo 3", v3)], currentVersionName: "ToDo 3",
    mappingModels: [NSMappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)])
let oldMetadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: oldURL)
print(try threeVersions.migrationSteps(forStoreMetadata: oldMetadata))
// [ToDo -> ToDo 2 (mapping model), ToDo 2 -> ToDo 3 (lightweight)]

let current = NSPersistentStoreCoordinator(versionedModel: threeVersions)
try current.addPersistentStore(
    type: .sqlite, at: oldURL,
    options: [
        NSMigratePersistentStoresAutomaticallyOption: true,
        NSInferMappingModelAutomaticallyOption: true,
        StoreOption.migrationProgressHandler: { (progress: MigrationProgress) in
            if progress.fractionCompleted == 1 { print("step \(progress.step) of \(progress.stepCount) done") }
        } as MigrationProgressHandler,
    ])
// step 2 of 2 done
let folders = NSFetchRequest<NSManagedObject>(entityName: "Folder")
folders.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
context.persistentStoreCoordinator = current
print(
    try context.fetch(folders).map {
        "\($0.value(forKey: "name") ?? "-"): \($0.mutableSetValue(forKey: "todos").count)"
    })
// ["Home: 1", "Work: 2"]
// snippet.end

// snippet.step
let oneStep = try threeVersions.migrationStep(from: "ToDo 2", to: "ToDo 3")
print(oneStep, oneStep.mappingModel.entityMappings.map(\.name))
// ToDo 2 -> ToDo 3 (lightweight) ["IEM_Transform_Folder", "IEM_Transform_ToDo"]
// snippet.end
// snippet.hide
try FileManager.default.removeItem(at: folder)
