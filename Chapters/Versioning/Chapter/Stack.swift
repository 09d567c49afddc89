import ObjectGraph
import WorkbookSupport

/// Zarra's stack: a model, a coordinator with an XML store in the application's data folder,
/// and a context.
enum Stack {
    /// Opens (creating it the first time) the ToDo store in `folder` with `model`.
    static func open(in folder: URL, model: ManagedObjectModel, type: StoreType = .xml,
                     options fixedUUID: [String: Any]) throws -> ManagedObjectContext {
        // ANCHOR: stack
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let storeURL = folder.appendingPathComponent(type == .xml ? "ToDo.xml" : "ToDo.sqlite")
        try coordinator.addPersistentStore(type: type, at: storeURL, options: fixedUUID)
        let context = ManagedObjectContext(coordinator: coordinator)
        // ANCHOR_END: stack
        return context
    }

    static func run(_ bench: Workbench) throws {
        let dataFolder = try bench.makeDataFolder()
        // ANCHOR: stack-version-1
        let model = try ToDoModels.version1()
        let context = try open(in: dataFolder, model: model, options: bench.fixedStoreOptions())
        // ANCHOR_END: stack-version-1
        let store = context.persistentStoreCoordinator.persistentStores[0]
        bench.print("The model's entities: \(model.entities.map(\.name).sorted().joined(separator: ", "))")
        bench.print("The store: \(store.url!.lastPathComponent), type \(store.type.rawValue)")
        try SampleData.insert(into: context)
        bench.print("Saved \(try context.count(for: FetchRequest(entityName: "ToDo"))) to-dos in \(try context.count(for: FetchRequest(entityName: "Category"))) categories.")
        bench.print("")
        bench.print("The store's metadata, as the file records it:")
        for line in SampleData.describeMetadata(try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: store.url!)) {
            bench.print("  " + line)
        }
    }
}
