// scaling-1: Open a store by URL
//
// Return an NSPersistentContainer on the ToDo model (version 2), its one store the PostgreSQL
// store at the postgres:// URL you are given, loaded.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData
import WorkbookSupport

/// scaling-1. A description is a SQLite store until its type says otherwise.
func openToDoStore(at url: URL) throws -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "ToDo", managedObjectModel: try ToDoModels.version2())
    let description = NSPersistentStoreDescription(url: url)
    description.type = .postgres
    container.persistentStoreDescriptions = [description]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}
