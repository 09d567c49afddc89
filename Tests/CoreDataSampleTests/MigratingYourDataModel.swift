// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// Article: "Migrating your data model" and the Core Data Model Versioning and Data Migration
// Programming Guide ("Customizing the Migration Process", "Migration Policies")
// https://developer.apple.com/documentation/coredata/migrating_your_data_model_automatically
// https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreDataVersioning/Articles/vmCustomizing.html
//
// The guide: to migrate a store yourself, "create an instance of NSMigrationManager" with the
// source and destination models and send it `migrateStore(from:sourceType:options:with:
// toDestinationURL:destinationType:destinationOptions:)` with a mapping model. A mapping model can
// be inferred (`NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`), and an
// entity mapping can name a custom `NSEntityMigrationPolicy` subclass whose
// `createDestinationInstances(forSource:in:manager:)` makes the destination instances and calls
// `associate(sourceInstance:withDestinationInstance:for:)`.
import CoreData
import Testing

/// Version 2 splits a book's `author` ("Ada Lovelace") into first and last names.
final class AuthorSplittingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                             manager: NSMigrationManager) throws {
        let book = NSEntityDescription.insertNewObject(forEntityName: mapping.destinationEntityName!, into: manager.destinationContext)
        book.setValue(sInstance.value(forKey: "title"), forKey: "title")
        let author = sInstance.value(forKey: "author") as? String ?? ""
        let names = author.split(separator: " ", maxSplits: 1).map(String.init)
        book.setValue(names.first, forKey: "authorFirstName")
        book.setValue(names.count > 1 ? names[1] : nil, forKey: "authorLastName")
        manager.associate(sourceInstance: sInstance, withDestinationInstance: book, for: mapping)
    }
}

@Suite struct MigratingYourDataModelTests {
    /// Each version of the Library model, as the compiled model bundle holds them.
    func model(_ version: String) -> NSManagedObjectModel {
        guard let url = Bundle.module.url(forResource: version, withExtension: "xcdatamodel", subdirectory: "Library.xcdatamodeld"),  // LINUX: no momc on Linux: each version's .xcdatamodel source is read
              let model = NSManagedObjectModel(contentsOf: url) else {
            fatalError("Failed to load the model \(version)")
        }
        return model
    }

    /// A version 1 store with two books.
    func makeVersion1Store(at url: URL) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model("Library"))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (title, author) in [("Notes on the Analytical Engine", "Ada Lovelace"), ("Compilers", "Grace Hopper")] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(author, forKey: "author")
            }
            try context.save()
        }
    }

    /// The books of a version 2 store, by title.
    func version2Books(at url: URL) throws -> [[String: Any]] {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model("Library 2"))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            return try context.fetch(request).map { book in
                var values: [String: Any] = [:]
                for key in ["title", "authorFirstName", "authorLastName", "pageCount"] {
                    values[key] = book.value(forKey: key)
                }
                return values
            }
        }
    }

    @Test func inferredMappingModelMigratesWithAMigrationManager() throws {
        let directory = try TemporaryDirectory()
        let sourceURL = directory.store("Library.sqlite")
        let destinationURL = directory.store("Library-2.sqlite")
        try makeVersion1Store(at: sourceURL)

        let sourceModel = model("Library")
        let destinationModel = model("Library 2")
        let mappingModel = try NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
        let manager = NSMigrationManager(sourceModel: sourceModel, destinationModel: destinationModel)
        try manager.migrateStore(from: sourceURL, sourceType: NSSQLiteStoreType, options: nil, with: mappingModel,
                                 toDestinationURL: destinationURL, destinationType: NSSQLiteStoreType, destinationOptions: nil)

        let books = try version2Books(at: destinationURL)
        #expect(books.map { $0["title"] as? String } == ["Compilers", "Notes on the Analytical Engine"])
        // The inferred mapping drops `author` and leaves the new names empty; pageCount takes its default.
        #expect(books.allSatisfy { $0["authorFirstName"] == nil && $0["authorLastName"] == nil })
        #expect(books.map { $0["pageCount"] as? Int } == [0, 0])
    }

    @Test func customEntityMigrationPolicySplitsTheAuthor() throws {
        let directory = try TemporaryDirectory()
        let sourceURL = directory.store("Library.sqlite")
        let destinationURL = directory.store("Library-2.sqlite")
        try makeVersion1Store(at: sourceURL)

        let sourceModel = model("Library")
        let destinationModel = model("Library 2")
        let mappingModel = try NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
        let bookMapping = mappingModel.entityMappings.first { $0.destinationEntityName == "Book" }!
        bookMapping.entityMigrationPolicyType = AuthorSplittingPolicy.self  // LINUX: no NSClassFromString to find a policy by class name: the class itself is given

        let manager = NSMigrationManager(sourceModel: sourceModel, destinationModel: destinationModel)
        try manager.migrateStore(from: sourceURL, sourceType: NSSQLiteStoreType, options: nil, with: mappingModel,
                                 toDestinationURL: destinationURL, destinationType: NSSQLiteStoreType, destinationOptions: nil)

        let books = try version2Books(at: destinationURL)
        #expect(books.map { $0["authorFirstName"] as? String } == ["Grace", "Ada"])
        #expect(books.map { $0["authorLastName"] as? String } == ["Hopper", "Lovelace"])
        #expect(manager.migrationProgress == 1)
    }

    @Test func aStoreOfAnotherVersionIsRefusedWithoutMigration() throws {
        let directory = try TemporaryDirectory()
        let sourceURL = directory.store("Library.sqlite")
        try makeVersion1Store(at: sourceURL)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model("Library 2"))
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: sourceURL, options: nil)
            Issue.record("A version 1 store opened with version 2 without migrating")
        } catch {
            let error = error as NSError  // LINUX: `catch let error as NSError` matches only NSError instances on Linux (no implicit bridging in a cast pattern); the coercion bridges
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        }
    }
}
