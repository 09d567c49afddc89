// A child process for the crash-safety test of migration: it opens a ToDo version 1 store
// with the version 2 model and automatic migration (lightweight, or through Zarra's custom
// policy), until the parent kills it.
//
//     objectgraph-migration-child <store path> lightweight|custom
import Foundation
import ObjectGraph
// Zarra's ToDo model and Listing 12 policy, the one definition (Sources/ZarraToDo).
import ZarraToDo

let arguments = CommandLine.arguments
guard arguments.count == 3, ["lightweight", "custom"].contains(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: objectgraph-migration-child <store path> lightweight|custom\n".utf8))
    exit(2)
}
do {
    let v1 = try ToDoModels.version1(), v2 = try ToDoModels.version2()
    var mappings: [MappingModel] = []
    if arguments[2] == "custom" {
        mappings = [try ToDoModels.doNotAlertMappingModel()]
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
