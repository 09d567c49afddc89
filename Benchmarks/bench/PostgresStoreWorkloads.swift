import Foundation
import ObjectGraph
import ObjectGraphPostgres

/// `--store postgres`: ObjectGraph's PostgreSQL store against the same SQL sent raw through
/// PostgresNIO (``RawPostgres``), on the same server and the same Core Data table, in the same
/// run: fetching every object and inserting every object. Each measurement interleaves the two
/// (see ``interleavedMedians(_:_:)``) and checks that they read or wrote the same data.
let postgresWorkloads: [Workload] = [
    Workload(
        name: "fetch-100k",
        summary:
            "fetch every Book (6 attributes) from PostgreSQL and read every attribute; target: <= 1.5x raw PostgresNIO",
        run: runPostgresFetch),
    Workload(
        name: "insert-100k",
        summary: "insert every Book into an empty PostgreSQL store, one save; target: <= 1.5x raw PostgresNIO",
        run: runPostgresInsert),
]

/// The result of a workload with one baseline, raw PostgresNIO.
private func postgresResult(_ timings: [Double], unit: String, details: [(String, String)]) -> WorkloadResult {
    WorkloadResult(
        ours: timings[0], baselines: [("raw", timings[1])], unit: unit, details: details,
        targets: [(baseline: "raw", maximumRatio: 1.5)])
}

// MARK: fetch-100k

private func runPostgresFetch(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let url = try BenchPostgres.newStoreURL(settings, prefix: "fetch")
    defer { try? BenchPostgres.dropStore(at: url) }
    try BenchPostgres.createEmptyStore(at: url)
    let raw = try RawPostgres(url: url)
    try RawPostgresBooks.insert(Books.make(count: count), into: raw)
    try raw.execute("ANALYZE \(Books.table)")
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try Books.model())
    let store = try coordinator.addPersistentStore(with: .postgres(url: url))
    defer { try? coordinator.remove(store) }
    var sums = [Checksum](repeating: Checksum(), count: 2)
    let timings = try interleavedMedians(
        settings,
        [
            ("ours", { try timedFetch(on: coordinator, into: &sums[0]) }),
            (
                "raw",
                {
                    try timed {
                        var sum = Checksum()
                        let rows = try RawPostgresBooks.fetch(raw, RawBooks.selectSQL())
                        for row in rows { add(row.values, to: &sum) }
                        sums[1] = sum
                        return rows
                    }.seconds
                }
            ),
        ])
    if settings.only == nil {
        guard sums[0] == sums[1] else {
            throw BenchError("fetch-100k (postgres): ours read \(sums[0]), raw read \(sums[1])")
        }
        guard sums[0].rows == count else {
            throw BenchError("fetch-100k (postgres): read \(sums[0].rows) rows, expected \(count)")
        }
    }
    return postgresResult(
        timings, unit: "s per fetch of \(count) rows",
        details: [
            ("store", jsonString("postgres")), ("rows", String(count)), ("repetitions", String(settings.repetitions)),
        ])
}

// MARK: insert-100k

/// The empty PostgreSQL stores an insert workload writes, one schema per run, and the check of
/// what each run wrote.
private struct PostgresInsertStores {
    let settings: BenchSettings
    let books: [BookValues]
    private let expected: Checksum

    init(settings: BenchSettings, books: [BookValues]) {
        self.settings = settings
        self.books = books
        var sum = Checksum()
        for b in books { add(b, to: &sum) }
        expected = sum
    }

    /// A new empty store (made before the clock starts).
    func emptyStore() throws -> URL {
        let url = try BenchPostgres.newStoreURL(settings, prefix: "insert")
        try BenchPostgres.createEmptyStore(at: url)
        return url
    }

    /// Checks a store holds every book, in key order, and its Z_MAX; then drops it.
    func verify(_ url: URL, _ who: String) throws {
        defer { try? BenchPostgres.dropStore(at: url) }
        let db = try RawPostgres(url: url)
        var sum = Checksum()
        for row in try RawPostgresBooks.fetch(db, RawBooks.selectSQL(" ORDER BY t0.Z_PK")) { add(row.values, to: &sum) }
        guard sum == expected else {
            throw BenchError("insert-100k (postgres): \(who) wrote \(sum), expected \(expected)")
        }
        let maximum = try db.query("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(Books.entityNumber)")
        guard let last = try maximum.rows.first?.decode(Int64.self), last == Int64(books.count) else {
            throw BenchError("insert-100k (postgres): \(who) left Z_MAX wrong for \(books.count) rows")
        }
    }
}

private func runPostgresInsert(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let books = Books.make(count: count)
    let stores = PostgresInsertStores(settings: settings, books: books)
    let model = try Books.model()
    let timings = try interleavedMedians(
        settings,
        [
            (
                "ours",
                {
                    let url = try stores.emptyStore()
                    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
                    let store = try coordinator.addPersistentStore(with: .postgres(url: url))
                    let context = ManagedObjectContext(coordinator: coordinator)
                    let t = try timed {
                        try Books.insert(books, into: context)
                        try context.save()
                    }
                    try coordinator.remove(store)
                    try stores.verify(url, "ours")
                    return t.seconds
                }
            ),
            (
                "raw",
                {
                    let url = try stores.emptyStore()
                    let db = try RawPostgres(url: url)
                    let t = try timed { try RawPostgresBooks.insert(books, into: db) }
                    try stores.verify(url, "raw")
                    return t.seconds
                }
            ),
        ])
    return postgresResult(
        timings, unit: "s per insert of \(count) rows",
        details: [
            ("store", jsonString("postgres")), ("rows", String(count)), ("repetitions", String(settings.repetitions)),
        ])
}
