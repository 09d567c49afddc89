import CoreData
import Testing

/// NSFetchRequest typed by its result: objects, IDs, dictionaries, counts.
@Suite struct FetchResultTypeTests {
    /// A context with three saved books.
    private func books(_ folder: URL) throws -> NSManagedObjectContext {
        let context = try Stack.context(in: folder)
        for (title, pages) in [("A", 100), ("B", 200), ("C", 300)] {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(title, forKey: "title")
            book.setValue(pages, forKey: "pages")
        }
        try context.save()
        return context
    }

    // https://developer.apple.com/documentation/coredata/nsfetchrequestresulttype
    @Test("A request typed NSDictionary, NSManagedObjectID or NSNumber returns what its result type says")
    func resultTypes() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try books(folder)

        let rows = NSFetchRequest<NSDictionary>(entityName: "Book")
        rows.resultType = .dictionaryResultType
        rows.propertiesToFetch = [.named("title")]
        rows.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        #expect(try context.fetch(rows).map { $0["title"] as? String } == ["A", "B", "C"])

        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Book")
        ids.resultType = .managedObjectIDResultType
        #expect(try context.fetch(ids).count == 3)

        let count = NSFetchRequest<NSNumber>(entityName: "Book")
        count.resultType = .countResultType
        count.predicate = NSPredicate(format: "pages > %@", 150 as NSNumber)
        #expect(try context.fetch(count).first?.intValue == 2)
    }

    // https://developer.apple.com/documentation/coredata/nsbatchdeleterequest
    @Test("NSFetchRequest<NSFetchRequestResult> fetches objects and drives a batch delete")
    func anyResult() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try books(folder)
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
        #expect(try context.fetch(request).count == 3)
        request.predicate = NSPredicate(format: "title != %@", "B")
        let delete = NSBatchDeleteRequest(fetchRequest: request)
        _ = try context.execute(delete)
        context.reset()
        let left = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        #expect(left.map { $0.value(forKey: "title") as? String } == ["B"])
    }

    // https://developer.apple.com/documentation/coredata/nsfetchedresultscontroller/init(fetchrequest:managedobjectcontext:sectionnamekeypath:cachename:)
    @Test("NSFetchedResultsController<ResultType> takes a typed request")
    func fetchedResultsController() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try books(folder)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "pages", ascending: false)]
        let controller = NSFetchedResultsController<NSManagedObject>(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.map { $0.value(forKey: "title") as? String } == ["C", "B", "A"])
    }
}
