// A child process for the crash-safety test of migration: it opens a ToDo version 1 store
// with the version 2 model and automatic migration (lightweight, or through Zarra's custom
// policy), until the parent kills it.
//
//     objectgraph-migration-child <store path> lightweight|custom
import Foundation
import ObjectGraph

/// Zarra's policy, as in the tests: doNotAlert for titles beginning with "a".
final class ToDoPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        let todo = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
        let title = (try source.value(forKey: "title") as? String ?? "").lowercased()
        try todo.setValue(title.hasPrefix("a"), forKey: "doNotAlert")
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, ["lightweight", "custom"].contains(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: objectgraph-migration-child <store path> lightweight|custom\n".utf8))
    exit(2)
}
do {
    func model(version: Int) throws -> ManagedObjectModel {
        try ManagedObjectModel(versionIdentifier: "\(version)") {
            EntityDescription("Category") {
                AttributeDescription("name", .string)
                RelationshipDescription("todos", toMany: "ToDo", inverse: "category")
            }
            EntityDescription("ToDo") {
                AttributeDescription("title", .string)
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                if version == 2 {
                    AttributeDescription("lastAlertDate", .date)
                    AttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
                }
                RelationshipDescription("category", toOne: "Category", inverse: "todos")
            }
        }
    }
    let v1 = try model(version: 1), v2 = try model(version: 2)
    var mappings: [MappingModel] = []
    if arguments[2] == "custom" {
        let mapping = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
        mapping.entityMappingsByName["ToDoToToDo"]!.entityMigrationPolicyType = ToDoPolicy.self
        mappings = [mapping]
    }
    let versions = try VersionedModel(name: "ToDo", versions: [("1", v1), ("2", v2)], currentVersionName: "2", mappingModels: mappings)
    let coordinator = PersistentStoreCoordinator(versionedModel: versions)
    try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[1]), options: [
        StoreOption.migratePersistentStoresAutomatically: true,
        StoreOption.inferMappingModelAutomatically: true,
    ])
    FileHandle.standardOutput.write(Data("migrated\n".utf8))
} catch {
    FileHandle.standardError.write(Data("migration child failed: \(error)\n".utf8))
    exit(1)
}
