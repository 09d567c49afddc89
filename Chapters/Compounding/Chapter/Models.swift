import CoreData

/// The model of the compounding chapter.
public enum CompoundingModels {
    /// LaMarche's books, now with a publisher of their own: each book has at most one
    /// publisher, and a publisher has many books.
    public static func bookstore() throws -> NSManagedObjectModel {
        // ANCHOR: bookstore-model
        try NSManagedObjectModel {
            NSEntityDescription("Publisher") {
                NSAttributeDescription("name", .string, optional: false)
                NSRelationshipDescription("books", toMany: "Book", inverse: "publisher")
            }
            NSEntityDescription("Book") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("author", .string)
                NSAttributeDescription("salesRank", .integer32)
                NSRelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
            }
        }
        // ANCHOR_END: bookstore-model
    }
}
