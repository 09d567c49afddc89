// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// Article: "Loading and displaying a large data feed"
// https://developer.apple.com/documentation/swiftui/loading_and_displaying_a_large_data_feed
//
// The article: the sample "imports data using a batch insert request" on "a private queue
// context" (`newTaskContext()`: a background context whose merge policy is
// `NSMergeByPropertyObjectTrumpMergePolicy` and whose undo manager is nil, with a name and a
// transaction author); `newBatchInsertRequest(with:)` builds an `NSBatchInsertRequest` whose
// dictionary handler fills one object's dictionary per call and returns true when done. The
// model's uniqueness constraint on `code` and the merge policy make a re-imported quake update
// the stored one. Deleting uses `NSBatchDeleteRequest(objectIDs:)`. The view context sets
// `automaticallyMergesChangesFromParent` so that saves of other contexts reach the interface.
import CoreData
import Testing

enum QuakeError: Error {
    case batchInsertError
    case batchDeleteError
}

/// The sample's QuakesProvider, with the feed passed in rather than downloaded.
final class QuakesProvider: @unchecked Sendable {
    let container: NSPersistentContainer

    init(storeURL: URL) {
        container = NSPersistentContainer(name: "Earthquakes", managedObjectModel: SampleModel.earthquakes)
        guard let description = container.persistentStoreDescriptions.first else {
            fatalError("Failed to retrieve a persistent store description.")
        }
        description.url = storeURL
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.loadPersistentStores { storeDescription, error in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
        container.viewContext.name = "viewContext"
        container.viewContext.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        container.viewContext.undoManager = nil
    }

    func newTaskContext() -> NSManagedObjectContext {
        let taskContext = container.newBackgroundContext()
        taskContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        taskContext.undoManager = nil
        return taskContext
    }

    func importQuakes(from propertiesList: [QuakeProperties]) async throws {
        guard !propertiesList.isEmpty else { return }
        let taskContext = newTaskContext()
        taskContext.name = "importContext"
        taskContext.transactionAuthor = "importQuakes"
        try await taskContext.perform {
            let batchInsertRequest = self.newBatchInsertRequest(with: propertiesList)
            if let fetchResult = try? taskContext.execute(batchInsertRequest),
               let batchInsertResult = fetchResult as? NSBatchInsertResult,
               let success = batchInsertResult.result as? Bool, success {
                return
            }
            throw QuakeError.batchInsertError
        }
    }

    private func newBatchInsertRequest(with propertyList: [QuakeProperties]) -> NSBatchInsertRequest {
        var index = 0
        let total = propertyList.count
        let batchInsertRequest = NSBatchInsertRequest(entity: Quake.entity(), dictionaryHandler: { dictionary in
            guard index < total else { return true }
            dictionary.addEntries(from: propertyList[index].dictionaryValue)
            index += 1
            return false
        })
        return batchInsertRequest
    }

    /// The objects form: one dictionary per quake, counted.
    func importQuakesCounting(from propertiesList: [QuakeProperties]) throws -> Int {
        let taskContext = newTaskContext()
        return try taskContext.performAndWait {
            let request = NSBatchInsertRequest(entity: Quake.entity(), objects: propertiesList.map { $0.dictionaryValue })
            request.resultType = .count
            let result = try taskContext.execute(request) as? NSBatchInsertResult
            return result?.result as? Int ?? -1
        }
    }

    func deleteQuakes(identifiedBy objectIDs: [NSManagedObjectID]) async throws {
        let taskContext = newTaskContext()
        taskContext.name = "deleteContext"
        taskContext.transactionAuthor = "deleteQuakes"
        try await taskContext.perform {
            let batchDeleteRequest = NSBatchDeleteRequest(objectIDs: objectIDs)
            guard let fetchResult = try? taskContext.execute(batchDeleteRequest),
                  let batchDeleteResult = fetchResult as? NSBatchDeleteResult,
                  let success = batchDeleteResult.result as? Bool, success
            else {
                throw QuakeError.batchDeleteError
            }
        }
    }
}

@Suite @MainActor struct LoadingALargeDataFeedTests {
    func storedQuakes(_ provider: QuakesProvider) throws -> [(code: String, magnitude: Float, place: String)] {
        let context = provider.container.newBackgroundContext()
        return try context.performAndWait {
            let request: NSFetchRequest<Quake> = Quake.fetchRequest()
            request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
            return try context.fetch(request).map { ($0.code, $0.magnitude, $0.place) }
        }
    }

    @Test func batchInsertWithADictionaryHandlerImportsTheFeed() async throws {
        let directory = try TemporaryDirectory()
        let provider = QuakesProvider(storeURL: directory.store("Earthquakes.sqlite"))
        let feed = try JSONDecoder().decode(GeoJSON.self, from: sampleFeed)
        try await provider.importQuakes(from: feed.quakePropertiesList)

        let stored = try storedQuakes(provider)
        #expect(stored.map(\.code) == ["ak3", "ci2", "nc1"])
        #expect(stored.map(\.magnitude) == [2.8, 1.2, 4.5])
    }

    @Test func reimportingUpdatesByTheUniquenessConstraint() async throws {
        let directory = try TemporaryDirectory()
        let provider = QuakesProvider(storeURL: directory.store("Earthquakes.sqlite"))
        let feed = try JSONDecoder().decode(GeoJSON.self, from: sampleFeed).quakePropertiesList
        #expect(try provider.importQuakesCounting(from: feed) == 3)

        // The feed again, with one quake revised: still three quakes, the revision kept.
        var revised = feed
        revised[0] = QuakeProperties(mag: 4.9, place: "10km N of Parkfield, CA", time: feed[0].time, code: feed[0].code)
        try await provider.importQuakes(from: revised)
        let stored = try storedQuakes(provider)
        #expect(stored.count == 3)
        #expect(stored.last?.code == "nc1")
        #expect(stored.last?.magnitude == 4.9)
        #expect(stored.last?.place == "10km N of Parkfield, CA")
    }

    @Test func batchDeleteRemovesByObjectID() async throws {
        let directory = try TemporaryDirectory()
        let provider = QuakesProvider(storeURL: directory.store("Earthquakes.sqlite"))
        try await provider.importQuakes(from: try JSONDecoder().decode(GeoJSON.self, from: sampleFeed).quakePropertiesList)
        let context = provider.newTaskContext()
        let smallIDs: [NSManagedObjectID] = try context.performAndWait {
            let request = NSFetchRequest<Quake>(entityName: "Quake")
            request.predicate = NSPredicate(format: "magnitude < %@", NSNumber(value: 3.0))
            return try context.fetch(request).map(\.objectID)
        }
        #expect(smallIDs.count == 2)
        try await provider.deleteQuakes(identifiedBy: smallIDs)
        #expect(try storedQuakes(provider).map(\.code) == ["nc1"])
    }

    @Test func theViewContextMergesABackgroundSave() async throws {
        let directory = try TemporaryDirectory()
        let provider = QuakesProvider(storeURL: directory.store("Earthquakes.sqlite"))
        let viewContext = provider.container.viewContext
        let taskContext = provider.newTaskContext()
        let id: NSManagedObjectID = try await taskContext.perform {
            let quake = Quake(context: taskContext)
            quake.code = "hv4"
            quake.place = "Volcano, Hawaii"
            quake.time = Date(timeIntervalSince1970: 0)
            quake.magnitude = 3.3
            try taskContext.save()
            return quake.objectID
        }
        let observed = await viewContext.perform { viewContext.object(with: id) as! Quake }
        _ = observed
        try await taskContext.perform {
            (taskContext.object(with: id) as! Quake).magnitude = 3.6
            try taskContext.save()
        }
        let merged = await eventually {
            viewContext.performAndWait { (viewContext.object(with: id) as! Quake).magnitude == 3.6 }
        }
        #expect(merged)
    }
}
