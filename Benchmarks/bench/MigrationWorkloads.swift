import Foundation
import GRDBSQLite
import ObjectGraph
import ZarraToDo

// Migration workloads (reference/migration.md section 5: no published figures exist for Core
// Data; these are ours).
//
//   migrate-lightweight  1,000,000 ToDo rows, version 2 adds two attributes: our automatic
//                        lightweight migration (metadata read, inference, in-place SQL, in one
//                        transaction) vs raw `ALTER TABLE ... ADD COLUMN` twice plus the
//                        metadata update, in one transaction.
//   migrate-custom       1,000,000 ToDo rows through Zarra's custom policy with a
//                        MigrationManager (three passes, association tables, a new store) vs
//                        one raw `INSERT ... SELECT` per table doing the same into a new file.
//                        Also the policy migration's peak RSS (VmHWM) at 100,000 and at
//                        1,000,000 rows, each measured in a separate child process (this
//                        executable re-run with OBJECTGRAPH_BENCH_MIGRATION_CHILD set). The
//                        policy says it leaves createRelationships to the base class, so each
//                        to-do is inserted with its category and written once.
//   migrate-custom-two-pass  the same with Zarra's policy as written, which does not say so:
//                        Core Data's second pass loads each to-do again and updates its
//                        category (what migrate-custom measured before issue #27 item 4).

let migrationWorkloads: [Workload] = {
    if let made = ProcessInfo.processInfo.environment["OBJECTGRAPH_BENCH_MAKE_TODO_STORE"] {
        // Makes a version 1 store of N to-dos at PATH ("PATH:N") and exits: the store a
        // profiler runs the migration child on (valgrind --tool=callgrind, see the report).
        let parts = made.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[1]), count > 0 else {
            FileHandle.standardError.write(
                Data("OBJECTGRAPH_BENCH_MAKE_TODO_STORE must be PATH:ROWS, got \(made)\n".utf8))
            exit(2)
        }
        do {
            try makeStore(URL(fileURLWithPath: String(parts[0])), count: count)
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("making the store failed: \(error)\n".utf8))
            exit(1)
        }
    }
    if let job = ProcessInfo.processInfo.environment["OBJECTGRAPH_BENCH_MIGRATION_CHILD"] {
        // A child run: migrate the store named by the variable, print the peak RSS, exit.
        do {
            let twoPass = ProcessInfo.processInfo.environment["OBJECTGRAPH_BENCH_MIGRATION_TWO_PASS"] == "1"
            try customMigration(
                from: URL(fileURLWithPath: job), to: URL(fileURLWithPath: job + ".v2"), twoPass: twoPass)
            print("rss_kb \(peakRSSKilobytes())")
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("migration child failed: \(error)\n".utf8))
            exit(1)
        }
    }
    return [
        Workload(
            name: "migrate-lightweight",
            summary: "1,000,000 ToDo rows, v2 adds two attributes: lightweight migration vs raw ALTER TABLE",
            run: runLightweight),
        Workload(
            name: "migrate-custom",
            summary:
                "1,000,000 ToDo rows through Zarra's custom policy vs raw INSERT ... SELECT; peak RSS at 100k and 1M",
            run: { try runCustom($0, twoPass: false) }),
        Workload(
            name: "migrate-custom-two-pass",
            summary: "migrate-custom with Zarra's policy as written: a second pass updates each to-do's category",
            run: { try runCustom($0, twoPass: true) }),
    ]
}()

// MARK: Models and the policy

// Zarra's ToDo model and his Listing 12 policy come from ZarraToDo (Sources/ZarraToDo), the
// one definition the chapters, `todo` and the tests use, so the benchmark measures that.

/// Zarra's policy, saying that it does not override createRelationships(forDestination:in:manager:):
/// the manager gives each new to-do its category in the first pass.
private final class SinglePassDoNotAlertForAPolicy: DoNotAlertForAPolicy {
    override class var overridesCreateRelationships: Bool { false }
}

private func customMigration(from source: URL, to destination: URL, twoPass: Bool) throws {
    let v1 = try ToDoModels.version1()
    let v2 = try ToDoModels.version2()
    let mapping = try ToDoModels.doNotAlertMappingModel(
        policy: twoPass ? DoNotAlertForAPolicy.self : SinglePassDoNotAlertForAPolicy.self)
    try? FileManager.default.removeItem(at: destination)
    let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
    try manager.migrateStore(from: source, type: .sqlite, with: mapping, to: destination, type: .sqlite)
}

// MARK: Stores

private let benchTitles = [
    "Answer mail", "buy milk", "Call Alice", "apply patch", "Write article", "archive photos", "Back up disk",
]

/// A version 1 store with 10 categories and `count` to-dos: made empty through ObjectGraph
/// (so its layout and metadata are Core Data's), filled with raw inserts for speed.
private func makeStore(_ url: URL, count: Int) throws {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    do {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: 1))
        try coordinator.addPersistentStore(type: .sqlite, at: url)
    }
    let db = try MigrationRawDatabase(url)
    defer { db.close() }
    try db.exec("BEGIN")
    let category = try db.prepare("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)")
    for i in 1...10 {
        sqlite3_bind_int64(category, 1, Int64(i))
        sqlite3_bind_text(category, 2, "Category \(i)", -1, SQLITE_TRANSIENT_BENCH)
        try db.step(category)
    }
    sqlite3_finalize(category)
    let todo = try db.prepare(
        "INSERT INTO ZTODO (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZDUEDATE, ZCOMPLETED, ZCATEGORY) VALUES (?, 2, 1, ?, ?, ?, ?)")
    for i in 1...count {
        sqlite3_bind_int64(todo, 1, Int64(i))
        sqlite3_bind_text(todo, 2, "\(benchTitles[i % benchTitles.count]) \(i)", -1, SQLITE_TRANSIENT_BENCH)
        sqlite3_bind_double(todo, 3, Double(i) * 60)
        sqlite3_bind_int64(todo, 4, Int64(i % 3 == 0 ? 1 : 0))
        sqlite3_bind_int64(todo, 5, Int64(i % 10 + 1))
        try db.step(todo)
    }
    sqlite3_finalize(todo)
    try db.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = 10 WHERE Z_NAME = 'Category'")
    try db.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_NAME = 'ToDo'")
    try db.exec("COMMIT")
    try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
}

private func copyStore(_ from: URL, to: URL) throws {
    for suffix in ["", "-wal", "-shm", ".migrating"] { try? FileManager.default.removeItem(atPath: to.path + suffix) }
    try FileManager.default.copyItem(at: from, to: to)
}

// MARK: Workloads

private func benchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "objectgraph-bench-migration-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func runLightweight(_ settings: BenchSettings) throws -> WorkloadResult {
    let rows = 1_000_000 / settings.scaleDown
    let directory = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pristine = directory.appendingPathComponent("v1.sqlite")
    let work = directory.appendingPathComponent("work.sqlite")
    try makeStore(pristine, count: rows)
    let v1 = try ToDoModels.model(version: 1)
    let v2 = try ToDoModels.model(version: 2)
    let versions = try VersionedModel(name: "ToDo", versions: [("1", v1), ("2", v2)], currentVersionName: "2")
    let v2Hashes = try PropertyListSerialization.data(
        fromPropertyList: ["NSStoreModelVersionHashes": v2.entityVersionHashesByName, "NSStoreType": "SQLite"],
        format: .binary, options: 0)
    var ours: [Double] = []
    var raw: [Double] = []
    for round in 0...max(1, settings.repetitions) {
        try copyStore(pristine, to: work)
        let o = try seconds {
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: work)
            for step in try versions.migrationSteps(forStoreMetadata: metadata) {
                try step.migrateStore(at: work, type: .sqlite)
            }
        }
        guard
            v2.isConfiguration(
                withName: nil,
                compatibleWithStoreMetadata: try PersistentStoreCoordinator.metadataForPersistentStore(
                    type: .sqlite, at: work))
        else {
            throw BenchError("the lightweight migration did not produce a version 2 store")
        }
        try copyStore(pristine, to: work)
        let r = try seconds {
            let db = try MigrationRawDatabase(work)
            try db.exec("PRAGMA journal_mode = WAL")
            try db.exec("BEGIN EXCLUSIVE")
            try db.exec("ALTER TABLE ZTODO ADD COLUMN ZLASTALERTDATE TIMESTAMP")
            try db.exec("ALTER TABLE ZTODO ADD COLUMN ZDONOTALERT INTEGER DEFAULT 0")
            let update = try db.prepare("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1")
            _ = v2Hashes.withUnsafeBytes {
                sqlite3_bind_blob(update, 1, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_BENCH)
            }
            try db.step(update)
            sqlite3_finalize(update)
            try db.exec("COMMIT")
            db.close()
        }
        if round > 0 {
            ours.append(o)
            raw.append(r)
        } // round 0 warms up
    }
    return WorkloadResult(ours: median(ours), baselines: [("raw", median(raw))], unit: "\(rows) rows")
}

private func runCustom(_ settings: BenchSettings, twoPass: Bool) throws -> WorkloadResult {
    let rows = 1_000_000 / settings.scaleDown
    let directory = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pristine = directory.appendingPathComponent("v1.sqlite")
    let destination = directory.appendingPathComponent("v2.sqlite")
    try makeStore(pristine, count: rows)
    // The destination layout, made empty by ObjectGraph, for the raw baseline to fill.
    let emptyV2 = directory.appendingPathComponent("empty-v2.sqlite")
    do {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: 2))
        try coordinator.addPersistentStore(type: .sqlite, at: emptyV2)
    }
    let repetitions = max(1, min(settings.repetitions, 3))
    var ours: [Double] = []
    var raw: [Double] = []
    for _ in 0..<repetitions {
        ours.append(try seconds { try customMigration(from: pristine, to: destination, twoPass: twoPass) })
        try checkMigrated(destination, rows: rows)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: destination.path + suffix) }
        try FileManager.default.copyItem(at: emptyV2, to: destination)
        raw.append(
            try seconds {
                let db = try MigrationRawDatabase(destination)
                try db.exec("ATTACH DATABASE '\(pristine.path)' AS v1")
                try db.exec("BEGIN")
                try db.exec(
                    "INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT Z_PK, Z_ENT, 1, ZNAME FROM v1.ZCATEGORY")
                try db.exec(
                    """
                    INSERT INTO ZTODO (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZDUEDATE, ZCOMPLETED, ZLASTALERTDATE, ZDONOTALERT, ZCATEGORY)
                    SELECT Z_PK, Z_ENT, 1, ZTITLE, ZDUEDATE, ZCOMPLETED, NULL, lower(substr(ZTITLE, 1, 1)) = 'a', ZCATEGORY FROM v1.ZTODO
                    """)
                try db.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZTODO) WHERE Z_NAME = 'ToDo'")
                try db.exec(
                    "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZCATEGORY) WHERE Z_NAME = 'Category'")
                try db.exec("COMMIT")
                try db.exec("DETACH DATABASE v1")
                db.close()
            })
        try checkMigrated(destination, rows: rows)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: destination.path + suffix) }
    }
    // Peak memory of the policy migration at 100k and at 1M rows, each in a fresh process.
    let small = directory.appendingPathComponent("rss-small.sqlite")
    try makeStore(small, count: rows / 10)
    let rssSmall = try childPeakRSS(small, twoPass: twoPass)
    let rssLarge = try childPeakRSS(pristine, twoPass: twoPass)
    return WorkloadResult(
        ours: median(ours), baselines: [("raw", median(raw))], unit: "\(rows) rows",
        details: [
            ("rss_100k_mb", jsonNumber(rssSmall / 1024)), ("rss_1m_mb", jsonNumber(rssLarge / 1024)),
            ("rss_ratio", jsonNumber(rssLarge / rssSmall)),
        ])
}

/// The migrated store has every row, the flags and the categories.
private func checkMigrated(_ url: URL, rows: Int) throws {
    let db = try MigrationRawDatabase(url)
    defer { db.close() }
    let count = try db.scalar("SELECT COUNT(*) FROM ZTODO")
    let flagged = try db.scalar("SELECT COUNT(*) FROM ZTODO WHERE ZDONOTALERT = 1")
    let expected = (1...rows).filter { benchTitles[$0 % benchTitles.count].lowercased().hasPrefix("a") }.count
    let categorized = try db.scalar("SELECT COUNT(*) FROM ZTODO t JOIN ZCATEGORY c ON c.Z_PK = t.ZCATEGORY")
    guard count == rows, flagged == expected, categorized == rows else {
        throw BenchError(
            "migrated store has \(count) rows (\(rows) expected), \(flagged) flagged (\(expected)), \(categorized) with a category"
        )
    }
}

/// Runs this executable as a child that migrates `store`; its VmHWM in kilobytes.
private func childPeakRSS(_ store: URL, twoPass: Bool) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.environment = ProcessInfo.processInfo.environment.merging([
        "OBJECTGRAPH_BENCH_MIGRATION_CHILD": store.path, "OBJECTGRAPH_BENCH_MIGRATION_TWO_PASS": twoPass ? "1" : "0",
    ]) { _, new in new }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("rss_kb ") }
        ),
        let kb = Double(line.dropFirst(7))
    else {
        throw BenchError("the migration child failed (status \(process.terminationStatus))")
    }
    return kb
}

private func peakRSSKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return -1 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
}

// MARK: Raw SQLite, for the baselines

private let SQLITE_TRANSIENT_BENCH = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

private final class MigrationRawDatabase {
    let handle: OpaquePointer

    init(_ url: URL) throws {
        var db: OpaquePointer?
        guard sqlite3_open(url.path, &db) == SQLITE_OK, let db else { throw BenchError("cannot open \(url.path)") }
        handle = db
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return statement
    }

    func step(_ statement: OpaquePointer) throws {
        let rc = sqlite3_step(statement)
        guard rc == SQLITE_DONE || rc == SQLITE_ROW else { throw BenchError(String(cString: sqlite3_errmsg(handle))) }
        sqlite3_reset(statement)
    }

    func scalar(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError(String(cString: sqlite3_errmsg(handle))) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    func close() { sqlite3_close(handle) }
}
