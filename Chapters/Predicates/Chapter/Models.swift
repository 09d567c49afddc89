import CoreData
import WorkbookSupport

/// The models of the predicates chapter.
public enum PredicatesModels {
    /// People with names, ages and birthdays; words for the string operators.
    public static func people() throws -> NSManagedObjectModel {
        // ANCHOR: people-model
        try NSManagedObjectModel {
            NSEntityDescription("Person") {
                NSAttributeDescription("name", .string, optional: false)
                NSAttributeDescription("age", .integer16)
                NSAttributeDescription("birthday", .date)
            }
            NSEntityDescription("Word") {
                NSAttributeDescription("text", .string, optional: false)
            }
        }
        // ANCHOR_END: people-model
    }

    /// LaMarche's books, each with a numeric id.
    public static func bookshop() throws -> NSManagedObjectModel {
        // ANCHOR: bookshop-model
        try NSManagedObjectModel {
            NSEntityDescription("Book") {
                NSAttributeDescription("id", .integer32, optional: false)
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("publisher", .string)
                NSAttributeDescription("salesRank", .integer32)
            }
        }
        // ANCHOR_END: bookshop-model
    }
}
