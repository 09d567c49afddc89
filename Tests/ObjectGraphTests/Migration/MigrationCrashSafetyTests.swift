import Foundation
import TestSupport
import Testing
import ZarraToDo

@testable import ObjectGraph

// Apple, "Core Data Model Versioning and Data Migration" (the source store is left untouched
// until a migration succeeds), and beyond Core Data: a child process migrating a store is
// killed with SIGKILL at moments spread over the migration; the store must then open as
// untouched version 1 or as completely migrated version 2, never anything between, and a
// later automatic migration must finish the job. On SQLite (a file swapped by rename) and on
// PostgreSQL (one transaction in place, or a schema swapped by one transaction).
//
// Twelve kills per mode in the suite; a hundred with
//
//     OBJECTGRAPH_LONG=1 swift test --skip-build --filter MigrationCrashSafety
@Suite struct MigrationCrashSafetyTests {
    static var childURL: URL? { BuiltExecutable.url(named: "objectgraph-migration-child") }

    static let todoCount = 2_500

    /// Kills per mode: twelve in the suite, a hundred with OBJECTGRAPH_LONG=1.
    static var trials: Int { ProcessInfo.processInfo.environment["OBJECTGRAPH_LONG"] == "1" ? 100 : 12 }

    /// Runs the child on the store; kills it after `delay` unless it ended.
    /// Returns whether it finished by itself.
    private func run(_ child: URL, store: URL, mode: String, killAfter delay: Double?) throws -> (
        finished: Bool, seconds: Double
    ) {
        let process = Process()
        process.executableURL = child
        process.arguments = [store.isFileURL ? store.path : store.absoluteString, mode]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return (process.terminationReason == .exit && process.terminationStatus == 0, Date().timeIntervalSince(start))
    }

    /// Puts a copy of the pristine store at `to`: its files, or its tables in a new schema
    /// (the store's schema and any scratch schema a killed migration left are dropped first).
    private func copyStore(_ from: PersistentStoreDescription, to: PersistentStoreDescription) throws {
        let source = try MigrationStores.url(from)
        let target = try MigrationStores.url(to)
        if from.type == .sqlite {
            for suffix in ["", "-wal", "-shm", ".migrating"] {
                try? FileManager.default.removeItem(atPath: target.path + suffix)
            }
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source.path + suffix) {
                try FileManager.default.copyItem(atPath: source.path + suffix, toPath: target.path + suffix)
            }
            return
        }
        let (pristine, copy) = (PostgresNames.schemaName(of: source), PostgresNames.schemaName(of: target))
        for schema in try MigrationStores.schemas(beside: to) {
            _ = try MigrationStores.query("DROP SCHEMA \(PostgresNames.quoted(schema)) CASCADE", [], at: target)
        }
        _ = try MigrationStores.query("CREATE SCHEMA \(PostgresNames.quoted(copy))", [], at: target)
        let tables = try MigrationStores.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
            [pristine.databaseValue], at: source)
        for case .string(let table) in tables.values.map(\.storage) {
            let (from, into) = (
                "\(PostgresNames.quoted(pristine)).\(PostgresNames.quoted(table))",
                "\(PostgresNames.quoted(copy)).\(PostgresNames.quoted(table))"
            )
            _ = try MigrationStores.query("CREATE TABLE \(into) (LIKE \(from) INCLUDING ALL)", [], at: target)
            _ = try MigrationStores.query("INSERT INTO \(into) SELECT * FROM \(from)", [], at: target)
        }
    }

    @Test(
        .enabled(
            if: childURL != nil, "the objectgraph-migration-child executable is built by `swift build --build-tests`"),
        arguments: StoreKind.allCases)
    func killedMigrationsLeaveVersion1OrVersion2(kind: StoreKind) throws {
        let child = try #require(Self.childURL)
        let directory = try TemporaryDirectory()
        guard let pristine = try kind.newStore(in: directory, name: "Pristine.sqlite") else { return }
        try ToDoModels.seed(pristine, count: Self.todoCount)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        var outcomes: [String: Int] = [:]
        let expectedAlerts = (0..<Self.todoCount).filter {
            ToDoModels.titles[$0 % ToDoModels.titles.count].lowercased().hasPrefix("a")
        }.count
        for mode in ["custom", "lightweight"] {
            // One undisturbed run measures how long a migration takes.
            let store = try #require(try kind.newStore(in: directory, name: "\(mode).sqlite"))
            let url = try MigrationStores.url(store)
            try copyStore(pristine, to: store)
            let calibration = try run(child, store: url, mode: mode, killAfter: nil)
            #expect(calibration.finished, "\(mode): the child migrates when left alone")
            print(
                "migration crash calibration (\(kind) \(mode)): the child migrated \(Self.todoCount) to-dos in \(String(format: "%.2f", calibration.seconds)) s"
            )
            // Kill moments spread over the child's whole life, fixed so each run is the same test;
            // on a loaded machine a run can take longer than the calibration said, so while no
            // kill has landed after the swap, later ones are tried (twice, four and eight times
            // the calibration), so that both outcomes are seen.
            var delays = (0..<Self.trials).map { 0.01 + calibration.seconds * 1.6 * Double(($0 * 7) % 12) / 11 }
            var later = [2.0, 4.0, 8.0].map { calibration.seconds * $0 }
            var trial = 0
            while trial < delays.count {
                defer { trial += 1 }
                if trial == delays.count - 1, !later.isEmpty,
                    !outcomes.keys.contains(where: { $0.hasPrefix("\(mode) v2") })
                {
                    delays.append(later.removeFirst())
                }
                try copyStore(pristine, to: store)
                let finished = try run(child, store: url, mode: mode, killAfter: delays[trial]).finished
                let metadata = try MigrationStores.metadata(store)
                let isV1 = v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
                let isV2 = v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
                #expect(isV1 != isV2, "\(mode) trial \(trial): the store is version 1 or 2")
                outcomes["\(mode) \(isV2 ? "v2" : "v1")\(finished ? " finished" : "")", default: 0] += 1
                // Whichever it is, it opens with that model and holds every object.
                let context = try MigrationStores.context(store, model: isV2 ? v2 : v1)
                #expect(
                    try context.count(for: FetchRequest(entityName: "ToDo")) == Self.todoCount, "\(mode) trial \(trial)"
                )
                let homeRequest = FetchRequest(entityName: "ToDo")
                homeRequest.predicate = try Predicate(checkedFormat: "category.name == 'Home'")
                #expect(try context.count(for: homeRequest) == Self.todoCount / 2, "\(mode) trial \(trial)")
                if isV2 {
                    let alerts = FetchRequest(entityName: "ToDo")
                    alerts.predicate = try Predicate(checkedFormat: "doNotAlert == YES")
                    #expect(
                        try context.count(for: alerts) == (mode == "custom" ? expectedAlerts : 0),
                        "\(mode) trial \(trial)")
                }
                if kind == .sqlite {
                    #expect(
                        !FileManager.default.fileExists(atPath: url.path + ".migrating") || !isV2,
                        "\(mode) trial \(trial): no scratch file after success")
                } else if isV2 {
                    #expect(
                        try MigrationStores.schemas(beside: store) == [PostgresNames.schemaName(of: url)],
                        "\(mode) trial \(trial): no scratch schema after success")
                }
            }
            // A killed migration is finished by the next one, which removes what the killed one left.
            try copyStore(pristine, to: store)
            _ = try run(child, store: url, mode: mode, killAfter: calibration.seconds * 0.5)
            #expect(try run(child, store: url, mode: mode, killAfter: nil).finished)
            #expect(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: try MigrationStores.metadata(store)))
            if kind == .postgres {
                #expect(try MigrationStores.schemas(beside: store) == [PostgresNames.schemaName(of: url)])
            }
        }
        // The kills landed both before and after the swap.
        print("migration crash outcomes (\(kind)): \(outcomes)")
        #expect(outcomes.keys.contains { $0.hasPrefix("custom v1") }, "\(outcomes)")
        #expect(outcomes.keys.contains { $0.hasPrefix("custom v2") }, "\(outcomes)")
    }
}
