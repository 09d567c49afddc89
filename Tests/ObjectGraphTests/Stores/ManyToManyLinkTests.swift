import Foundation
import Testing

@testable import ObjectGraph

// NSRelationshipDescription: a many-to-many relationship and its inverse are one relationship;
// adding from either side of saved objects is saved, whichever side's to-many was loaded.
@Suite struct ManyToManyLinkTests {
    @Test(arguments: [StoreType.sqlite, .xml, .inMemory])
    func addingFromTheSideThatDoesNotOwnTheLinkIsSaved(_ type: StoreType) throws {
        let fixture = try MergePolicyFixture(type)
        let author = try fixture.context.insertNewObject(forEntityName: "Author")
        try author.checkedSetValue("Ann", forKey: "name")
        try fixture.context.save()
        let context = fixture.stack.secondContext()
        let book = try context.existingObject(with: fixture.bookID)
        // Author.books was never loaded in this context when Book.authors changes it.
        try book.mutableSetValue(forKey: "authors").insert(try context.existingObject(with: author.objectID))
        try context.save()
        let reader = fixture.stack.secondContext()
        let authors =
            try reader.existingObject(with: fixture.bookID).checkedValue(forKey: "authors") as? Set<ManagedObject>
        #expect(try authors?.map { try $0.checkedValue(forKey: "name") as? String } == ["Ann"])
    }
}
