import Foundation
import ObjectGraph

/// Every store type a batch request runs on: SQLite in SQL, the others on their contents.
let batchStoreTypes: [StoreType] = [.sqlite, .inMemory, .xml, .binary]

/// The store types the batch request suites run on: every type, PostgreSQL included.
let batchRequestStoreTypes: [StoreType] = batchStoreTypes + [.postgres]

/// Items with a unique code (batch insert's constraints), departments whose employees are
/// nullified when they go (a to-one key cleared), and kinds of item (sub-entities).
func batchModel() throws -> ManagedObjectModel {
    try ManagedObjectModel {
        EntityDescription("Item", uniquenessConstraints: [["code"]]) {
            AttributeDescription("code", .string, optional: false)
            AttributeDescription("name", .string)
            AttributeDescription("count", .integer64, defaultValue: 0)
            AttributeDescription("done", .boolean, defaultValue: false)
        }
        EntityDescription("Task") {
            AttributeDescription("title", .string)
            AttributeDescription("priority", .integer32, defaultValue: 1)
        }
        EntityDescription("Chore", parent: "Task") {
            AttributeDescription("room", .string)
        }
        EntityDescription("Department") {
            AttributeDescription("name", .string)
            RelationshipDescription("employees", toMany: "Employee", inverse: "department", deleteRule: .nullify)
        }
        EntityDescription("Owner") {
            AttributeDescription("name", .string)
            RelationshipDescription("pets", toMany: "Pet", inverse: "owner", deleteRule: .noAction)
        }
        EntityDescription("Pet") {
            AttributeDescription("name", .string)
            RelationshipDescription("owner", toOne: "Owner", inverse: "pets")
        }
        EntityDescription("Employee") {
            AttributeDescription("name", .string)
            RelationshipDescription("department", toOne: "Department", inverse: "employees")
        }
    }
}

extension StackFixture {
    /// A context on a fresh store of `type`: a file (or memory) as ``init(_:model:)`` makes,
    /// or for PostgreSQL a schema of its own on the test server; nil, having said why, when
    /// PostgreSQL is not installed.
    static func batch(
        _ type: StoreType, model: ManagedObjectModel? = nil, options: [String: Any] = [:], test: String = #function
    ) throws -> StackFixture? {
        guard type == .postgres else { return try StackFixture(type, model: model) }
        let directory = try TemporaryDirectory()
        guard let description = try StoreKind.postgres.newStore(in: directory, test: test) else { return nil }
        for (key, value) in options { try description.checkedSetOption(value, forKey: key) }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? booksModel())
        try coordinator.addPersistentStore(with: description)
        return StackFixture(directory: directory, context: ManagedObjectContext(coordinator: coordinator))
    }

    /// A fixture on a context made elsewhere.
    init(directory: TemporaryDirectory, context: ManagedObjectContext) {
        self.directory = directory
        self.context = context
    }

    /// The titles of every object of an entity in a new context, sorted: what the store holds.
    func storedValues(_ entity: String, key: String) throws -> [String] {
        let fresh = secondContext()
        return try fresh.fetch(FetchRequest(entityName: entity)).map { "\(try $0.checkedValue(forKey: key) ?? "nil")" }
            .sorted()
    }
}
