import Foundation
import ObjectGraph

/// Every store type a batch request runs on: SQLite in SQL, the others on their contents.
let batchStoreTypes: [StoreType] = [.sqlite, .inMemory, .xml, .binary]

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
    /// The titles of every object of an entity in a new context, sorted: what the store holds.
    func storedValues(_ entity: String, key: String) throws -> [String] {
        let fresh = secondContext()
        return try fresh.fetch(FetchRequest(entityName: entity)).map { "\(try $0.value(forKey: key) ?? "nil")" }.sorted()
    }
}
