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

    static let titles = ["Answer mail", "buy milk", "Call Alice", "apply patch", "Write article", "archive photos", "Back up disk"]

    /// A v1 store with two categories and `count` to-dos, titles cycling through `titles`.
    static func seed(_ url: URL, type: StoreType = .sqlite, count: Int = 7) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try version1())
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let home = try context.insertNewObject(forEntityName: "Category")
        try home.setValue("Home", forKey: "name")
        let work = try context.insertNewObject(forEntityName: "Category")
        try work.setValue("Work", forKey: "name")
        for i in 0..<count {
            let todo = try context.insertNewObject(forEntityName: "ToDo")
            try todo.setValue(titles[i % titles.count], forKey: "title")
            try todo.setValue(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400), forKey: "dueDate")
            try todo.setValue(i % 3 == 0, forKey: "completed")
            try todo.setValue(i % 2 == 0 ? home : work, forKey: "category")
        }
        try context.save()
    }
}
