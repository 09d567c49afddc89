// A child process for the crash-safety test of migration: it opens a ToDo version 1 store
// with the version 2 model and automatic migration (lightweight, or through Zarra's custom
// policy), until the parent kills it. The store is a SQLite file, or a PostgreSQL store when
// given a postgres:// URL.
//
//     objectgraph-migration-child <store path or postgres:// URL> lightweight|custom
import Foundation
import ObjectGraph
import ObjectGraphPostgres
// Zarra's ToDo model and Listing 12 policy, the one definition (Sources/ZarraToDo).
import ZarraToDo

let arguments = CommandLine.arguments
guard arguments.count == 3, ["lightweight", "custom"].contains(arguments[2]) else {
    FileHandle.standardError.write(
        Data("usage: objectgraph-migration-child <store path or postgres:// URL> lightweight|custom\n".utf8))
    exit(2)
}
do {
    let v1 = try ToDoModels.version1()
    let v2 = try ToDoModels.version2()
    var mappings: [MappingModel] = []
    if arguments[2] == "custom" {
        mappings = [try ToDoModels.doNotAlertMappingModel()]
    }
    let versions = try VersionedModel(
        name: "ToDo", versions: [("1", v1), ("2", v2)], currentVersionName: "2", mappingModels: mappings)
    let coordinator = PersistentStoreCoordinator(versionedModel: versions)
    var description: PersistentStoreDescription
    if arguments[1].hasPrefix("postgres://") {
        guard let url = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("migration child: \(arguments[1]) is not a URL\n".utf8))
            exit(2)
        }
        description = .postgres(url: url)
    } else {
        description = PersistentStoreDescription(type: .sqlite, url: URL(fileURLWithPath: arguments[1]))
    }
    description.shouldMigrateStoreAutomatically = true
    description.shouldInferMappingModelAutomatically = true
    try coordinator.addPersistentStore(with: description)
    FileHandle.standardOutput.write(Data("migrated\n".utf8))
} catch {
    FileHandle.standardError.write(Data("migration child failed: \(error)\n".utf8))
    exit(1)
}
