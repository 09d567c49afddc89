import Foundation
import ObjectGraph
import ZarraToDo

/// What ObjectGraph's migration tests add to Zarra's ToDo model: versions 1 and 2 and his
/// Listing 12 policy come from ZarraToDo (Sources/ZarraToDo, the one definition the chapters,
/// `todo` and the benchmark use too); a third version and a seeded store are the tests' own.
extension ToDoModels {
    /// Version 3: Category renamed Folder (renaming identifier), ToDo.title renamed name,
    /// Folder gains a colour.
    static func v3() throws -> ManagedObjectModel {
        try ManagedObjectModel(versionIdentifier: "3") {
            EntityDescription("Folder", renamingIdentifier: "Category") {
                AttributeDescription("name", .string)
                AttributeDescription("colour", .string, defaultValue: "grey")
                RelationshipDescription("todos", toMany: "ToDo", inverse: "folder")
            }
            EntityDescription("ToDo") {
                AttributeDescription("name", .string, renamingIdentifier: "title")
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                AttributeDescription("lastAlertDate", .date)
                AttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
                RelationshipDescription("folder", toOne: "Folder", inverse: "todos", renamingIdentifier: "category")
            }
        }
    }

    static let titles = [
        "Answer mail", "buy milk", "Call Alice", "apply patch", "Write article", "archive photos", "Back up disk",
    ]
}
