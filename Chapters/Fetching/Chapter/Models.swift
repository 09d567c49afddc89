import ObjectGraph

/// The models of the fetching chapter.
public enum FetchingModels {
    /// LaMarche's bookshop: books with a sales rank.
    public static func bookshop() throws -> ManagedObjectModel {
        // ANCHOR: bookshop-model
        try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("author", .string)
                AttributeDescription("salesRank", .integer32)
            }
        }
        // ANCHOR_END: bookshop-model
    }

    /// Apple's company: employees with salaries, and events with creation dates.
    public static func company() throws -> ManagedObjectModel {
        // ANCHOR: company-model
        try ManagedObjectModel {
            EntityDescription("Employee") {
                AttributeDescription("firstName", .string)
                AttributeDescription("lastName", .string, optional: false)
                AttributeDescription("salary", .decimal)
                AttributeDescription("initials", .string, transient: true)
            }
            EntityDescription("Event") {
                AttributeDescription("name", .string)
                AttributeDescription("creationDate", .date)
            }
        }
        // ANCHOR_END: company-model
    }

    /// Apple's drawing program: an abstract Graphic and its kinds.
    public static func drawing() throws -> ManagedObjectModel {
        // ANCHOR: drawing-model
        try ManagedObjectModel {
            EntityDescription("Graphic", abstract: true) {
                AttributeDescription("name", .string)
                AttributeDescription("x", .double)
                AttributeDescription("y", .double)
            }
            EntityDescription("Circle", parent: "Graphic") { AttributeDescription("radius", .double) }
            EntityDescription("TextArea", parent: "Graphic") { AttributeDescription("text", .string) }
            EntityDescription("Line", parent: "Graphic") { AttributeDescription("length", .double) }
        }
        // ANCHOR_END: drawing-model
    }
}
