import Foundation
import ObjectGraph

/// A small model for the persistent history tests: a note whose title is preserved after
/// deletion (a tombstone), with a to-one to its folder.
enum HistoryModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Folder") {
                AttributeDescription("name", .string)
                RelationshipDescription("notes", toMany: "Note", inverse: "folder")
            }
            EntityDescription("Note") {
                AttributeDescription("title", .string, preservesValueInHistoryOnDeletion: true)
                AttributeDescription("body", .string)
                AttributeDescription("rank", .integer64)
                RelationshipDescription("folder", toOne: "Folder", inverse: "notes")
            }
        }
    }

    /// A coordinator with the SQLite store at `url`, tracking history unless told not to.
    static func coordinator(_ url: URL, model: ManagedObjectModel? = nil, tracking: Bool = true) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? make())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: tracking ? [StoreOption.persistentHistoryTracking: true] : [:])
        return coordinator
    }

    /// The transactions a history request returns.
    static func history(_ context: ManagedObjectContext, _ request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction] {
        let result = try context.execute(request) as? PersistentHistoryResult
        return result?.transactions ?? []
    }
}
