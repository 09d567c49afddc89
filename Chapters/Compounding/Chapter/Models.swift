import ObjectGraph

/// The model of the compounding chapter.
public enum CompoundingModels {
    /// LaMarche's books, now with a publisher of their own: each book has at most one
    /// publisher, and a publisher has many books.
    public static func bookstore() throws -> ManagedObjectModel {
        // ANCHOR: bookstore-model
        try ManagedObjectModel {
            EntityDescription("Publisher") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription("books", toMany: "Book", inverse: "publisher")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("author", .string)
                AttributeDescription("salesRank", .integer32)
                RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
            }
        }
        // ANCHOR_END: bookstore-model
    }
}
