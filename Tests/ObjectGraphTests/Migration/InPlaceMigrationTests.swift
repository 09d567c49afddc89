import Foundation
import TestSupport
import Testing
import ZarraToDo

@testable import ObjectGraph

// Apple, "Lightweight Migration": Core Data migrates a SQLite store in situ, and a migration
// that fails leaves the store as it was. Both stores run the same plan in one transaction:
// SQLite's journal, or PostgreSQL's transactional DDL, takes back every statement already run.
@Suite struct InPlaceMigrationTests {
    @Test(arguments: StoreKind.allCases) func aFailingStatementLeavesTheStoreAsItWas(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let store = try kind.newStore(in: directory, name: "ToDo.sqlite") else { return }
        try ToDoModels.seed(store)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let mapping = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        var plan = try #require(
            RelationalMigrationPlan(
                source: v1, destination: v2, mapping: mapping, dialect: kind == .sqlite ? .sqlite : .postgres))
        // The plan's own statements first (ZTODO gains columns), then one that fails.
        #expect(plan.statements.contains { $0.sql.contains("ADD COLUMN ZDONOTALERT") })
        plan.statements.append(("fail", "INSERT INTO ZTODO (Z_PK) VALUES (1)"))
        let url = try MigrationStores.url(store)
        let error = #expect(throws: CoreDataError.self) {
            if kind == .sqlite {
                try SQLiteInPlaceMigration.migrate(url: url, plan: plan, progress: nil, log: .ambient)
            } else {
                try PostgresMigration.whileMigrating(url, log: .ambient) { try $0.migrateInPlace(plan, progress: nil) }
            }
        }
        #expect(error?.code == .migration)
        #expect(error?.message.contains("rolled back") == true, "\(error.map { "\($0)" } ?? "")")
        // Version 1, its columns and every object, as before.
        #expect(v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: try MigrationStores.metadata(store)))
        #expect(!(try MigrationStores.columns(of: "ZTODO", in: store)).contains("ZDONOTALERT"))
        #expect(try MigrationStores.context(store, model: v1).count(for: FetchRequest(entityName: "ToDo")) == 7)
    }

    @Test func postgresWordsForTheSamePlan() throws {
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let mapping = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        let sqlite = try #require(RelationalMigrationPlan(source: v1, destination: v2, mapping: mapping))
        let postgres = try #require(
            RelationalMigrationPlan(source: v1, destination: v2, mapping: mapping, dialect: .postgres))
        // The same steps, in the same order; only the column types differ.
        #expect(sqlite.statements.map(\.label) == postgres.statements.map(\.label))
        #expect(sqlite.statements.contains { $0.sql == "ALTER TABLE ZTODO ADD COLUMN ZDONOTALERT INTEGER DEFAULT 0" })
        #expect(postgres.statements.contains { $0.sql == "ALTER TABLE ZTODO ADD COLUMN ZDONOTALERT bigint DEFAULT 0" })
        #expect(RelationalMigrationPlan.literal(Data([0, 0xAB]).databaseValue) == "X'00AB'")
        #expect(
            RelationalMigrationPlan.literal(Data([0, 0xAB]).databaseValue, dialect: .postgres) == #"'\x00AB'::bytea"#)
    }
}

// Beyond Core Data, which has no server store: a PostgreSQL store's migrations from several
// processes at once, and what a killed one leaves.
@Suite struct PostgresMigrationTests {
    /// A version 1 store with `count` to-dos in a schema of its own, or nil without PostgreSQL.
    func oldStore(_ directory: TemporaryDirectory, count: Int = 7) throws -> PersistentStoreDescription? {
        guard let store = try StoreKind.postgres.newStore(in: directory) else { return nil }
        try ToDoModels.seed(store, count: count)
        return store
    }

    static func versions(custom: Bool) throws -> VersionedModel {
        try VersionedModel(
            name: "ToDo", versions: [("1", ToDoModels.version1()), ("2", ToDoModels.version2())],
            currentVersionName: "2",
            mappingModels: custom ? [ToDoModels.doNotAlertMappingModel()] : [])
    }

    @Test func aScratchSchemaOfAKilledMigrationGoesAtTheNextOpen() throws {
        let directory = try TemporaryDirectory()
        guard let store = try oldStore(directory) else { return }
        let url = try MigrationStores.url(store)
        let scratch = try PostgresMigration.migratingURL(for: url)
        // What a migration killed halfway leaves: a destination store, partly written.
        try ToDoModels.seed(
            StoreKind.sameStore(as: PersistentStoreDescription(type: .postgres, url: scratch)), count: 3)
        #expect(try MigrationStores.schemas(beside: store).count == 2)
        let coordinator = PersistentStoreCoordinator(versionedModel: try Self.versions(custom: true))
        try coordinator.addPersistentStore(with: MigrationStores.reopen(store, migrate: true, infer: true))
        #expect(try MigrationStores.schemas(beside: store) == [PostgresNames.schemaName(of: url)])
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == 7)
        let alerts = FetchRequest(entityName: "ToDo")
        alerts.predicate = try Predicate(checkedFormat: "doNotAlert == YES")
        #expect(try context.count(for: alerts) == 3) // Answer mail, apply patch, archive photos
    }

    @Test(arguments: [false, true]) func storesOpenedAtOnceMigrateOnce(custom: Bool) throws {
        let directory = try TemporaryDirectory()
        guard let store = try oldStore(directory, count: 200) else { return }
        let uuid = try MigrationStores.metadata(store)["NSStoreUUID"] as? String
        let versions = try Self.versions(custom: custom)
        // Four coordinators add the old store at once: one migrates, the others wait for its
        // lock and then find the store current.
        let results = LockedResults()
        let url = try MigrationStores.url(store)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let coordinator = PersistentStoreCoordinator(versionedModel: versions)
                // Migrates automatically (shouldMigrateStoreAutomatically, inferring) by default.
                try coordinator.addPersistentStore(with: .postgres(url: url))
                results.append(
                    try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "ToDo")))
            } catch {
                results.append(error)
            }
        }
        #expect(results.errors.isEmpty, "\(results.errors)")
        #expect(results.counts == [200, 200, 200, 200])
        let metadata = try MigrationStores.metadata(store)
        #expect(try ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(metadata["NSStoreUUID"] as? String == uuid)
        #expect(try MigrationStores.schemas(beside: store) == [PostgresNames.schemaName(of: url)])
    }

    @Test func aSchemaNameTooLongForItsScratchSchemaIsRefused() throws {
        let long = String(repeating: "s", count: 60)
        let error = #expect(throws: CoreDataError.self) {
            try PostgresMigration.migratingURL(for: URL(string: "postgres://u@localhost/db?schema=\(long)")!)
        }
        #expect(error?.message.contains(long) == true)
        #expect(error?.message.contains("53 bytes") == true)
        #expect(
            PostgresNames.schemaName(
                of: try PostgresMigration.migratingURL(for: URL(string: "postgres://u@localhost/db?schema=app")!))
                == "app_migrating")
    }
}

/// What the threads of a test found: counts or errors.
final class LockedResults: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private let lock = NSLock()
    private var values: [Any] = []

    func append(_ value: Any) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var counts: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return values.compactMap { $0 as? Int }
    }

    var errors: [Error] {
        lock.lock()
        defer { lock.unlock() }
        return values.compactMap { $0 as? Error }
    }
}
