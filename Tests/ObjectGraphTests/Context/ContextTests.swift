import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSManagedObjectContext reference and Core Data Programming Guide: inserting, saving,
// fetching with pending changes, delete rules, validation.
@Suite struct ContextTests {
    @Test func insertSaveFetch() throws {
        let context = try inMemoryContext()
        let publisher = try context.insertNewObject(forEntityName: "Publisher")
        try publisher.checkedSetValue("BookCo", forKey: "name")
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
        try book.checkedSetValue(482769, forKey: "salesRank")
        try book.checkedSetValue(publisher, forKey: "publisher")
        #expect(book.objectID.isTemporaryID)
        #expect(context.hasChanges)
        // The inverse follows (Core Data keeps both sides in step).
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>) == [book])
        try context.save()
        #expect(!context.hasChanges)
        #expect(!book.objectID.isTemporaryID)
        #expect(
            book.objectID.uriRepresentation().absoluteString
                == "x-coredata://00000000-0000-0000-0000-000000000001/Book/p1")

        let request = FetchRequest(entityName: "Book")
        request.predicate = try Predicate(checkedFormat: "publisher.name == %@", "BookCo")
        let books = try context.fetch(request)
        #expect(books.count == 1)
        #expect(books[0] === book) // one instance per object ID in a context
    }

    @Test func fetchIncludesPendingChanges() throws {
        let context = try inMemoryContext()
        for (title, rank) in [("A", 3), ("B", 1), ("C", 2)] {
            let b = try context.insertNewObject(forEntityName: "Book")
            try b.checkedSetValue(title, forKey: "title")
            try b.checkedSetValue(rank, forKey: "salesRank")
        }
        try context.save()
        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        try d.checkedSetValue(0, forKey: "salesRank")
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        #expect(
            try context.fetch(request).map { try $0.checkedValue(forKey: "title") as! String } == ["D", "B", "C", "A"])
        request.includesPendingChanges = false
        #expect(try context.count(for: request) == 3)
        request.includesPendingChanges = true
        #expect(try context.count(for: request) == 4)
    }

    @Test func validationErrorsCarryCoreDataCodes() throws {
        let context = try inMemoryContext()
        let book = try context.insertNewObject(forEntityName: "Book")
        var error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .missingMandatoryProperty)
        #expect(error?.key == "title")
        try book.checkedSetValue("T", forKey: "title")
        try book.checkedSetValue(0, forKey: "salesRank")
        try book.checkedSetValue("12345", forKey: "isbn")
        error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .multipleErrors)
        #expect(Set(error?.detailedErrors.compactMap(\.code) ?? []) == [.numberTooSmall, .stringPatternMatching])
        // A failed save leaves the changes in place.
        #expect(context.hasChanges)
    }

    @Test func wrongTypesAndUnknownKeysAreErrors() throws {
        let context = try inMemoryContext()
        let book = try context.insertNewObject(forEntityName: "Book")
        let wrong = #expect(throws: CoreDataError.self) { try book.checkedSetValue("many", forKey: "salesRank") }
        #expect(wrong?.message.contains("desired type = Integer 32") == true)
        let unknown = #expect(throws: CoreDataError.self) { try book.checkedSetValue(1, forKey: "price") }
        #expect(unknown?.message.contains("has no property named price") == true)
        #expect(throws: CoreDataError.self) { try context.insertNewObject(forEntityName: "Magazine") }
    }

    @Test func deleteRules() throws {
        let context = try inMemoryContext()
        let publisher = try context.insertNewObject(forEntityName: "Publisher")
        try publisher.checkedSetValue("P", forKey: "name")
        let author = try context.insertNewObject(forEntityName: "Author")
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("T", forKey: "title")
        try book.checkedSetValue(publisher, forKey: "publisher")
        try book.mutableSetValue(forKey: "authors").insert(author)
        try context.save()
        // Deny: the author still has a book (error 1600).
        try context.checkedDelete(author)
        let denied = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(denied?.code == .relationshipDeniedDelete)
        context.rollback()
        // Cascade: deleting the publisher deletes its book, whose nullify frees the author.
        try context.checkedDelete(publisher)
        #expect(context.deletedObjects.count == 2)
        try context.save()
        #expect((try author.checkedValue(forKey: "books") as? Set<ManagedObject>)?.isEmpty == true)
        #expect(try context.count(for: FetchRequest(entityName: "Book")) == 0)
    }
}
