import CoreData
import Testing

/// Stores by type and URL: adding, reading metadata, replacing and destroying.
@Suite struct StoreManagementTests {
    // https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/addpersistentstore(oftype:configurationname:at:options:)
    @Test("A store added by type keeps its options; a configuration other than the default is refused")
    func addByType() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try Stack.model())
        let store = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.appendingPathComponent("A.sqlite"),
            options: [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true])
        #expect(store.type == NSSQLiteStoreType)
        #expect(store.options?[NSMigratePersistentStoresAutomaticallyOption] as? Bool == true)
        #expect(store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME")
        #expect(coordinator.persistentStore(for: folder.appendingPathComponent("A.sqlite")) === store)
        #expect(coordinator.metadata(for: store)[NSStoreTypeKey] as? String == "SQLite")
        do {
            try coordinator.addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: "Cloud",
                at: folder.appendingPathComponent("B.sqlite"), options: nil)
            Issue.record("a configuration was accepted")
        } catch {
            // `catch let error as NSError` matches NSError instances only on Linux; `as NSError`
            // bridges any error (see "What differs on Linux").
            let error = error as NSError
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreInvalidTypeError)
        }
    }

    // https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/metadataforpersistentstore(oftype:at:options:)
    @Test("metadataForPersistentStore(ofType:at:options:) reads a store without adding it")
    func metadataByType() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = try Stack.coordinator(in: folder)
        let uuid = coordinator.persistentStores[0].identifier
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(
            ofType: NSSQLiteStoreType, at: folder.appendingPathComponent("Library.sqlite"), options: nil)
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(
            (metadata[NSStoreModelVersionHashesKey] as? [String: Data])?.keys.sorted() == ["Author", "Book", "Chapter"])
    }

    // https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/replacepersistentstore(at:destinationoptions:withpersistentstorefrom:sourceoptions:oftype:)
    // https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/destroypersistentstore(at:oftype:options:)
    @Test("replacePersistentStore copies a store over another; destroyPersistentStore removes it and its files")
    func replaceAndDestroy() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Stack.coordinator(in: folder)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = source
        NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Copied", forKey: "title")
        try context.save()

        let copy = folder.appendingPathComponent("Copy.sqlite")
        let other = NSPersistentStoreCoordinator(managedObjectModel: try Stack.model())
        try other.replacePersistentStore(
            at: copy, destinationOptions: nil,
            withPersistentStoreFrom: folder.appendingPathComponent("Library.sqlite"),
            sourceOptions: nil, ofType: NSSQLiteStoreType)
        try other.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: copy, options: nil)
        let reader = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        reader.persistentStoreCoordinator = other
        let titles = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map {
            $0.value(forKey: "title") as? String
        }
        #expect(titles == ["Copied"])

        try other.destroyPersistentStore(at: copy, ofType: NSSQLiteStoreType, options: nil)
        #expect(other.persistentStores.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        // Destroying what is not there does nothing, as Apple's does.
        try other.destroyPersistentStore(at: copy, ofType: NSSQLiteStoreType, options: nil)
    }

    // https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/setmetadata(_:for:)
    @Test(
        "setMetadata(_:for:) keeps an application's keys; the next save writes them, beside the store's own",
        arguments: [NSSQLiteStoreType, NSXMLStoreType])
    func setMetadata(_ type: NSPersistentStore.StoreType) throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Meta.store")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try Stack.model())
        let store = try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: nil)
        var metadata = coordinator.metadata(for: store)
        metadata["lastImport"] = "2026-11-28"
        coordinator.setMetadata(metadata, for: store)
        #expect(coordinator.metadata(for: store)["lastImport"] as? String == "2026-11-28")

        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Saved", forKey: "title")
        try context.save()
        let onDisk = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url, options: nil)
        #expect(onDisk["lastImport"] as? String == "2026-11-28")
        #expect(onDisk[NSStoreUUIDKey] as? String == store.identifier)
        #expect(onDisk[NSStoreTypeKey] as? String == type.rawValue)
        #expect((onDisk[NSStoreModelVersionHashesKey] as? [String: Data])?.count == 3)
    }
}
