import CoreData
import WorkbookSupport

/// The Core Data stack of the program, as Zarra builds it: the model of the version the
/// program runs as, a coordinator, the store in the user's data folder, and one context.
final class ToDoStack {
    let environment: ToDoEnvironment
    let version: Int
    let model: NSManagedObjectModel
    let context: NSManagedObjectContext
    let store: NSPersistentStore

    private init(
        environment: ToDoEnvironment, version: Int, model: NSManagedObjectModel,
        context: NSManagedObjectContext, store: NSPersistentStore
    ) {
        self.environment = environment
        self.version = version
        self.model = model
        self.context = context
        self.store = store
    }

    /// Whether a command may make a new store where none is.
    enum Access {
        /// Adding makes the store: at `--store PATH` as in the default folder.
        case creating
        /// The store must be there when `--store` names it: a path with no store is a typo
        /// more often than a wish for an empty store. The default store, the program's own,
        /// is made on first use, as Core Data's container makes an app's store on first launch.
        case existing
        /// As `existing`, except that a missing default store reads as an empty one and is
        /// not made: listing and showing never create a file, folder or lock file.
        case reading
    }

    /// Opens the store the options name and runs `body` on it. A store written by an older
    /// version of the model is migrated first, and the program says so. When `body` fails,
    /// a store this call made is removed again, with the folders made for it: a failed
    /// command leaves no file behind.
    static func open(
        _ options: StoreOptions, access: Access = .existing, environment: ToDoEnvironment = .current,
        _ body: (ToDoStack) throws -> Void
    ) throws {
        let url = options.storeURL(in: environment)
        // A PostgreSQL store is a schema, made when first added: no file, no folder to prepare.
        guard url.isFileURL else {
            try body(try open(options, at: url, environment: environment))
            return
        }
        if access == .reading, options.store == nil, !storeExists(at: url) {
            try body(try emptyStack(options, environment: environment))
            return
        }
        let existed = FileManager.default.fileExists(atPath: url.path)
        let madeFolders = try prepare(url, options: options, access: access)
        do {
            try body(try open(options, at: url, environment: environment))
        } catch {
            // The store goes with its SQLite journal files. Only a store still empty goes:
            // another process may have made the same store meanwhile and saved into it, and
            // its data stays. The XML store's `.lock` sidecar stays: removing a lock file races
            // with a process about to take it (see AtomicStoreLock). Folders go only when empty.
            if !existed, (try? isEmptyStore(at: url, options: options)) ?? false {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: url.path + suffix)
                }
                for folder in madeFolders { rmdir(folder.path) }
            }
            throw error
        }
    }

    /// Whether the store at `url` holds no to-do and no category (or is not there at all).
    private static func isEmptyStore(at url: URL, options: StoreOptions) throws -> Bool {
        guard storeExists(at: url) else { return true }
        let coordinator = NSPersistentStoreCoordinator(
            managedObjectModel: try typedModel(version: options.modelVersion))
        try coordinator.addPersistentStore(type: try options.storeType(at: url).storeType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.count(for: ToDo.fetchRequest()) == 0 && context.count(for: Category.fetchRequest()) == 0
    }

    /// Checks that `url` can hold the store, and makes its folder when the store is new:
    /// returns the folders it made, innermost first.
    private static func prepare(_ url: URL, options: StoreOptions, access: Access) throws -> [URL] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw ToDoError(
                "\(url.path) is a folder, not a store file. Name a file in it: --store \(quoted(url.appendingPathComponent("ToDo.xml").path))"
            )
        }
        if storeExists(at: url) { return [] }
        if access != .creating, options.store != nil {
            throw ToDoError(
                "There is no store at \(url.path). Check the path; to make a new store there, add a to-do: \(options.addCommand())"
            )
        }
        var missing: [URL] = []
        var folder = url.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" {
            missing.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            for made in missing { try? FileManager.default.removeItem(at: made) }
            throw ToDoError(
                "Can't make the folder \(url.deletingLastPathComponent().path) for the store: \(error.localizedDescription). Give another --store."
            )
        }
        return missing
    }

    /// A stack on an empty in-memory store: what reading a default store that is not there yet
    /// shows, with nothing made on disk.
    private static func emptyStack(_ options: StoreOptions, environment: ToDoEnvironment) throws -> ToDoStack {
        try stack(model: try typedModel(version: options.modelVersion), options, environment: environment) {
            try $0.addPersistentStore(type: .inMemory, at: nil)
        }
    }

    /// The stack on `model`: a coordinator, the store `add` gives it, and a confinement context
    /// (the command uses it on its one thread, as a command-line program may).
    private static func stack(
        model: NSManagedObjectModel, _ options: StoreOptions, environment: ToDoEnvironment,
        adding add: (NSPersistentStoreCoordinator) throws -> NSPersistentStore
    ) throws -> ToDoStack {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try add(coordinator)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return ToDoStack(
            environment: environment, version: options.modelVersion, model: model, context: context, store: store)
    }

    /// Opens the store at `url`, migrating it first when an older version of the model wrote it.
    private static func open(_ options: StoreOptions, at url: URL, environment: ToDoEnvironment) throws -> ToDoStack {
        let type = try options.storeType(at: url).storeType
        let model = try typedModel(version: options.modelVersion)
        if Self.storeExists(at: url) {
            let storeVersion = try Self.version(ofStoreAt: url, type: type)
            if storeVersion > options.modelVersion {
                throw ToDoError(
                    """
                    The store at \(url.path) was written by version \(storeVersion) of the ToDo model, \
                    and version \(options.modelVersion) cannot read it (Core Data error 134100). \
                    Run without --model-version \(options.modelVersion), or use another --store.
                    """)
            }
            if storeVersion < options.modelVersion {
                try ToDoMigration.migrate(
                    storeAt: url, type: type, from: storeVersion, to: options.modelVersion,
                    policy: .defaultMapping, environment: environment)
            }
        }
        // SQLite and PostgreSQL stores keep persistent history, so that `todo watch` learns what other
        // processes saved (Watch.swift, OtherProcessesChanges).
        let tracksHistory = type == .sqlite || type == .postgres
        let storeOptions: [String: Any] = tracksHistory ? [NSPersistentHistoryTrackingKey: true] : [:]
        return try stack(model: model, options, environment: environment) {
            try $0.addPersistentStore(type: type, at: url, options: storeOptions)
        }
    }

    /// The model the program runs as: the version's, its entities making objects of the
    /// generated classes ToDo and Category (Sources/ZarraToDo/Generated), so that the commands
    /// read and write typed properties. Running as version 1, the commands leave alone the two
    /// properties version 1 lacks (`lastAlertDate`, `doNotAlert`).
    static func typedModel(version: Int) throws -> NSManagedObjectModel {
        try ToDoModels.model(version: version, classes: ToDoModelClasses.byName)
    }

    /// Whether there is a store at `url`: an empty file, which a process killed while creating
    /// the store leaves, is no store yet, and adding it makes a new one.
    static func storeExists(at url: URL) -> Bool {
        // A PostgreSQL store exists when its schema holds one (its metadata reads).
        if !url.isFileURL {
            return (try? NSPersistentStoreCoordinator.metadataForPersistentStore(type: .postgres, at: url)) != nil
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
        return (size ?? 0) > 0
    }

    /// Which version of the ToDo model wrote the store, told by the entity version hashes in
    /// its metadata.
    static func version(ofStoreAt url: URL, type: NSPersistentStore.StoreType) throws -> Int {
        let metadata: [String: Any]
        do {
            metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        } catch let error where (error as NSError).code == NSPersistentStoreInvalidTypeError {
            throw ToDoError(
                "Can't open the ToDo store: \(url.path) is neither a SQLite nor an XML store. Use another --store.")
        } catch let error where (error as NSError).domain == NSCocoaErrorDomain {
            throw ToDoError("Can't open the ToDo store: \(error.localizedDescription). Use another --store.")
        }
        let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        // The compatibility check, not a plain comparison: a store that an earlier ObjectGraph
        // wrote, with its old hashes, is still that version's (opening it rewrites them).
        for number in ToDoModels.versionNames.indices.map({ $0 + 1 })
        where try ToDoModels.model(version: number).isConfiguration(
            withName: nil, compatibleWithStoreMetadata: metadata)
        {
            return number
        }
        throw ToDoError(
            "The store at \(url.path) was not written by any version of the ToDo model (its entities are \(hashes.keys.sorted().joined(separator: ", "))). Use another --store."
        )
    }

    /// The to-do whose number (`#N` in `todo list`) is `number`.
    func todo(number: Int64) throws -> ToDo {
        try object(ToDo.self, number: number, kind: "to-do", listCommand: "todo list")
    }

    /// The category named `name`.
    func category(named name: String) throws -> Category {
        let request = Category.fetchRequest()
        request.predicate = NSPredicate(format: "name == %@", name)
        guard let category = try context.fetch(request).first else {
            throw ToDoError(
                "There is no category \"\(name)\". `todo categories` lists them; `todo categories add \(Self.quoted(name))` adds it."
            )
        }
        return category
    }

    private func object<Object: NSManagedObject>(_ type: Object.Type, number: Int64, kind: String, listCommand: String)
        throws -> Object
    {
        let entity = Object.entity().name
        // The store's identifier comes from its file: a URI that does not parse finds no object.
        guard number > 0, let uri = URL(string: "x-coredata://\(store.identifier)/\(entity)/p\(number)"),
            let id = context.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri),
            let object = try? context.existingObject(with: id) as? Object
        else {
            throw ToDoError("There is no \(kind) #\(number). `\(listCommand)` shows their numbers.")
        }
        return object
    }

    /// A to-do's number: its primary key in the store.
    static func number(of object: NSManagedObject) -> Int64 { number(of: object.objectID) }

    /// The number of the object an ID names: its primary key, the end of its URI (`.../ToDo/p12`).
    static func number(of id: NSManagedObjectID) -> Int64 {
        Int64(id.uriRepresentation().lastPathComponent.dropFirst()) ?? 0
    }

    /// A name quoted for the shell when it needs it.
    static func quoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "-_./+:".contains($0) } ? text : "\"\(text)\""
    }

    /// Where a store is, for messages: its file's path, or a PostgreSQL store's server,
    /// database and schema (never the URL's password).
    static func describe(_ url: URL) -> String {
        guard !url.isFileURL else { return url.path }
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let schema = items.first { $0.name == "schema" }?.value ?? "public"
        return "\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")\(url.path) (schema \(schema))"
    }

    /// Prints a line.
    func say(_ line: String) { environment.write(line) }
}
