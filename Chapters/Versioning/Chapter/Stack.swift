import CoreData
import WorkbookSupport

// ANCHOR: stack
/// Zarra's stack: a coordinator for `model` with the ToDo store in `folder` (an XML file, as
/// in the article, unless `type` says otherwise), created the first time, and a context.
func openToDoStore(
    in folder: URL, model: NSManagedObjectModel,
    type: NSPersistentStore.StoreType = .xml
) throws -> NSManagedObjectContext {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    let storeURL = folder.appendingPathComponent(type == .xml ? "ToDo.xml" : "ToDo.sqlite")
    try coordinator.addPersistentStore(type: type, at: storeURL)
    let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return context
}
// ANCHOR_END: stack

/// The stack of version 1, the to-dos saved in it, and what the store's file records.
enum Stack {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's own code would; here it goes to the
        // section's output. `folder` stands for the application's data folder: a fresh
        // temporary folder, removed with the workbench.
        let print = bench.print
        let folder = try bench.makeDataFolder()
        // ANCHOR: stack-version-1
        let model = try ToDoModels.version1()
        let context = try openToDoStore(in: folder, model: model)
        try SampleData.insertToDos(into: context)
        // ANCHOR_END: stack-version-1
        print("The model's entities: \(model.entities.map(\.name).sorted().joined(separator: ", "))")
        for store in context.persistentStoreCoordinator.persistentStores {
            print("The store: \(store.url?.lastPathComponent ?? "in memory"), type \(store.type.rawValue)")
        }
        print(
            "Saved \(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ToDo"))) to-dos in \(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Category"))) categories."
        )
        print("")
        print("The store's metadata, as the file records it:")
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(
            type: .xml, at: folder.appendingPathComponent("ToDo.xml"))
        for line in SampleData.describeMetadata(metadata) {
            print("  " + line)
        }
    }
}
