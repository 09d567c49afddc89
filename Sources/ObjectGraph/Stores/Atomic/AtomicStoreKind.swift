import Foundation

/// The kind of the atomic stores in a file (NSXMLStoreType, NSBinaryStoreType): read whole
/// when added, written whole at each save.
struct AtomicStoreKind: PersistentStoreKind {
    let type: StoreType

    var swiftName: String { type == .xml ? ".xml" : ".binary" }

    func open(
        at url: URL?, description: PersistentStoreDescription, model: ManagedObjectModel,
        log: SQLLog
    ) throws -> any PersistentStoreBackend {
        try AtomicStore(description: description, url: requiredURL(url), model: model, log: log)
    }

    func metadata(at url: URL) throws -> [String: Any] {
        try AtomicStoreFile(url: url, type: type).metadata()
    }

    /// The source is read first (it must be a store of this type), copied beside the
    /// destination, then renamed into place.
    func replace(_ destination: URL, withStoreAt source: URL) throws {
        _ = try AtomicStoreFile(url: source, type: type).metadata()
        let scratch = destination.deletingLastPathComponent()
            .appendingPathComponent(
                ".\(destination.lastPathComponent).replacing-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.copyItem(at: source, to: scratch)
        try StoreFiles.replace(destination, with: scratch)
    }

    /// Each entity's object count; entities without objects appear too, from the metadata's
    /// version hashes.
    func inspect(at url: URL) throws -> StoreInspection.Contents {
        let outline = try AtomicStoreFile(url: url, type: type).outline()
        let metadata = outline.metadata
        var counts: [String: Int] = [:]
        for name in outline.entityNames { counts[name, default: 0] += 1 }
        for name in (metadata["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).keys where counts[name] == nil {
            counts[name] = 0
        }
        return StoreInspection.Contents(
            metadata: metadata, entityCounts: counts.keys.sorted().map { ($0, counts[$0]!) })
    }
}

/// The in-memory store's kind (NSInMemoryStoreType): an atomic store without a file, so
/// nothing to read, migrate or replace.
struct InMemoryStoreKind: PersistentStoreKind {
    let type = StoreType.inMemory
    let swiftName = ".inMemory"
    let usesFiles = false

    func open(
        at url: URL?, description: PersistentStoreDescription, model: ManagedObjectModel,
        log: SQLLog
    ) throws -> any PersistentStoreBackend {
        try AtomicStore(description: description, url: nil, model: model)
    }

    func metadata(at url: URL) throws -> [String: Any] {
        throw CoreDataError(.persistentStoreOpen, "An in-memory store has no file to read metadata from")
    }

    func migrateIfNeeded(at url: URL, _ request: AutomaticMigration.Request) throws {}
}
