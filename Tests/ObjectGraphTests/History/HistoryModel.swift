import Foundation
import ObjectGraph
import TestSupport

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
    static func coordinator(_ url: URL, model: ManagedObjectModel? = nil, tracking: Bool = true) throws
        -> PersistentStoreCoordinator
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? make())
        try coordinator.addPersistentStore(
            type: .sqlite, at: url, options: tracking ? [StoreOption.persistentHistoryTracking: true] : [:])
        return coordinator
    }

    /// A new store of `kind` for one test (SQLite: `name` in `directory`); nil, having said
    /// why, when PostgreSQL is not installed.
    static func newStore(
        _ kind: StoreKind, in directory: TemporaryDirectory, name: String = "Notes.sqlite", test: String = #function
    ) throws -> PersistentStoreDescription? {
        try kind.newStore(in: directory, name: name, test: test)
    }

    /// A coordinator with the store a description names (again), tracking history unless told not to.
    static func coordinator(
        _ description: PersistentStoreDescription, model: ManagedObjectModel? = nil, tracking: Bool = true,
        options: [String: Any] = [:]
    ) throws -> PersistentStoreCoordinator {
        let again = StoreKind.sameStore(as: description)
        again.isPersistentHistoryTrackingEnabled = tracking
        for (key, value) in options { try again.checkedSetOption(value, forKey: key) }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? make())
        try coordinator.addPersistentStore(with: again)
        return coordinator
    }

    /// The transactions a history request returns.
    static func history(_ context: ManagedObjectContext, _ request: PersistentHistoryChangeRequest) throws
        -> [PersistentHistoryTransaction]
    {
        let result = try context.execute(request) as? PersistentHistoryResult
        return result?.transactions ?? []
    }
}
