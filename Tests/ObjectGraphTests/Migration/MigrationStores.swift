import Foundation
import GRDB
import ObjectGraphPostgres
import TestSupport
import Testing
import ZarraToDo

@testable import ObjectGraph

/// What the migration suites ask of a store whatever its kind (``StoreKind``): open it again,
/// read its metadata and its columns, tell whether it exists, all through its description.
enum MigrationStores {
    /// The description that adds `store` again: without migration unless asked, as
    /// `addPersistentStore(type:at:)` without options does.
    static func reopen(
        _ store: PersistentStoreDescription, migrate: Bool = false, infer: Bool = false,
        progress: MigrationProgressHandler? = nil
    ) -> PersistentStoreDescription {
        let description = StoreKind.sameStore(as: store)
        description.shouldMigrateStoreAutomatically = migrate
        description.shouldInferMappingModelAutomatically = infer
        description.migrationProgressHandler = progress
        return description
    }

    /// The store's URL (every store of these suites has one).
    static func url(_ store: PersistentStoreDescription) throws -> URL {
        try #require(store.url, "a migration test's store has a URL")
    }

    /// The store's metadata, read without adding it.
    static func metadata(_ store: PersistentStoreDescription) throws -> [String: Any] {
        try PersistentStoreCoordinator.metadataForPersistentStore(type: store.type, at: url(store))
    }

    /// A context on the store opened with `model`, without migration.
    static func context(_ store: PersistentStoreDescription, model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: reopen(store))
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// The upper-case column names of a table of the store.
    static func columns(of table: String, in store: PersistentStoreDescription) throws -> Set<String> {
        let url = try url(store)
        if store.type == .sqlite {
            return Set(
                try DatabaseQueue(path: url.path).read { db in try db.columns(in: table).map { $0.name.uppercased() } })
        }
        let result = try query(
            "SELECT upper(column_name) FROM information_schema.columns WHERE table_schema = $1 AND upper(table_name) = $2",
            [PostgresNames.schemaName(of: url).databaseValue, table.uppercased().databaseValue], at: url)
        return Set(result.values.compactMap { $0.storage.value as? String })
    }

    /// Each row's Z_OPT of a table, by the text in `column`.
    static func versions(in table: String, by column: String, of store: PersistentStoreDescription) throws -> [String:
        Int64]
    {
        let url = try url(store)
        let sql = "SELECT \(column), Z_OPT FROM \(table)"
        var pairs: [(String, Int64)] = []
        if store.type == .sqlite {
            pairs = try DatabaseQueue(path: url.path).read { db in
                try Row.fetchAll(db, sql: sql).map { ($0[0] as String, $0[1] as Int64) }
            }
        } else {
            let result = try query(sql, [], at: url)
            for i in 0..<result.rowCount {
                guard case .string(let text) = result[i, 0].storage, case .int64(let version) = result[i, 1].storage
                else { continue }
                pairs.append((text, version))
            }
        }
        return Dictionary(pairs, uniquingKeysWith: max)
    }

    /// Whether there is anything at the store's place: its file, or its schema.
    static func exists(_ store: PersistentStoreDescription) throws -> Bool {
        let url = try url(store)
        if store.type == .sqlite { return FileManager.default.fileExists(atPath: url.path) }
        return try query(
            "SELECT 1 FROM pg_namespace WHERE nspname = $1", [PostgresNames.schemaName(of: url).databaseValue], at: url
        ).rowCount > 0
    }

    /// The schemas whose names begin with the store's schema's (its scratch schemas included).
    static func schemas(beside store: PersistentStoreDescription) throws -> [String] {
        let url = try url(store)
        let result = try query(
            "SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname",
            [PostgresNames.schemaName(of: url).databaseValue], at: url)
        return result.values.compactMap { $0.storage.value as? String }
    }

    /// Runs one statement on the server of a PostgreSQL store.
    static func query(_ sql: String, _ arguments: [DatabaseValue], at url: URL) throws -> PostgresWireResult {
        PostgresStoreType.register()
        let wire = try PostgresWires.connector()(url, 1, 10)
        defer { wire.close() }
        return try wire.withConnection { try $0.query(sql, arguments) }
    }
}

extension ToDoModels {
    /// A v1 store with two categories and `count` to-dos, titles cycling through `titles`.
    static func seed(_ url: URL, type: StoreType = .sqlite, count: Int = 7) throws {
        try seed(PersistentStoreDescription(type: type, url: url), count: count)
    }

    /// ``seed(_:type:count:)`` in the store a description names (a PostgreSQL schema, say).
    static func seed(_ store: PersistentStoreDescription, count: Int = 7) throws {
        let context = try MigrationStores.context(store, model: try version1())
        let home = try context.insertNewObject(forEntityName: "Category")
        try home.checkedSetValue("Home", forKey: "name")
        let work = try context.insertNewObject(forEntityName: "Category")
        try work.checkedSetValue("Work", forKey: "name")
        for i in 0..<count {
            let todo = try context.insertNewObject(forEntityName: "ToDo")
            try todo.checkedSetValue(titles[i % titles.count], forKey: "title")
            try todo.checkedSetValue(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400), forKey: "dueDate")
            try todo.checkedSetValue(i % 3 == 0, forKey: "completed")
            try todo.checkedSetValue(i % 2 == 0 ? home : work, forKey: "category")
        }
        try context.save()
    }
}
