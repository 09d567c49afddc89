import Foundation
import GRDB
import Testing

@testable import ObjectGraph

// Store options as typed properties. Apple pages: NSPersistentStoreDescription (type, url,
// isReadOnly, timeout "a convenience method for setting the NSPersistentStoreTimeoutOption",
// sqlitePragmas, setValue(_:forPragmaNamed:) "Pragma options are for SQLite stores only. All
// pragma values must be specified as NSString objects", shouldMigrateStoreAutomatically,
// shouldInferMappingModelAutomatically, options, setOption(_:forKey:));
// NSPersistentStoreCoordinator addPersistentStore(with:completionHandler:); Store options
// (NSReadOnlyPersistentStoreOption, NSPersistentStoreTimeoutOption, NSSQLitePragmasOption).
@Suite struct PersistentStoreDescriptionTests {
    /// The SQLite store behind a store the coordinator added.
    func sqliteBackend(_ store: PersistentStore) throws -> SQLiteStore {
        try #require(store.backend as? SQLiteStore)
    }

    /// One value of a pragma on the store's own connection.
    func pragma(_ name: String, of store: PersistentStore) throws -> String? {
        try sqliteBackend(store).database.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    @Test(
        "An options dictionary is parsed into typed properties, and options gives it back (NSPersistentStoreDescription.options, setOption(_:forKey:))"
    )
    func dictionaryIsAViewOfTheTypedProperties() throws {
        let url = URL(fileURLWithPath: "/tmp/Books.sqlite")
        let description = try PersistentStoreDescription(
            url: url,
            options: [
                StoreOption.readOnly: true,
                StoreOption.timeout: 30, // an Int, as people write it
                StoreOption.persistentHistoryTracking: NSNumber(value: true),
                StoreOption.storeUUID: "00000000-0000-0000-0000-00000000000A",
                StoreOption.sqlitePragmas: ["synchronous": "normal", "cache_size": -4000],
                "SomeOtherOption": "kept",
            ])
        #expect(description.isReadOnly)
        #expect(description.timeout == 30)
        #expect(description.isPersistentHistoryTrackingEnabled)
        #expect(description.storeUUID == "00000000-0000-0000-0000-00000000000A")
        #expect(description.sqlitePragmas == ["synchronous": "NORMAL", "cache_size": "-4000"])
        // Apple's descriptions migrate and infer by default; the dictionary did not say otherwise.
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)

        let options = description.options
        #expect(options["SomeOtherOption"] as? String == "kept")
        #expect(options[StoreOption.readOnly] as? Bool == true)
        #expect(options[StoreOption.timeout] as? TimeInterval == 30)
        #expect(
            options[StoreOption.sqlitePragmas] as? [String: String] == ["synchronous": "NORMAL", "cache_size": "-4000"])
        // The view parses back into the same description.
        let again = try PersistentStoreDescription(url: url, options: options)
        #expect(again.isReadOnly && again.timeout == 30 && again.isPersistentHistoryTrackingEnabled)
        #expect(again.storeUUID == description.storeUUID && again.sqlitePragmas == description.sqlitePragmas)
        #expect(again.options["SomeOtherOption"] as? String == "kept")
    }

    @Test(
        "Setting a typed property shows in options, and setOption(nil) removes an option (NSPersistentStoreDescription.setOption(_:forKey:))"
    )
    func typedPropertiesShowInOptions() throws {
        let description = PersistentStoreDescription(url: nil)
        #expect(description.options[StoreOption.readOnly] == nil)
        description.isReadOnly = true
        description.timeout = 2.5
        #expect(description.options[StoreOption.readOnly] as? Bool == true)
        #expect(description.options[StoreOption.timeout] as? TimeInterval == 2.5)
        try description.checkedSetOption(false, forKey: StoreOption.migratePersistentStoresAutomatically)
        #expect(!description.shouldMigrateStoreAutomatically)
        #expect(description.options[StoreOption.migratePersistentStoresAutomatically] as? Bool == false)
        try description.checkedSetOption("x", forKey: "Unknown")
        try description.checkedSetOption(nil, forKey: "Unknown")
        try description.checkedSetOption(nil, forKey: StoreOption.timeout)
        #expect(description.options["Unknown"] == nil)
        #expect(description.timeout == StoreOption.defaultTimeout)
    }

    @Test(
        "A known key with a value of the wrong type is an error naming the key, and no store is added (Store options)")
    func wrongTypeIsAnErrorNamingTheKey() throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let cases: [(String, Any)] = [
            (StoreOption.readOnly, "yes"),
            (StoreOption.timeout, "ten"),
            (StoreOption.timeout, -1.0),
            (StoreOption.storeUUID, 42),
            (StoreOption.persistentHistoryTracking, "on"),
            (StoreOption.sqlitePragmas, "synchronous=OFF"),
        ]
        for (key, value) in cases {
            let error = try #require(throws: CoreDataError.self) {
                try coordinator.addPersistentStore(
                    type: .sqlite, at: directory.file("Books.sqlite"), options: [key: value])
            }
            #expect(error.exceptionName == .invalidArgument)
            #expect(error.key == key)
            #expect(error.message.contains(key))
        }
        #expect(coordinator.persistentStores.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.file("Books.sqlite").path))
    }

    @Test(
        "setValue(_:forPragmaNamed:) takes the pragmas that tune a connection and refuses the rest, saying why (NSSQLitePragmasOption)"
    )
    func pragmasAreChecked() throws {
        let description = PersistentStoreDescription(url: nil)
        try description.checkedSetValue("normal", forPragmaNamed: "synchronous")
        try description.checkedSetValue("DELETE", forPragmaNamed: "journal_mode")
        try description.checkedSetValue("1", forPragmaNamed: "fullfsync")
        #expect(description.sqlitePragmas == ["synchronous": "NORMAL", "journal_mode": "DELETE", "fullfsync": "1"])
        try description.checkedSetValue(nil, forPragmaNamed: "fullfsync")
        #expect(description.sqlitePragmas["fullfsync"] == nil)

        let refused: [(String, String, String)] = [
            ("journal_mode", "OFF", "takes WAL, DELETE"), // a crash mid-save would damage the store
            ("journal_mode", "MEMORY", "takes WAL, DELETE"),
            ("synchronous", "FULL; DROP TABLE ZBOOK", "takes OFF, NORMAL"), // nothing but a keyword reaches SQL
            ("cache_size", "lots", "takes an integer"),
            ("busy_timeout", "100", "timeout"),
            ("foreign_keys", "ON", "not allowed"),
        ]
        for (name, value, says) in refused {
            let error = try #require(throws: CoreDataError.self) {
                try description.checkedSetValue(value, forPragmaNamed: name)
            }
            #expect(error.exceptionName == .invalidArgument)
            #expect(error.key == "NSSQLitePragmasOption[\(name)]")
            #expect(error.message.contains(name) && error.message.contains(says), "\(error.message)")
        }
        // A refused value leaves the description as it was.
        #expect(description.sqlitePragmas == ["synchronous": "NORMAL", "journal_mode": "DELETE"])
    }

    @Test(
        "A description is a class, as Apple's: changed where a container holds it, copied by copy() and when a store is added (NSPersistentStoreDescription, NSCopying)"
    )
    func aDescriptionIsSharedUntilAStoreIsAdded() throws {
        let directory = try TemporaryDirectory()
        let container = PersistentContainer(name: "Books", managedObjectModel: try booksModel())
        // Apple's "Loading and displaying a large data feed": the container's own description,
        // changed in place, is the one loadPersistentStores adds.
        let description = try #require(container.persistentStoreDescriptions.first)
        description.url = directory.file("Books.sqlite")
        description.setOption(true as NSNumber, forKey: StoreOption.persistentHistoryTracking)
        #expect(container.persistentStoreDescriptions.first?.isPersistentHistoryTrackingEnabled == true)

        let copy = try #require(description.copy() as? PersistentStoreDescription)
        copy.timeout = 1
        #expect(description.timeout == StoreOption.defaultTimeout)
        #expect(copy.isPersistentHistoryTrackingEnabled && copy.url == description.url)

        _ = try container.loadPersistentStores()
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.url == directory.file("Books.sqlite"))
        #expect(store.options?[StoreOption.persistentHistoryTracking] as? Bool == true)
        // The store took a copy: a change made now does not reach it.
        description.isReadOnly = true
        #expect(store.options?[StoreOption.readOnly] == nil)
    }

    @Test(
        "sqlitePragmas run on the store's connection, and journal_mode DELETE leaves no WAL (NSPersistentStoreDescription.sqlitePragmas)"
    )
    func pragmasAreApplied() throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let description = PersistentStoreDescription(url: directory.file("Books.sqlite"))
        try description.checkedSetValue("OFF", forPragmaNamed: "synchronous")
        try description.checkedSetValue("-4000", forPragmaNamed: "cache_size")
        try description.checkedSetValue("DELETE", forPragmaNamed: "journal_mode")
        let store = try coordinator.addPersistentStore(with: description)
        #expect(try pragma("synchronous", of: store) == "0")
        #expect(try pragma("cache_size", of: store) == "-4000")
        #expect(try pragma("journal_mode", of: store) == "delete")
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Publisher").checkedSetValue("Apress", forKey: "name")
        try context.save()
        #expect(!FileManager.default.fileExists(atPath: directory.file("Books.sqlite-wal").path))

        // Without pragmas the store is in WAL mode with SQLite's own settings.
        let other = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let plain = try other.addPersistentStore(with: PersistentStoreDescription(url: directory.file("Plain.sqlite")))
        #expect(try pragma("journal_mode", of: plain) == "wal")
    }

    @Test("Pragmas given in the options dictionary run too, and a refused one fails the add (NSSQLitePragmasOption)")
    func pragmasFromTheDictionary() throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let error = try #require(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(
                type: .sqlite, at: directory.file("Books.sqlite"),
                options: [StoreOption.sqlitePragmas: ["journal_mode": "OFF"]])
        }
        #expect(error.key == "NSSQLitePragmasOption[journal_mode]")
        let store = try coordinator.addPersistentStore(
            type: .sqlite, at: directory.file("Books.sqlite"),
            options: [StoreOption.sqlitePragmas: ["temp_store": "MEMORY"]])
        #expect(try pragma("temp_store", of: store) == "2")
    }

    @Test(
        "timeout is the SQLite connection's busy timeout, and 0 fails at once with SQLITE_BUSY (NSPersistentStoreDescription.timeout)"
    )
    func timeoutIsTheBusyTimeout() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Books.sqlite")
        let description = PersistentStoreDescription(url: url)
        description.timeout = 30
        let waiting = try PersistentStoreCoordinator(managedObjectModel: try booksModel()).addPersistentStore(
            with: description)
        guard case .timeout(let seconds) = try sqliteBackend(waiting).database.configuration.busyMode else {
            Issue.record("the connection does not wait for a lock")
            return
        }
        #expect(seconds == 30)

        description.timeout = 0
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try coordinator.addPersistentStore(with: description)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Publisher").checkedSetValue("Apress", forKey: "name")
        // Another connection holds the write lock while this one saves.
        let holder = try DatabaseQueue(path: url.path)
        var thrown: CoreDataError?
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            do { try context.save() } catch let error as CoreDataError { thrown = error }
            try db.execute(sql: "ROLLBACK")
        }
        let error = try #require(thrown)
        #expect(error.code == .sqlite)
        #expect(error.sqliteCode == 5)
    }

    @Test("isReadOnly opens the store to read only: a save fails with 134030 (NSPersistentStoreDescription.isReadOnly)")
    func readOnlyFromTheDescription() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Books.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
            try coordinator.addPersistentStore(with: PersistentStoreDescription(url: url))
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.insertNewObject(forEntityName: "Publisher").checkedSetValue("Apress", forKey: "name")
            try context.save()
        }
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let store = try coordinator.addPersistentStore(with: description)
        #expect(try sqliteBackend(store).isReadOnly)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "Publisher")) == 1)
        try context.insertNewObject(forEntityName: "Publisher").checkedSetValue("Wiley", forKey: "name")
        let error = try #require(throws: CoreDataError.self) { try context.save() }
        #expect(error.code == .persistentStoreSave)
    }

    @Test(
        "History tracking and the store UUID come from the description, for SQLite and atomic stores (NSPersistentHistoryTrackingKey)"
    )
    func historyAndUUIDFromTheDescription() throws {
        let directory = try TemporaryDirectory()
        let description = PersistentStoreDescription(url: directory.file("Books.sqlite"))
        description.isPersistentHistoryTrackingEnabled = true
        description.storeUUID = "00000000-0000-0000-0000-0000000000B1"
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let store = try coordinator.addPersistentStore(with: description)
        #expect(store.identifier == "00000000-0000-0000-0000-0000000000B1")
        #expect(try sqliteBackend(store).tracksHistory)
        let untracked = try PersistentStoreCoordinator(managedObjectModel: try booksModel())
            .addPersistentStore(with: PersistentStoreDescription(url: directory.file("Other.sqlite")))
        #expect(try !sqliteBackend(untracked).tracksHistory)

        let xml = PersistentStoreDescription(type: .xml, url: directory.file("Books.xml"))
        xml.storeUUID = "00000000-0000-0000-0000-0000000000B2"
        let atomic = try PersistentStoreCoordinator(managedObjectModel: try booksModel()).addPersistentStore(with: xml)
        #expect(atomic.identifier == "00000000-0000-0000-0000-0000000000B2")
        #expect(atomic.type == .xml)
    }

    @Test(
        "A dictionary without the migration keys does not migrate, as the coordinator's; a description does, as Apple's (shouldMigrateStoreAutomatically)"
    )
    func migrationDefaults() throws {
        let parsed = try PersistentStoreDescription.parsing(type: .sqlite, url: nil, options: [:])
        #expect(!parsed.shouldMigrateStoreAutomatically && !parsed.shouldInferMappingModelAutomatically)
        let described = PersistentStoreDescription(url: nil)
        #expect(described.shouldMigrateStoreAutomatically && described.shouldInferMappingModelAutomatically)
    }

    @Test(
        "The container adds its descriptions with their typed options (NSPersistentContainer.persistentStoreDescriptions, loadPersistentStores)"
    )
    func containerUsesTheDescription() throws {
        let directory = try TemporaryDirectory()
        let container = PersistentContainer(name: "Books", managedObjectModel: try booksModel())
        let description = PersistentStoreDescription(url: directory.file("nested/Books.sqlite"))
        description.storeUUID = "00000000-0000-0000-0000-0000000000C1"
        try description.checkedSetValue("NORMAL", forPragmaNamed: "synchronous")
        container.persistentStoreDescriptions = [description]
        let stores = try container.loadPersistentStores()
        #expect(stores.count == 1)
        #expect(stores.first?.identifier == "00000000-0000-0000-0000-0000000000C1")
        #expect(try pragma("synchronous", of: try #require(stores.first)) == "1")

        // A description the store cannot take is reported for that description.
        let failing = PersistentContainer(name: "Books", managedObjectModel: try booksModel())
        let missing = PersistentStoreDescription(url: directory.file("Missing.sqlite"))
        missing.isReadOnly = true
        failing.persistentStoreDescriptions = [missing]
        var reported: [(URL?, CoreDataError?)] = []
        failing.loadPersistentStores { description, error in reported.append((description.url, error as? CoreDataError))
        }
        #expect(reported.count == 1)
        #expect(reported.first?.0 == missing.url)
        #expect(reported.first?.1?.code == .persistentStoreOpen)
    }
}

// NSPersistentStoreDescription.shouldAddStoreAsynchronously ("the store is added asynchronously
// on a background queue") with NSPersistentStoreCoordinator.addPersistentStore(with:completionHandler:).
@Suite struct AddingStoresAsynchronouslyTests {
    /// What a completion handler saw, for the test thread to read after it ran.
    final class Outcome: @unchecked Sendable {
        // @unchecked Sendable: written once by the handler before `done` is signalled.
        var identifier: String?
        var error: Error?
        var wasMainThread = true
        let done = DispatchSemaphore(value: 0)
    }

    @Test(
        "shouldAddStoreAsynchronously adds the store on a background queue and calls the handler there (NSPersistentStoreDescription.shouldAddStoreAsynchronously)"
    )
    func addsOnABackgroundQueue() async throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let description = PersistentStoreDescription(url: directory.file("Books.sqlite"))
        description.shouldAddStoreAsynchronously = true
        description.storeUUID = "00000000-0000-0000-0000-0000000000D1"
        let outcome = Outcome()
        coordinator.addPersistentStore(with: description) { added, error in
            outcome.identifier = added.storeUUID
            outcome.error = error
            outcome.wasMainThread = Thread.isMainThread
            outcome.done.signal()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                outcome.done.wait()
                continuation.resume()
            }
        }
        #expect(outcome.error == nil)
        #expect(outcome.identifier == "00000000-0000-0000-0000-0000000000D1")
        #expect(!outcome.wasMainThread)
        #expect(coordinator.persistentStores.map(\.identifier) == ["00000000-0000-0000-0000-0000000000D1"])
    }

    @Test(
        "Without shouldAddStoreAsynchronously the store is added, or the error reported, before the call returns (addPersistentStore(with:completionHandler:))"
    )
    func addsSynchronouslyByDefault() throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        let outcome = Outcome()
        let missing = PersistentStoreDescription(url: directory.file("Missing.sqlite"))
        missing.isReadOnly = true
        coordinator.addPersistentStore(with: missing) { _, error in outcome.error = error }
        #expect((outcome.error as? CoreDataError)?.code == .persistentStoreOpen)
        coordinator.addPersistentStore(with: PersistentStoreDescription(url: directory.file("Books.sqlite"))) {
            _, error in outcome.error = error
        }
        #expect(outcome.error == nil)
        #expect(coordinator.persistentStores.count == 1)
    }
}
