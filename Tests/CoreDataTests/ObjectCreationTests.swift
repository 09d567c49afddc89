import CoreData
import Testing

/// A subclass as Apple's generated classes and hand-written ones declare it.
final class Book: NSManagedObject {
    nonisolated(unsafe) static var initialized = 0
    @Managed("title") var title: String?

    // Apple's subclasses write `override init`; Swift on Linux needs `required` (see the
    // "What differs on Linux" article).
    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        Book.initialized += 1
    }
}

/// Objects made by the designated initializer, in a context or outside one.
@Suite(.serialized) struct ObjectCreationTests {
    // https://developer.apple.com/documentation/coredata/nsmanagedobject/init(entity:insertinto:)
    @Test("init(entity:insertInto:) inserts into the context given, through a subclass's override")
    func designatedInitializerInserts() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try NSManagedObjectModel {
            NSEntityDescription("Book", class: Book.self) { NSAttributeDescription("title", .string) }
        }
        let context = try Stack.context(in: folder, model: model)
        let before = Book.initialized
        let entity = try #require(NSEntityDescription.entity(forEntityName: "Book", in: context))
        let book = Book(entity: entity, insertInto: context)
        book.title = "Fetch, Clarus, Fetch"
        #expect(context.insertedObjects.contains(book))
        _ = Book(context: context)
        try context.save()
        let fetched = try NSManagedObjectContext(
            concurrencyType: .confinementConcurrencyType, coordinator: context.persistentStoreCoordinator
        )
        .fetch(Book.fetchRequest())
        #expect(fetched.count == 2)
        // Two inserted, and the two a second context fetched: every object goes through the override.
        #expect(Book.initialized - before == 4)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/insert(_:)
    @Test("An object made with no context is inserted later with insert(_:) and saved")
    func insertLater() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try Stack.context(in: folder)
        let entity = try #require(NSEntityDescription.entity(forEntityName: "Book", in: context))
        let book = NSManagedObject(entity: entity, insertInto: nil)
        #expect(book.managedObjectContext == nil)
        #expect(book.objectID.isTemporaryID)
        context.insert(book)
        #expect(book.managedObjectContext === context)
        book.setValue("Later", forKey: "title")
        context.insert(book) // again: nothing happens
        try context.save()
        #expect(!book.objectID.isTemporaryID)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        #expect(try context.fetch(request).map { $0.value(forKey: "title") as? String } == ["Later"])
    }
}
