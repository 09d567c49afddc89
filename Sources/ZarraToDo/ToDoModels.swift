import CoreData

// ObjectGraph's CoreDataError too: an unknown version is Core Data's NSInvalidArgumentException,
// which Apple raises and ObjectGraph throws.
import struct ObjectGraph.CoreDataError

/// Zarra's ToDo application: its two model versions, the one definition that the chapters,
/// the `todo` program, ObjectGraph's tests, the test child processes and the benchmark share,
/// so that a store written by one opens in the others. (A module of its own, depending only on
/// ObjectGraph and CoreData, so that the library's tests and the benchmark need not depend on the
/// workbook.)
///
/// Version 1 is the article's first application: to-dos with a due date, in categories.
/// Version 2 adds what stops the minute timer from alerting the same item again and again:
/// `lastAlertDate` and `doNotAlert`.
public enum ToDoModels {
    /// The names of the versions, oldest first, as an `.xcdatamodeld` bundle names them.
    public static let versionNames = ["ToDo", "ToDo 2"]

    /// The model of the version named `versionNames[number - 1]`.
    public static func model(version number: Int) throws -> NSManagedObjectModel {
        switch number {
        case 1: return try version1()
        case 2: return try version2()
        default: throw CoreDataError(exception: .invalidArgument, "The ToDo model has versions 1 and 2, not \(number)")
        }
    }

    /// Version 1: ToDo (title, dueDate, completed, category) and Category (name, todos).
    public static func version1() throws -> NSManagedObjectModel {
        // ANCHOR: todo-model-1
        try NSManagedObjectModel(versionIdentifier: "1") {
            NSEntityDescription("ToDo") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("dueDate", .date)
                NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                NSRelationshipDescription("category", toOne: "Category", inverse: "todos", deleteRule: .nullify)
            }
            NSEntityDescription("Category") {
                NSAttributeDescription("name", .string, optional: false)
                NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category", deleteRule: .nullify)
            }
        }
        // ANCHOR_END: todo-model-1
    }

    /// Version 2: version 1 with `ToDo.lastAlertDate` and `ToDo.doNotAlert`.
    public static func version2() throws -> NSManagedObjectModel {
        // ANCHOR: todo-model-2
        try NSManagedObjectModel(versionIdentifier: "2") {
            NSEntityDescription("ToDo") {
                NSAttributeDescription("title", .string, optional: false)
                NSAttributeDescription("dueDate", .date)
                NSAttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                NSAttributeDescription("lastAlertDate", .date)
                NSAttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
                NSRelationshipDescription("category", toOne: "Category", inverse: "todos", deleteRule: .nullify)
            }
            NSEntityDescription("Category") {
                NSAttributeDescription("name", .string, optional: false)
                NSRelationshipDescription("todos", toMany: "ToDo", inverse: "category", deleteRule: .nullify)
            }
        }
        // ANCHOR_END: todo-model-2
    }
}
