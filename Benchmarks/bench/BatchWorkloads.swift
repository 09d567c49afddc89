import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// BatchDeleteRequest and BatchUpdateRequest against the same SQL run with the C API and
/// with GRDB, on the Core Data table of the store workloads. Each run gets its own copy of a
/// filled store, made before the clock starts; every implementation must leave the same rows.
let batchWorkloads: [Workload] = [
    Workload(
        name: "batch-delete-100k",
        summary: "BatchDeleteRequest of `salesRank < 50000` (half the rows); target: <= 1.2x raw",
        run: runBatchDelete),
    Workload(
        name: "batch-update-100k",
        summary:
            "BatchUpdateRequest setting inPrint and price = price * 2 where `salesRank < 50000` (half the rows); target: <= 1.2x raw",
        run: runBatchUpdate),
]

/// The rank below which rows are deleted or updated: half of them.
private let rankLimit = Books.rankRange / 2

/// A filled store file to copy for each run, and the copies.
private final class StoreCopies {
    let directory: TemporaryDirectory
    let template: URL
    private var made = 0

    init(count: Int) throws {
        directory = try TemporaryDirectory()
        template = directory.file("Template.sqlite")
        try Books.createFilledStore(at: template, books: Books.make(count: count))
    }

    /// A new copy of the filled store (its WAL checkpointed into the file when it was closed).
    func copy() throws -> URL {
        made += 1
        let url = directory.file("Run-\(made).sqlite")
        try FileManager.default.copyItem(at: template, to: url)
        return url
    }

    /// Removes a run's copy and its WAL files.
    func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

/// What a store holds after a run, to check that the implementations agree.
private func summary(_ url: URL) throws -> String {
    let db = try RawDatabase(path: url.path)
    defer { db.close() }
    let s = try db.prepare("SELECT COUNT(*), TOTAL(ZPRICE), TOTAL(ZINPRINT), TOTAL(Z_OPT) FROM ZBOOK")
    defer { sqlite3_finalize(s) }
    guard sqlite3_step(s) == SQLITE_ROW else { throw db.error("SELECT COUNT(*) FROM ZBOOK") }
    return
        "\(sqlite3_column_int64(s, 0)) rows, price \(sqlite3_column_double(s, 1)), inPrint \(sqlite3_column_double(s, 2)), Z_OPT \(sqlite3_column_double(s, 3))"
}

/// Runs one batch workload: ours (a request through a context), the SQL with the C API in
/// one IMMEDIATE transaction, and the SQL through GRDB's `write`.
private func runBatch(
    _ name: String, _ settings: BenchSettings, sql: String,
    ours: @escaping (ManagedObjectContext) throws -> Void
) throws -> WorkloadResult {
    let count = settings.rows ?? max(1, 100_000 / settings.scaleDown)
    let copies = try StoreCopies(count: count)
    defer { copies.directory.remove() }
    let model = try Books.model()
    var results = [String](repeating: "", count: 3)
    func check(_ url: URL, _ k: Int) throws {
        results[k] = try summary(url)
        copies.remove(url)
    }
    let timings = try interleavedMedians(
        settings,
        [
            (
                "ours",
                {
                    let url = try copies.copy()
                    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
                    let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
                    let context = ManagedObjectContext(coordinator: coordinator)
                    let t = try timed { try ours(context) }
                    try coordinator.remove(store)
                    try check(url, 0)
                    return t.seconds
                }
            ),
            (
                "raw",
                {
                    let url = try copies.copy()
                    let db = try RawDatabase(path: url.path)
                    let t = try timed {
                        try db.execute("BEGIN IMMEDIATE")
                        let s = try db.prepare(sql)
                        sqlite3_bind_int64(s, 1, Int64(rankLimit))
                        guard sqlite3_step(s) == SQLITE_DONE else {
                            sqlite3_finalize(s)
                            throw db.error(sql)
                        }
                        sqlite3_finalize(s)
                        try db.execute("COMMIT")
                    }
                    db.close()
                    try check(url, 1)
                    return t.seconds
                }
            ),
            (
                "grdb",
                {
                    let url = try copies.copy()
                    let queue = try DatabaseQueue(path: url.path)
                    let t = try timed { try queue.write { db in try db.execute(sql: sql, arguments: [rankLimit]) } }
                    try queue.close()
                    try check(url, 2)
                    return t.seconds
                }
            ),
        ])
    if settings.only == nil, Set(results).count != 1 {
        throw BenchError(
            "\(name): the implementations disagree: ours \(results[0]), raw \(results[1]), grdb \(results[2])")
    }
    return WorkloadResult(
        ours: timings[0], baselines: [("raw", timings[1]), ("grdb", timings[2])],
        unit: "s per request over \(count) rows",
        details: [
            ("rows", String(count)), ("after", jsonString(results[0])), ("repetitions", String(settings.repetitions)),
        ],
        targets: [(baseline: "raw", maximumRatio: 1.2)])
}

private func runBatchDelete(_ settings: BenchSettings) throws -> WorkloadResult {
    try runBatch("batch-delete-100k", settings, sql: "DELETE FROM ZBOOK WHERE ZSALESRANK < ?") { context in
        let fetch = FetchRequest(entityName: Books.entityName)
        fetch.predicate = try ObjectGraph.Predicate(checkedFormat: "salesRank < %@", rankLimit)
        _ = try context.execute(BatchDeleteRequest(fetchRequest: fetch))
    }
}

private func runBatchUpdate(_ settings: BenchSettings) throws -> WorkloadResult {
    let sql = "UPDATE ZBOOK SET Z_OPT = Z_OPT + 1, ZPRICE = (ZPRICE * 2), ZINPRINT = 0 WHERE ZSALESRANK < ?"
    let doubled = try ObjectGraph.Expression(checkedFormat: "price * 2")
    return try runBatch("batch-update-100k", settings, sql: sql) { context in
        let request = BatchUpdateRequest(entityName: Books.entityName)
        request.predicate = try ObjectGraph.Predicate(checkedFormat: "salesRank < %@", rankLimit)
        request.propertiesToUpdate = ["inPrint": false, "price": doubled]
        _ = try context.execute(request)
    }
}
