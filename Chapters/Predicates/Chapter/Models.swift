import ObjectGraph
import WorkbookSupport

/// The models of the predicates chapter.
public enum PredicatesModels {
    /// People with names, ages and birthdays; words for the string operators.
    public static func people() throws -> ManagedObjectModel {
        // ANCHOR: people-model
        try ManagedObjectModel {
            EntityDescription("Person") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("age", .integer16)
                AttributeDescription("birthday", .date)
            }
            EntityDescription("Word") {
                AttributeDescription("text", .string, optional: false)
            }
        }
        // ANCHOR_END: people-model
    }

    /// LaMarche's books, each with a numeric id.
    public static func bookshop() throws -> ManagedObjectModel {
        // ANCHOR: bookshop-model
        try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("id", .integer32, optional: false)
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("publisher", .string)
                AttributeDescription("salesRank", .integer32)
            }
        }
        // ANCHOR_END: bookshop-model
    }
}
