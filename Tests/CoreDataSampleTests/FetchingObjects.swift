// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// Article: "Fetching objects" (NSFetchRequest, NSPredicate, NSSortDescriptor,
// NSExpressionDescription, NSBatchUpdateRequest, NSBatchDeleteRequest)
// https://developer.apple.com/documentation/coredata/nsfetchrequest
// https://developer.apple.com/documentation/coredata/nsexpressiondescription
// https://developer.apple.com/documentation/coredata/nsbatchupdaterequest
// https://developer.apple.com/documentation/coredata/nsbatchdeleterequest
//
// NSFetchRequest: "A description of search criteria used to retrieve data from a persistent
// store"; a predicate and sort descriptors narrow and order the results, `count(for:)` counts
// without fetching, and a `.dictionaryResultType` request with `propertiesToFetch` returns
// dictionaries, including computed values described by NSExpressionDescription ("a description
// of an expression ... the name of the key in the dictionary, the expression, and its result
// type"). Batch update and delete requests change the store "without loading" the objects.
import CoreData
import Testing

@Suite @MainActor struct FetchingObjectsTests {
    /// A container with the sample feed's three quakes and two more.
    func makeContainer(in directory: TemporaryDirectory) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Earthquakes", managedObjectModel: SampleModel.earthquakes)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.store("Earthquakes.sqlite"))]
        container.loadPersistentStores { _, error in
            if let error { fatalError("Unresolved error \(error)") }
        }
        let context = container.viewContext
        let feed = try JSONDecoder().decode(GeoJSON.self, from: sampleFeed).quakePropertiesList
        for properties in feed + [
            QuakeProperties(mag: 6.1, place: "Off the coast of Oregon", time: 1_700_000_300_000, code: "us4"),
            QuakeProperties(mag: 0.9, place: "3km W of Cobb, CA", time: 1_700_000_400_000, code: "nc5"),
        ] {
            let quake = Quake(context: context)
            quake.code = properties.code
            quake.magnitude = properties.mag
            quake.place = properties.place
            quake.time = Date(timeIntervalSince1970: properties.time / 1000)
        }
        try context.save()
        return container
    }

    @Test func predicatesAndSortDescriptors() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(in: directory)
        let context = container.viewContext

        let request: NSFetchRequest<Quake> = Quake.fetchRequest()
        request.predicate = NSPredicate(format: "place CONTAINS[c] %@ AND magnitude >= %@", ", ca", NSNumber(value: 1.0))
        request.sortDescriptors = [NSSortDescriptor(key: "magnitude", ascending: false)]
        let californian = try context.fetch(request)
        #expect(californian.map(\.code) == ["nc1", "ci2"])

        let recent = NSFetchRequest<Quake>(entityName: "Quake")
        recent.predicate = NSPredicate(format: "time > %@", Date(timeIntervalSince1970: 1_700_000_150) as NSDate)
        recent.sortDescriptors = [NSSortDescriptor(key: "time", ascending: true)]
        recent.fetchLimit = 2
        #expect(try context.fetch(recent).map(\.code) == ["ak3", "us4"])

        let codes = NSFetchRequest<Quake>(entityName: "Quake")
        codes.predicate = NSPredicate(format: "code IN %@", ["nc1", "nc5", "xx9"])
        codes.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        #expect(try context.fetch(codes).map(\.code) == ["nc1", "nc5"])

        let compound = NSFetchRequest<Quake>(entityName: "Quake")
        compound.predicate = NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSPredicate(format: "magnitude > 6"),
            NSPredicate(format: "place BEGINSWITH %@", "3km"),
        ])
        compound.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        #expect(try context.fetch(compound).map(\.code) == ["nc5", "us4"])
    }

    @Test func countForARequest() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(in: directory)
        let context = container.viewContext
        let request = NSFetchRequest<Quake>(entityName: "Quake")
        request.predicate = NSPredicate(format: "magnitude < %f", 2.0)
        #expect(try context.count(for: request) == 2)
    }

    @Test func dictionaryResultsWithAnExpressionDescription() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(in: directory)
        let context = container.viewContext

        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
        request.resultType = .dictionaryResultType
        let keyPathExpression = NSExpression(forKeyPath: "magnitude")
        let maxExpression = NSExpression(forFunction: "max:", arguments: [keyPathExpression])
        let expressionDescription = NSExpressionDescription()
        expressionDescription.name = "maxMagnitude"
        expressionDescription.expression = maxExpression
        expressionDescription.expressionResultType = .floatAttributeType
        request.propertiesToFetch = [expressionDescription]
        let results = try context.fetch(request) as? [[String: Any]]
        #expect((results?.first?["maxMagnitude"] as? NSNumber)?.floatValue == 6.1)

        let places = NSFetchRequest<NSDictionary>(entityName: "Quake")
        places.resultType = .dictionaryResultType
        places.propertiesToFetch = ["code", "place"]
        places.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        let rows = try context.fetch(places)
        #expect(rows.first?["code"] as? String == "ak3")
        #expect(rows.first?["place"] as? String == "30km E of Willow, Alaska")
        #expect(rows.first?["magnitude"] == nil)
    }

    @Test func batchUpdateAndBatchDelete() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(in: directory)
        let context = container.viewContext

        let batchUpdate = NSBatchUpdateRequest(entityName: "Quake")
        batchUpdate.propertiesToUpdate = ["place": "Minor quake"]
        batchUpdate.predicate = NSPredicate(format: "magnitude < %f", 2.0)
        batchUpdate.resultType = .updatedObjectsCountResultType
        let updateResult = try context.execute(batchUpdate) as? NSBatchUpdateResult
        #expect(updateResult?.result as? Int == 2)

        let minor = NSFetchRequest<Quake>(entityName: "Quake")
        minor.predicate = NSPredicate(format: "place == %@", "Minor quake")
        #expect(try context.count(for: minor) == 2)

        let fetchRequest: NSFetchRequest<NSFetchRequestResult> = NSFetchRequest(entityName: "Quake")
        fetchRequest.predicate = NSPredicate(format: "magnitude < %f", 2.0)
        let deleteRequest = NSBatchDeleteRequest(fetchRequest: fetchRequest)
        deleteRequest.resultType = .resultTypeObjectIDs
        let deleteResult = try context.execute(deleteRequest) as? NSBatchDeleteResult
        let deletedIDs = deleteResult?.result as? [NSManagedObjectID] ?? []
        #expect(deletedIDs.count == 2)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: deletedIDs], into: [context])
        #expect(try context.count(for: NSFetchRequest<Quake>(entityName: "Quake")) == 3)
    }
}
