import Foundation
import GRDB

/// The SQLite store's kind (NSSQLiteStoreType): stores that run fetches as SQL, migrate in
/// place when a lightweight migration allows it, and copy with SQLite's online backup.
struct SQLiteStoreKind: PersistentStoreKind {
    let type = StoreType.sqlite
    let swiftName = ".sqlite"
    let isAtomic = false

    func open(
        at url: URL?, description: PersistentStoreDescription, model: ManagedObjectModel,
        log: SQLLog
    ) throws -> any PersistentStoreBackend {
        try SQLiteStore(url: requiredURL(url), model: model, description: description, log: log)
    }

    func metadata(at url: URL) throws -> [String: Any] {
        try SQLiteStore.metadata(at: url)
    }

    func replace(_ destination: URL, withStoreAt source: URL) throws {
        try SQLiteStore.replace(destination, withStoreAt: source)
    }

    /// A lightweight step whose changes SQL can make runs in place, in one transaction;
    /// any other migrates into a new file that replaces the store.
    func migrate(
        _ step: MigrationStep, at url: URL, progress: MigrationProgressHandler?, batchSize: Int?,
        log: SQLLog
    ) throws {
        if step.isLightweight,
            let plan = RelationalMigrationPlan(
                source: step.sourceModel, destination: step.destinationModel, mapping: step.mappingModel)
        {
            try log.migration("\(step.description) of \(url.lastPathComponent), in place") {
                try SQLiteInPlaceMigration.migrate(url: url, plan: plan, progress: progress, log: log)
            }
            return
        }
        try step.migrateBySwappingFiles(at: url, type: type, progress: progress, batchSize: batchSize, log: log)
    }

    /// The tables and each entity's row count, read without leaving a `-shm` or `-wal`
    /// beside the store (SQLiteReadOnlyFile).
    func inspect(at url: URL) throws -> StoreInspection.Contents {
        let file: SQLiteReadOnlyFile
        do {
            file = try SQLiteReadOnlyFile(
                url: url, configuration: SQLiteConnection.configuration(timeout: StoreOption.defaultTimeout))
        } catch {
            throw CoreDataError(.persistentStoreOpen, "The file at \(url.path) could not be opened as SQLite: \(error)")
        }
        defer { file.close() }
        let metadata = try SQLiteStore.metadata(at: url)
        let (counts, tables) = try CoreDataError.mappingSQLite("Inspecting the store at", url) {
            try file.queue.read { db in (try Self.entityCounts(db), try Self.tables(db)) }
        }
        return StoreInspection.Contents(metadata: metadata, entityCounts: counts, tables: tables)
    }

    /// Every table with its columns and row count, by name.
    private static func tables(_ db: Database) throws -> [StoreInspection.Table] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { name in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(name)\"") ?? 0
            return StoreInspection.Table(name: name, columns: try db.columns(in: name).map(\.name), rowCount: count)
        }
    }

    /// Each entity of `Z_PRIMARYKEY` with its rows in its root entity's table, by name.
    private static func entityCounts(_ db: Database) throws -> [(entity: String, count: Int)] {
        let tableNames = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        let entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_NAME")
        let parents = Dictionary(uniqueKeysWithValues: entities.map { ($0[0] as Int, $0[2] as Int) })
        var counts: [(entity: String, count: Int)] = []
        for entity in entities {
            var root: Int = entity[0]
            while let parent = parents[root], parent != 0 { root = parent }
            guard let rootName = entities.first(where: { ($0[0] as Int) == root })?[1] as String? else { continue }
            let table = "Z" + rootName.uppercased()
            guard tableNames.contains(table) else { continue }
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE Z_ENT = ?", arguments: [entity[0] as Int]) ?? 0
            counts.append((entity[1], count))
        }
        return counts
    }
}
