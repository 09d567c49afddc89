// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// Article: "Setting up a Core Data stack"
// https://developer.apple.com/documentation/coredata/setting_up_a_core_data_stack
//
// The article: "An instance of NSPersistentContainer sets up the model, context, and store
// coordinator all at once"; the app delegate keeps a lazy `persistentContainer` that calls
// `loadPersistentStores(completionHandler:)`, and passes the container to its view controllers.
// Before iOS 10 (Core Data Programming Guide, "Initializing the Core Data Stack") the stack was
// built by hand: the model from its URL in the bundle, a coordinator, a main-queue context given
// the coordinator, then `addPersistentStore(ofType:configurationName:at:options:)`.
import CoreData
import Testing

/// The app delegate's part of the article: a lazy container and `saveContext()`.
final class EarthquakesStack {
    let storeURL: URL

    init(storeURL: URL) {
        self.storeURL = storeURL
    }

    lazy var persistentContainer: NSPersistentContainer = {
        let container = NSPersistentContainer(name: "Earthquakes", managedObjectModel: SampleModel.earthquakes)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
        container.loadPersistentStores(completionHandler: { (storeDescription, error) in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        })
        return container
    }()

    func saveContext() {
        let context = persistentContainer.viewContext
        if context.hasChanges {
            do {
                try context.save()
            } catch {
                let nserror = error as NSError
                fatalError("Unresolved error \(nserror), \(nserror.userInfo)")
            }
        }
    }
}

/// The view controller the article passes the container to.
final class QuakeListViewController {
    var container: NSPersistentContainer!

    func quakeCodes() throws -> [String] {
        let request: NSFetchRequest<Quake> = Quake.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        return try container.viewContext.fetch(request).map { $0.code }
    }
}

@Suite struct SettingUpACoreDataStackTests {
    @Test @MainActor func persistentContainerSavesAndAnotherContainerFetches() throws {
        let directory = try TemporaryDirectory()
        let storeURL = directory.store("Earthquakes.sqlite")
        let stack = EarthquakesStack(storeURL: storeURL)

        let quake = Quake(context: stack.persistentContainer.viewContext)
        quake.code = "nc1"
        quake.magnitude = 4.5
        quake.place = "12km N of Parkfield, CA"
        quake.time = Date(timeIntervalSince1970: 1_700_000_000)
        stack.saveContext()
        #expect(!stack.persistentContainer.viewContext.hasChanges)
        #expect(!quake.objectID.isTemporaryID)

        // A second stack on the same file, as the app's next launch, reads it back.
        let relaunched = EarthquakesStack(storeURL: storeURL)
        let viewController = QuakeListViewController()
        viewController.container = relaunched.persistentContainer
        #expect(try viewController.quakeCodes() == ["nc1"])
        let request: NSFetchRequest<Quake> = Quake.fetchRequest()
        let fetched = try relaunched.persistentContainer.viewContext.fetch(request)
        #expect(fetched.first?.magnitude == 4.5)
        #expect(fetched.first?.time == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(relaunched.persistentContainer.persistentStoreCoordinator.persistentStores.first?.type == NSSQLiteStoreType)
    }

    @Test @MainActor func handBuiltStackSavesAndFetches() throws {
        let directory = try TemporaryDirectory()

        guard let modelURL = Bundle.module.url(forResource: "Earthquakes", withExtension: "xcdatamodeld") else {  // LINUX: no momc on Linux: the .xcdatamodeld source is read
            fatalError("Error loading model from bundle")
        }
        guard let mom = NSManagedObjectModel(contentsOf: modelURL) else {
            fatalError("Error initializing mom from: \(modelURL)")
        }
        let psc = NSPersistentStoreCoordinator(managedObjectModel: mom)
        let moc = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        moc.persistentStoreCoordinator = psc

        let storeURL = directory.store("DataModel.sqlite")
        do {
            try psc.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: nil)
        } catch {
            fatalError("Error migrating store: \(error)")
        }

        let quake = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: moc)
        quake.setValue("ci2", forKey: "code")
        quake.setValue(1.2, forKey: "magnitude")
        quake.setValue("5km S of Anza, CA", forKey: "place")
        quake.setValue(Date(timeIntervalSince1970: 1_700_000_100), forKey: "time")
        try moc.save()

        // A new coordinator and context on the file see the saved row.
        let psc2 = NSPersistentStoreCoordinator(managedObjectModel: mom)
        try psc2.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: nil)
        let moc2 = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        moc2.persistentStoreCoordinator = psc2
        let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
        let results = try moc2.fetch(request)
        #expect(results.count == 1)
        #expect(results.first?.value(forKey: "place") as? String == "5km S of Anza, CA")
        #expect((results.first?.value(forKey: "magnitude") as? NSNumber)?.floatValue == 1.2)
        #expect(psc2.persistentStores.first?.url == storeURL)
    }
}
