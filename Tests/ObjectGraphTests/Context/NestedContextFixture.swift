import Foundation

@testable import ObjectGraph

/// A coordinator on a fresh store (in its own temporary directory) with three books of one
/// publisher saved, ranked 1 to 3, for the nested-context tests.
struct NestedContextFixture {
    let directory: TemporaryDirectory
    let coordinator: PersistentStoreCoordinator

    init(_ type: StoreType, titles: [String] = ["A", "B", "C"]) throws {
        directory = try TemporaryDirectory()
        coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try coordinator.addPersistentStore(
            type: type, at: type == .inMemory ? nil : directory.file("Store.\(type.rawValue.lowercased())"),
            options: [StoreOption.storeUUID: "00000000-0000-0000-0000-0000000000CC"])
        let seed = ManagedObjectContext(coordinator: coordinator)
        let publisher = try seed.insertNewObject(forEntityName: "Publisher")
        try publisher.checkedSetValue("BookCo", forKey: "name")
        for (i, title) in titles.enumerated() {
            let book = try seed.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue(title, forKey: "title")
            try book.checkedSetValue(i + 1, forKey: "salesRank")
            try book.checkedSetValue(publisher, forKey: "publisher")
        }
        try seed.save()
    }

    /// The titles of the books in the store, read by a fresh context, sorted.
    func storedTitles() throws -> [String] {
        try Self.titles(in: ManagedObjectContext(coordinator: coordinator))
    }

    /// The titles a context fetches, sorted by title.
    static func titles(in context: ManagedObjectContext, predicate: ObjectGraph.Predicate? = nil) throws -> [String] {
        let request = FetchRequest(entityName: "Book")
        request.predicate = predicate
        request.sortDescriptors = [SortDescriptor(key: "title")]
        return try context.fetch(request).map { try $0.checkedValue(forKey: "title") as? String ?? "?" }
    }

    /// The book of a title in a context.
    static func book(_ title: String, in context: ManagedObjectContext) throws -> ManagedObject? {
        let request = FetchRequest(entityName: "Book")
        request.predicate = try Predicate(checkedFormat: "title == %@", title)
        return try context.fetch(request).first
    }
}
