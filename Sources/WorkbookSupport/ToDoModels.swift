import ObjectGraph

/// Zarra's ToDo application: its two model versions, shared by the versioning chapters and
/// the `todo` program so that a store written by one opens in the other.
///
/// Version 1 is the article's first application: to-dos with a due date, in categories.
/// Version 2 adds what stops the minute timer from alerting the same item again and again:
/// `lastAlertDate` and `doNotAlert`.
public enum ToDoModels {
    /// The names of the versions, oldest first, as an `.xcdatamodeld` bundle names them.
    public static let versionNames = ["ToDo", "ToDo 2"]

    /// The model file as Xcode would save it, `ToDo.xcdatamodeld`, shipped with the workbook:
    /// both versions, "ToDo 2" current. It describes the same models as ``version1()`` and
    /// ``version2()`` (a test compares their version hashes).
    public static var bundleURL: URL {
        Bundle.module.url(forResource: "ToDo", withExtension: "xcdatamodeld")!
    }

    /// The versions in ``bundleURL``, loaded.
    public static func bundle() throws -> ModelBundle {
        try ModelBundle(contentsOf: bundleURL)
    }

    /// The model of the version named `versionNames[number - 1]`.
    public static func model(version number: Int) throws -> ManagedObjectModel {
        switch number {
        case 1: return try version1()
        case 2: return try version2()
        default: throw CoreDataError(.invalidArgument, "The ToDo model has versions 1 and 2, not \(number)")
        }
    }

    /// Version 1: ToDo (title, dueDate, completed, category) and Category (name, todos).
    public static func version1() throws -> ManagedObjectModel {
        // ANCHOR: todo-model-1
        try ManagedObjectModel(versionIdentifier: "1") {
            EntityDescription("ToDo") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                RelationshipDescription("category", toOne: "Category", inverse: "todos", deleteRule: .nullify)
            }
            EntityDescription("Category") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription("todos", toMany: "ToDo", inverse: "category", deleteRule: .nullify)
            }
        }
        // ANCHOR_END: todo-model-1
    }

    /// Version 2: version 1 with `ToDo.lastAlertDate` and `ToDo.doNotAlert`.
    public static func version2() throws -> ManagedObjectModel {
        // ANCHOR: todo-model-2
        try ManagedObjectModel(versionIdentifier: "2") {
            EntityDescription("ToDo") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                AttributeDescription("lastAlertDate", .date)
                AttributeDescription("doNotAlert", .boolean, optional: false, defaultValue: false)
                RelationshipDescription("category", toOne: "Category", inverse: "todos", deleteRule: .nullify)
            }
            EntityDescription("Category") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription("todos", toMany: "ToDo", inverse: "category", deleteRule: .nullify)
            }
        }
        // ANCHOR_END: todo-model-2
    }
}
