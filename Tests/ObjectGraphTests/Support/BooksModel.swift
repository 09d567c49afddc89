import ObjectGraph

/// The model the stack tests share: LaMarche's books and publishers, plus authors
/// (many-to-many) for join-table behaviour.
func booksModel() throws -> ManagedObjectModel {
    try ManagedObjectModel {
        EntityDescription("Publisher") {
            AttributeDescription("name", .string, optional: false)
            RelationshipDescription("books", toMany: "Book", inverse: "publisher", deleteRule: .cascade)
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string, optional: false, maxValue: 100)
            AttributeDescription("salesRank", .integer32, minValue: 1)
            AttributeDescription("isbn", .string, regularExpression: "\\d{10}|\\d{9}[Xx]")
            RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
            RelationshipDescription("authors", toMany: "Author", inverse: "books")
        }
        EntityDescription("Author") {
            AttributeDescription("name", .string)
            RelationshipDescription("books", toMany: "Book", inverse: "authors", deleteRule: .deny)
        }
    }
}

func inMemoryContext() throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
    try coordinator.addPersistentStore(
        type: .inMemory, options: [StoreOption.storeUUID: "00000000-0000-0000-0000-000000000001"])
    return ManagedObjectContext(coordinator: coordinator)
}
