import ObjectGraph

/// CoreDataPlus's SampleModel2, version 1, which that repository builds in Swift code
/// (`Tests/Resources/SampleModel2/SampleModel2+V1.swift`), declared here with the same
/// entities, properties, flags, counts and constraints: the store it wrote
/// (alemar11-CoreDataPlus-SampleModel2_V1) has no model file, so this is how its hashes are
/// checked. It exercises what the XML fixtures do not: a derived attribute (`pages.@count`),
/// a to-many with `maxCount = .max`, to-ones with `minCount = 1`, Decimal, URI and UUID. Its
/// transformable values are archives of CoreDataPlus's own classes, read through the transformer
/// the tests register as `CoreDataPlusArchive` (the transformer's name is no part of a hash).
enum SampleModel2 {
    static func version1() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Writer", abstract: true) {
                AttributeDescription("age", .integer16, optional: false)
            }
            EntityDescription("Author", parent: "Writer", uniquenessConstraints: [["alias"]]) {
                AttributeDescription("alias", .string, optional: false)
                AttributeDescription("siteURL", .uri)
                RelationshipDescription(
                    "books", toMany: "Book", inverse: "author", deleteRule: .cascade, maxCount: Int.max)
            }
            EntityDescription("Book", uniquenessConstraints: [["uniqueID"]]) {
                AttributeDescription("uniqueID", .uuid, optional: false)
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("price", .decimal, optional: false)
                AttributeDescription(
                    "cover", .transformable, optional: false, valueTransformerName: "CoreDataPlusArchive",
                    attributeValueClassName: "Cover")
                AttributeDescription("publishedAt", .date, optional: false)
                AttributeDescription(
                    "pagesCount", .integer64, derivationExpression: try! Expression(checkedFormat: "pages.@count"))
                RelationshipDescription(
                    name: "author", destination: "Author", inverse: "books", toMany: false, optional: false,
                    minCount: 1, maxCount: 1, deleteRule: .nullify)
                RelationshipDescription(
                    name: "pages", destination: "Page", inverse: "book", toMany: true, optional: false,
                    minCount: 1, maxCount: 10_000, deleteRule: .cascade)
            }
            EntityDescription("GraphicNovel", parent: "Book") {
                AttributeDescription("isBlackAndWhite", .boolean, optional: false, defaultValue: false)
            }
            EntityDescription("Page") {
                AttributeDescription("isBookmarked", .boolean, optional: false, defaultValue: false)
                AttributeDescription("number", .integer32, optional: false)
                AttributeDescription(
                    "content", .transformable, optional: false, valueTransformerName: "CoreDataPlusArchive",
                    attributeValueClassName: "Content")
                RelationshipDescription(
                    name: "book", destination: "Book", inverse: "pages", toMany: false, optional: false,
                    minCount: 1, maxCount: 1, deleteRule: .nullify)
            }
            EntityDescription("Feedback") {
                AttributeDescription("authorAlias", .string, optional: false)
                AttributeDescription("bookID", .uuid, optional: false)
                AttributeDescription("comment", .string)
                AttributeDescription("rating", .double, optional: false)
            }
        }
    }
}
