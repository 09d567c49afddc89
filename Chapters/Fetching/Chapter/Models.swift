import CoreData

/// The models of the fetching chapter.
public enum FetchingModels {
    /// LaMarche's bookshop: books with a sales rank.
    public static func bookshop() throws -> NSManagedObjectModel {
        // ANCHOR: bookshop-model
        try NSManagedObjectModel {
            NSEntityDescription("Book") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("author", .string)
                NSAttributeDescription("salesRank", .integer32)
            }
        }
        // ANCHOR_END: bookshop-model
    }

    /// Apple's company: employees with salaries, and events with creation dates.
    public static func company() throws -> NSManagedObjectModel {
        // ANCHOR: company-model
        try NSManagedObjectModel {
            NSEntityDescription("Employee") {
                NSAttributeDescription("firstName", .string)
                NSAttributeDescription("lastName", .string, optional: false)
                NSAttributeDescription("salary", .decimal)
                NSAttributeDescription("initials", .string, transient: true)
            }
            NSEntityDescription("Event") {
                NSAttributeDescription("name", .string)
                NSAttributeDescription("creationDate", .date)
            }
        }
        // ANCHOR_END: company-model
    }

    /// Apple's drawing program: an abstract Graphic and its kinds.
    public static func drawing() throws -> NSManagedObjectModel {
        // ANCHOR: drawing-model
        try NSManagedObjectModel {
            NSEntityDescription("Graphic", abstract: true) {
                NSAttributeDescription("name", .string)
                NSAttributeDescription("x", .double)
                NSAttributeDescription("y", .double)
            }
            NSEntityDescription("Circle", parent: "Graphic") { NSAttributeDescription("radius", .double) }
            NSEntityDescription("TextArea", parent: "Graphic") { NSAttributeDescription("text", .string) }
            NSEntityDescription("Line", parent: "Graphic") { NSAttributeDescription("length", .double) }
        }
        // ANCHOR_END: drawing-model
    }
}
