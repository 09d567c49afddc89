// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// Article: "Using Core Data in the background"
// https://developer.apple.com/documentation/coredata/using_core_data_in_the_background
//
// The article: bind each context to its queue; a main queue context
// (`.mainQueueConcurrencyType`) serves the interface, a private queue context
// (`.privateQueueConcurrencyType`) "creates its own queue upon initialization" and is used only
// there, through `perform(_:)` and `performAndWait(_:)`. Managed objects are not passed between
// queues: pass the `NSManagedObjectID` and look the object up with `object(with:)` or
// `existingObject(with:)` in the other context. A private child context whose `parent` is the
// main context does an import off the main queue; its save pushes into the parent, which then
// saves to the store.
import CoreData
import Testing

@Suite struct UsingCoreDataInTheBackgroundTests {
    func makeContainer(in directory: TemporaryDirectory) -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Earthquakes", managedObjectModel: SampleModel.earthquakes)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.store("Earthquakes.sqlite"))]
        container.loadPersistentStores { _, error in
            if let error { fatalError("Unresolved error \(error)") }
        }
        return container
    }

    @Test func backgroundContextImportsAndTheViewContextMerges() async throws {
        let directory = try TemporaryDirectory()
        let container = makeContainer(in: directory)
        let viewContext = container.viewContext
        await viewContext.perform {
            viewContext.automaticallyMergesChangesFromParent = true
        }

        let quakes = try JSONDecoder().decode(GeoJSON.self, from: sampleFeed).quakePropertiesList
        let backgroundContext = container.newBackgroundContext()
        #expect(backgroundContext.concurrencyType == .privateQueueConcurrencyType)
        let objectIDs: [NSManagedObjectID] = try await backgroundContext.perform {
            var inserted: [Quake] = []
            for properties in quakes {
                let quake = Quake(context: backgroundContext)
                quake.code = properties.code
                quake.magnitude = properties.mag
                quake.place = properties.place
                quake.time = Date(timeIntervalSince1970: properties.time / 1000)
                inserted.append(quake)
            }
            try backgroundContext.save()
            return inserted.map { $0.objectID }
        }
        #expect(objectIDs.count == 3)
        #expect(objectIDs.allSatisfy { !$0.isTemporaryID })

        // The object IDs cross to the main queue; the objects are looked up there.
        let places: [String] = try await viewContext.perform {
            try objectIDs.map { id in
                let quake = try viewContext.existingObject(with: id) as! Quake
                return quake.place
            }
        }
        #expect(places == quakes.map(\.place))

        // automaticallyMergesChangesFromParent: a background save updates the registered object.
        let firstID = objectIDs[0]
        try await backgroundContext.perform {
            let quake = backgroundContext.object(with: firstID) as! Quake
            quake.magnitude = 5.1
            try backgroundContext.save()
        }
        let merged = await eventually {
            viewContext.performAndWait { (viewContext.object(with: firstID) as! Quake).magnitude == 5.1 }
        }
        #expect(merged)
    }

    @Test func performReturnsAtOncePerformAndWaitWaits() async throws {
        let directory = try TemporaryDirectory()
        let container = makeContainer(in: directory)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = container.persistentStoreCoordinator

        let saved: Bool = await withCheckedContinuation { continuation in
            context.perform {
                let quake = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: context)
                quake.setValue("nc9", forKey: "code")
                quake.setValue("Somewhere", forKey: "place")
                quake.setValue(Date(timeIntervalSince1970: 0), forKey: "time")
                do {
                    try context.save()
                    continuation.resume(returning: true)
                } catch {
                    continuation.resume(returning: false)
                }
            }
        }
        #expect(saved)

        var count = 0
        context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            count = (try? context.count(for: request)) ?? -1
        }
        #expect(count == 1)
    }

    @Test func privateChildContextSavesIntoItsParentThenTheStore() async throws {
        let directory = try TemporaryDirectory()
        let container = makeContainer(in: directory)
        let moc = container.viewContext
        let jsonArray = try JSONDecoder().decode(GeoJSON.self, from: sampleFeed).quakePropertiesList

        let privateMOC = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        privateMOC.parent = moc
        let done: Bool = await withCheckedContinuation { continuation in
            privateMOC.perform {
                for jsonObject in jsonArray {
                    let mo = Quake(context: privateMOC)
                    mo.code = jsonObject.code
                    mo.magnitude = jsonObject.mag
                    mo.place = jsonObject.place
                    mo.time = Date(timeIntervalSince1970: jsonObject.time / 1000)
                }
                do {
                    try privateMOC.save()
                    moc.performAndWait {
                        do {
                            try moc.save()
                        } catch {
                            fatalError("Failure to save context: \(error)")
                        }
                    }
                    continuation.resume(returning: true)
                } catch {
                    fatalError("Failure to save context: \(error)")
                }
            }
        }
        #expect(done)

        // The store has them: a fresh background context counts them.
        let reader = container.newBackgroundContext()
        let count = try await reader.perform {
            try reader.count(for: NSFetchRequest<Quake>(entityName: "Quake"))
        }
        #expect(count == 3)
    }
}
