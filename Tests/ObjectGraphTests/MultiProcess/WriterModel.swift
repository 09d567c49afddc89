import Foundation
import ObjectGraph

/// The model of objectgraph-writer-child (Tests/WriterChild/main.swift): one counter that
/// writers increment, and records that writers insert.
func writerModel() throws -> ManagedObjectModel {
    try ManagedObjectModel {
        EntityDescription("Counter") {
            AttributeDescription("value", .integer64, optional: false)
        }
        EntityDescription("Record") {
            AttributeDescription("writer", .string, optional: false)
            AttributeDescription("index", .integer64, optional: false)
        }
    }
}

/// A new context on a new coordinator with the store at `url` added.
func writerContext(_ type: StoreType, _ url: URL, options: [String: Any] = [:]) throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try writerModel())
    try coordinator.addPersistentStore(type: type, at: url, options: options)
    return ManagedObjectContext(coordinator: coordinator)
}

/// The name the writer child takes for a store type.
func writerTypeName(_ type: StoreType) -> String {
    switch type {
    case .xml: return "xml"
    case .binary: return "binary"
    default: return "sqlite"
    }
}
