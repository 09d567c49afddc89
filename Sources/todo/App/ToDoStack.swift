import Foundation
import ObjectGraph
import WorkbookSupport

/// The Core Data stack of the program, as Zarra builds it: the model of the version the
/// program runs as, a coordinator, the store in the user's data folder, and one context.
final class ToDoStack {
    let environment: ToDoEnvironment
    let version: Int
    let model: ManagedObjectModel
    let context: ManagedObjectContext
    let store: PersistentStore

    private init(environment: ToDoEnvironment, version: Int, model: ManagedObjectModel,
                 context: ManagedObjectContext, store: PersistentStore) {
        self.environment = environment
        self.version = version
        self.model = model
        self.context = context
        self.store = store
    }

    /// Opens the store the options name, creating it (and its folder) the first time. A store
    /// written by an older version of the model is migrated first, and the program says so.
    static func open(_ options: StoreOptions, environment: ToDoEnvironment = .current) throws -> ToDoStack {
        let url = options.storeURL(in: environment)
        let type = options.storeType.storeType
        let model = try ToDoModels.model(version: options.modelVersion)
        if Self.storeExists(at: url) {
            let storeVersion = try Self.version(ofStoreAt: url, type: type)
            if storeVersion > options.modelVersion {
                throw ToDoError("""
                    The store at \(url.path) was written by version \(storeVersion) of the ToDo model, \
                    and version \(options.modelVersion) cannot read it (Core Data error 134100). \
                    Run without --model-version \(options.modelVersion), or use another --store.
                    """)
            }
            if storeVersion < options.modelVersion {
                try ToDoMigration.migrate(storeAt: url, type: type, from: storeVersion, to: options.modelVersion,
                                          policy: .defaultMapping, environment: environment)
            }
        } else {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: type, at: url)
        return ToDoStack(environment: environment, version: options.modelVersion, model: model,
                         context: ManagedObjectContext(coordinator: coordinator), store: store)
    }

    /// Whether there is a store at `url`: an empty file, which a process killed while creating
    /// the store leaves, is no store yet, and adding it makes a new one.
    static func storeExists(at url: URL) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
        return (size ?? 0) > 0
    }

    /// Which version of the ToDo model wrote the store, told by the entity version hashes in
    /// its metadata.
    static func version(ofStoreAt url: URL, type: StoreType) throws -> Int {
        let metadata: [String: Any]
        do {
            metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        } catch let error as CoreDataError {
            let other = type == .sqlite ? "xml" : "sqlite"
            throw ToDoError("Can't open the ToDo store: \(error.message). If it is a\(other == "xml" ? "n" : "") \(other) store, add --store-type \(other); otherwise use another --store.")
        }
        let hashes = metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
        for number in ToDoModels.versionNames.indices.map({ $0 + 1 }) where try ToDoModels.model(version: number).entityVersionHashesByName == hashes {
            return number
        }
        throw ToDoError("The store at \(url.path) was not written by any version of the ToDo model (its entities are \(hashes.keys.sorted().joined(separator: ", "))). Use another --store.")
    }

    /// The to-do whose number (`#N` in `todo list`) is `number`.
    func todo(number: Int64) throws -> ManagedObject {
        try object(entity: "ToDo", number: number, kind: "to-do", listCommand: "todo list")
    }

    /// The category named `name`.
    func category(named name: String) throws -> ManagedObject {
        let request = FetchRequest(entityName: "Category")
        request.predicate = try Predicate(format: "name == %@", name)
        guard let category = try context.fetch(request).first else {
            throw ToDoError("There is no category \"\(name)\". `todo categories` lists them; `todo categories add \(Self.quoted(name))` adds it.")
        }
        return category
    }

    private func object(entity: String, number: Int64, kind: String, listCommand: String) throws -> ManagedObject {
        let uri = URL(string: "x-coredata://\(store.identifier)/\(entity)/p\(number)")!
        guard number > 0, let id = context.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri),
              let object = try? context.existingObject(with: id) else {
            throw ToDoError("There is no \(kind) #\(number). `\(listCommand)` shows their numbers.")
        }
        return object
    }

    /// A to-do's number: its primary key in the store.
    static func number(of object: ManagedObject) -> Int64 { object.objectID.primaryKey }

    /// A name quoted for the shell when it needs it.
    static func quoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ? text : "\"\(text)\""
    }

    /// Prints a line.
    func say(_ line: String) { environment.write(line) }
}
