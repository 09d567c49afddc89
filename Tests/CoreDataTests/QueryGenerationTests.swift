import CoreData
import Testing

/// Query generations in Apple's names, as "Accessing data when the store changes" uses them.
@Suite struct QueryGenerationTests {
    // https://developer.apple.com/documentation/coredata/accessing-data-when-the-store-changes
    // https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/setquerygenerationfrom(_:)
    @Test("A view context pinned to the current generation is isolated from a background save")
    func viewContextIsIsolated() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = try Stack.coordinator(in: folder)
        let viewContext = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        viewContext.persistentStoreCoordinator = coordinator
        let books = NSFetchRequest<NSManagedObject>(entityName: "Book")
        // Off the main thread here, so the view context is used inside performAndWait.
        let token: NSQueryGenerationToken? = try viewContext.performAndWait {
            try viewContext.setQueryGenerationFrom(.current)
            #expect(try viewContext.count(for: books) == 0)
            return viewContext.queryGenerationToken
        }
        #expect(token != nil && token != NSQueryGenerationToken.current)

        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = coordinator
        try background.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: background).setValue(
                "New", forKey: "title")
            try background.save()
        }
        try viewContext.performAndWait {
            #expect(try viewContext.count(for: books) == 0)
            // "you see the same generation, or snapshot, of data until you choose to advance it"
            try viewContext.setQueryGenerationFrom(.current)
            #expect(try viewContext.count(for: books) == 1)
        }
    }
}
