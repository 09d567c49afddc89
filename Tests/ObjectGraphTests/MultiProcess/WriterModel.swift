import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport

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

/// A new context on a new coordinator with the store at `url` added (a file, or for
/// PostgreSQL a `postgres://` URL naming the store's schema).
func writerContext(_ type: StoreType, _ url: URL, options: [String: Any] = [:]) throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try writerModel())
    if type == .postgres {
        let description = PersistentStoreDescription.postgres(url: url)
        for (key, value) in options { try description.checkedSetOption(value, forKey: key) }
        try coordinator.addPersistentStore(with: description)
    } else {
        try coordinator.addPersistentStore(type: type, at: url, options: options)
    }
    return ManagedObjectContext(coordinator: coordinator)
}

/// Where a test's writers meet: the file `name` in `directory`, or for PostgreSQL a new schema
/// on the test server; nil, having said why, when PostgreSQL is not installed.
func writerStoreURL(_ type: StoreType, in directory: TemporaryDirectory, name: String, test: String = #function) throws
    -> URL?
{
    guard type == .postgres else { return directory.file("\(name).\(writerTypeName(type))") }
    return try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema(), for: test)
}

/// The store argument of the writer child: a file's path or the PostgreSQL URL.
func writerLocation(_ type: StoreType, _ url: URL) -> String {
    type == .postgres ? url.absoluteString : url.path
}

/// The name the writer child takes for a store type.
func writerTypeName(_ type: StoreType) -> String {
    switch type {
    case .xml: return "xml"
    case .binary: return "binary"
    case .postgres: return "postgres"
    default: return "sqlite"
    }
}
