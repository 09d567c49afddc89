import CoreData
import Testing

/// Contexts set up in two steps, as Apple's hand-written stacks do.
@Suite struct ContextSetupTests {
    // https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/persistentstorecoordinator
    @Test("A context made with init(concurrencyType:) works once its coordinator is set")
    func coordinatorSetAfterInit() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = try Stack.coordinator(in: folder)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(context.persistentStoreCoordinator == nil)
        context.persistentStoreCoordinator = coordinator
        let saved = try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Fetch, Clarus, Fetch", forKey: "title")
            try context.save()
            return try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
        }
        #expect(saved == 1)
        #expect(context.persistentStoreCoordinator === coordinator)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/parent
    @Test("A child context made with init(concurrencyType:) saves into the parent set afterwards")
    func parentSetAfterInit() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let parent = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        parent.persistentStoreCoordinator = try Stack.coordinator(in: folder)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        #expect(child.persistentStoreCoordinator === parent.persistentStoreCoordinator)
        try child.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: child).setValue("Draft", forKey: "title")
            try child.save()
        }
        let inParent = try parent.performAndWait {
            (parent.hasChanges, try parent.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).count)
        }
        #expect(inParent == (true, 1))
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectcontextconcurrencytype
    @Test("Apple's concurrency type spellings are the module's cases, with Apple's raw values")
    func concurrencyTypeSpellings() {
        #expect(NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType.rawValue == 1)
        #expect(NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType.rawValue == 2)
        #expect(
            NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType).concurrencyType
                == .mainQueueConcurrencyType)
    }
}
