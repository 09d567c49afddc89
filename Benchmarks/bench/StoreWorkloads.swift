import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// The SQLite store against the raw C API and GRDB records, on the same Core Data table:
/// fetching every object, inserting, a predicate fetch and an aggregate. Each measurement
/// interleaves the three implementations (see ``interleavedMedians(_:_:)``) and
/// checks that they read the same data.
let storeWorkloads: [Workload] = [
    Workload(
        name: "fetch-100k",
        summary: "fetch every Book (6 attributes) and read every attribute; targets: <= 1.5x raw, <= 1.0x grdb",
        run: runFetch),
    Workload(
        name: "insert-100k",
        summary: "insert every Book into an empty store, one save; target: <= 1.5x raw",
        run: runInsert),
    Workload(
        name: "predicate-fetch",
        summary:
            "fetch `title BEGINSWITH[c] %@ AND salesRank < %@` (1% of the rows), read every attribute; target: <= 1.2x raw",
        run: runPredicateFetch),
    Workload(
        name: "aggregate",
        summary:
            "max:(salesRank) and count:(title) through expression descriptions (dictionary result); target: <= 1.1x raw",
        run: runAggregate),
]

/// The rows of the store workloads: `--rows N`, else 100,000 divided by `--scale-down`.
func rowCount(_ settings: BenchSettings) -> Int {
    settings.rows ?? max(1, 100_000 / settings.scaleDown)
}

/// A store file filled with `count` books, opened by all three implementations.
struct FilledStore {
    let directory: TemporaryDirectory
    let coordinator: PersistentStoreCoordinator
    let raw: RawDatabase
    let grdb: DatabaseQueue

    /// A store of `count` books, its model's Book entity made of `bookClass`.
    init(count: Int, bookClass: ManagedObject.Type = ManagedObject.self) throws {
        directory = try TemporaryDirectory()
        let url = directory.file("Books.sqlite")
        try Books.createFilledStore(at: url, books: Books.make(count: count))
        coordinator = PersistentStoreCoordinator(managedObjectModel: try Books.model(bookClass: bookClass))
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        raw = try RawDatabase(path: url.path)
        grdb = try GRDBBook.open(url)
    }

    func close() throws {
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        raw.close()
        try grdb.close()
        directory.remove()
    }
}

extension FilledStore {
    /// The raw loop's fetch of every book, timed; its checksum into `sum`.
    func timedRawFetch(into sum: inout Checksum) throws -> Double {
        var read = Checksum()
        let t = try timed {
            let rows = try RawBooks.fetch(raw, RawBooks.selectSQL())
            for row in rows { add(row.values, to: &read) }
            return rows
        }
        sum = read
        return t.seconds
    }

    /// GRDB's fetch of every book as records, timed; its checksum into `sum`.
    func timedGRDBFetch(into sum: inout Checksum) throws -> Double {
        var read = Checksum()
        let t = try timed {
            let books = try grdb.read { db in try GRDBBook.fetchAll(db) }
            for book in books { add(book, to: &read) }
            return books
        }
        sum = read
        return t.seconds
    }
}

/// Our fetch of books, timed: a new context each time, so every object is new to it as in a
/// first fetch; the request (of every book, then `configure`d) is made and run, and every
/// attribute of every object read, on the clock. Its checksum into `sum`.
func timedFetch(
    on coordinator: PersistentStoreCoordinator, into sum: inout Checksum,
    configure: (ObjectGraph.FetchRequest<ManagedObject>) -> Void = { _ in }
) throws -> Double {
    let context = ManagedObjectContext(coordinator: coordinator)
    var read = Checksum()
    let t = try timed {
        let request = FetchRequest(entityName: Books.entityName)
        configure(request)
        let objects = try context.fetch(request)
        for object in objects { try add(object, to: &read) }
        return objects
    }
    sum = read
    return t.seconds
}

/// Adds an object's six attributes to a checksum, read by key as an application would.
func add(_ object: ManagedObject, to sum: inout Checksum) throws {
    sum.add(
        title: try object.checkedValue(forKey: "title") as! String,
        author: try object.checkedValue(forKey: "author") as! String,
        salesRank: try object.checkedValue(forKey: "salesRank") as! Int,
        price: try object.checkedValue(forKey: "price") as! Double,
        published: try object.checkedValue(forKey: "published") as! Date,
        inPrint: try object.checkedValue(forKey: "inPrint") as! Bool)
}

func add(_ v: BookValues, to sum: inout Checksum) {
    sum.add(
        title: v.title, author: v.author, salesRank: v.salesRank, price: v.price, published: v.published,
        inPrint: v.inPrint)
}

private func add(_ b: GRDBBook, to sum: inout Checksum) {
    sum.add(
        title: b.title, author: b.author, salesRank: b.salesRank, price: b.price, published: b.published,
        inPrint: b.inPrint)
}

/// Fails unless every implementation read the same thing (when all of them ran).
func checkAgree(_ workload: String, _ settings: BenchSettings, _ sums: [Checksum], expectedRows: Int? = nil) throws {
    guard settings.only == nil else { return }
    guard Set(sums.map(\.description)).count == 1 else {
        throw BenchError("\(workload): the implementations disagree: ours \(sums[0]), raw \(sums[1]), grdb \(sums[2])")
    }
    if let expectedRows, sums[0].rows != expectedRows {
        throw BenchError("\(workload): read \(sums[0].rows) rows, expected \(expectedRows)")
    }
}

func result(_ timings: [Double], unit: String, targets: [(String, Double)], details: [(String, String)])
    -> WorkloadResult
{
    WorkloadResult(
        ours: timings[0], baselines: [("raw", timings[1]), ("grdb", timings[2])], unit: unit,
        details: details, targets: targets.map { (baseline: $0.0, maximumRatio: $0.1) })
}

// MARK: fetch-100k

private func runFetch(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let store = try FilledStore(count: count)
    defer { try? store.close() }
    var sums = [Checksum](repeating: Checksum(), count: 3)
    let timings = try interleavedMedians(
        settings,
        [
            ("ours", { try timedFetch(on: store.coordinator, into: &sums[0]) }),
            ("raw", { try store.timedRawFetch(into: &sums[1]) }),
            ("grdb", { try store.timedGRDBFetch(into: &sums[2]) }),
        ])
    try checkAgree("fetch-100k", settings, sums, expectedRows: count)
    return result(
        timings, unit: "s per fetch of \(count) rows", targets: [("raw", 1.5), ("grdb", 1.0)],
        details: [("rows", String(count)), ("repetitions", String(settings.repetitions))])
}

// MARK: insert-100k

/// The empty stores an insert workload writes, one per run, and the check of what each run
/// wrote: shared by `insert-100k` and `insert-100k-typed`.
struct InsertStores {
    let workload: String
    let books: [BookValues]
    let model: ManagedObjectModel
    private let directory: TemporaryDirectory
    private let expected: Checksum
    private var files = 0

    init(workload: String, books: [BookValues], model: ManagedObjectModel) throws {
        self.workload = workload
        self.books = books
        self.model = model
        directory = try TemporaryDirectory()
        var sum = Checksum()
        for b in books { add(b, to: &sum) }
        expected = sum
    }

    /// Removes the stores' folder.
    func remove() { directory.remove() }

    /// A new empty store file for a run (made before the clock starts).
    mutating func emptyStore() throws -> URL {
        files += 1
        let url = directory.file("Insert-\(files).sqlite")
        try Books.createEmptyStore(at: url)
        return url
    }

    /// Checks a store holds every book, in order, then deletes it.
    func verify(_ url: URL, _ who: String) throws {
        let db = try RawDatabase(path: url.path)
        var sum = Checksum()
        for row in try RawBooks.fetch(db, RawBooks.selectSQL(" ORDER BY t0.Z_PK")) { add(row.values, to: &sum) }
        db.close()
        guard sum == expected else { throw BenchError("\(workload): \(who) wrote \(sum), expected \(expected)") }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// One run of ours: `insert` makes the objects in a new context on an empty store, timed
    /// with the save; then the store is checked.
    mutating func runOurs(_ insert: (ManagedObjectContext) throws -> Void) throws -> Double {
        let url = try emptyStore()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let t = try timed {
            try insert(context)
            try context.save()
        }
        try coordinator.remove(store)
        try verify(url, "ours")
        return t.seconds
    }

    /// One run of the raw prepared INSERT loop.
    mutating func runRaw() throws -> Double {
        let url = try emptyStore()
        let db = try RawDatabase(path: url.path)
        let books = books
        let t = try timed { try RawBooks.insert(books, into: db, firstKey: 1) }
        db.close()
        try verify(url, "raw")
        return t.seconds
    }
}

private func runInsert(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let books = Books.make(count: count)
    var stores = try InsertStores(workload: "insert-100k", books: books, model: try Books.model())
    defer { stores.remove() }
    let timings = try interleavedMedians(
        settings,
        [
            ("ours", { try stores.runOurs { context in try Books.insert(books, into: context) } }),
            ("raw", { try stores.runRaw() }),
            (
                "grdb",
                {
                    let url = try stores.emptyStore()
                    let queue = try GRDBBook.open(url)
                    let t = try timed {
                        try queue.write { db in
                            for (i, b) in books.enumerated() {
                                try GRDBBook(primaryKey: Int64(i + 1), values: b).insert(db)
                            }
                            try db.execute(
                                sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
                                arguments: [count, Books.entityNumber])
                        }
                    }
                    try queue.close()
                    try stores.verify(url, "grdb")
                    return t.seconds
                }
            ),
        ])
    return result(
        timings, unit: "s per insert of \(count) rows", targets: [("raw", 1.5)],
        details: [("rows", String(count)), ("repetitions", String(settings.repetitions))])
}

// MARK: predicate-fetch

private func runPredicateFetch(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let store = try FilledStore(count: count)
    defer { try? store.close() }
    // A tenth of the titles start with the word (in any case), a tenth of the ranks are
    // below the limit: 1% of the rows.
    let prefix = "fetch"
    let rankLimit = Books.rankRange / 10
    let predicate = try ObjectGraph.Predicate(
        checkedFormat: "title BEGINSWITH[c] %@ AND salesRank < %@", prefix, rankLimit)
    // ObjectGraph's SQL is `substr(OG_FOLD(t0.ZTITLE, 1), 1, ?) IS ? AND t0.ZSALESRANK < ?`:
    // the baselines fold with SQLite's lower(), which is the same for ASCII titles.
    let condition = "substr(lower(t0.ZTITLE), 1, ?) = ?"
    let prefixLength = prefix.unicodeScalars.count
    var sums = [Checksum](repeating: Checksum(), count: 3)
    let timings = try interleavedMedians(
        settings,
        [
            ("ours", { try timedFetch(on: store.coordinator, into: &sums[0]) { $0.predicate = predicate } }),
            (
                "raw",
                {
                    try timed {
                        var sum = Checksum()
                        let rows = try RawBooks.fetch(
                            store.raw, RawBooks.selectSQL(" WHERE \(condition) AND t0.ZSALESRANK < ?")
                        ) { s in
                            sqlite3_bind_int64(s, 1, Int64(prefixLength))
                            RawBooks.bind(s, 2, prefix)
                            sqlite3_bind_int64(s, 3, Int64(rankLimit))
                        }
                        for row in rows { add(row.values, to: &sum) }
                        sums[1] = sum
                        return rows
                    }.seconds
                }
            ),
            (
                "grdb",
                {
                    try timed {
                        var sum = Checksum()
                        let books = try store.grdb.read { db in
                            try GRDBBook.aliased(TableAlias(name: "t0"))
                                .filter(sql: condition, arguments: [prefixLength, prefix])
                                .filter(GRDBBook.Columns.salesRank < rankLimit)
                                .fetchAll(db)
                        }
                        for book in books { add(book, to: &sum) }
                        sums[2] = sum
                        return books
                    }.seconds
                }
            ),
        ])
    try checkAgree("predicate-fetch", settings, sums)
    return result(
        timings, unit: "s per fetch of \(sums[0].rows) of \(count) rows", targets: [("raw", 1.2)],
        details: [
            ("rows", String(count)), ("matches", String(sums[0].rows)), ("repetitions", String(settings.repetitions)),
        ])
}

// MARK: aggregate

private func runAggregate(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let store = try FilledStore(count: count)
    defer { try? store.close() }
    let request = FetchRequest(entityName: Books.entityName)
    request.resultType = .dictionary
    request.propertiesToFetch = [
        .expression(
            ExpressionDescription(
                name: "highestRank", expression: try ObjectGraph.Expression(checkedFormat: "max:(salesRank)"),
                resultType: .integer32)),
        .expression(
            ExpressionDescription(
                name: "titles", expression: try ObjectGraph.Expression(checkedFormat: "count:(title)"),
                resultType: .integer64)),
    ]
    let sql = "SELECT MAX(t0.ZSALESRANK), COUNT(t0.ZTITLE) FROM \(Books.table) t0"
    var answers = [(Int, Int)](repeating: (0, 0), count: 3)
    let timings = try interleavedMedians(
        settings,
        [
            (
                "ours",
                {
                    let context = ManagedObjectContext(coordinator: store.coordinator)
                    return try timed {
                        let row = try context.fetchDictionaries(request)[0]
                        answers[0] = (row["highestRank"] as! Int, row["titles"] as! Int)
                    }.seconds
                }
            ),
            (
                "raw",
                {
                    try timed {
                        let s = try store.raw.prepare(sql)
                        defer { sqlite3_finalize(s) }
                        guard sqlite3_step(s) == SQLITE_ROW else { throw store.raw.error(sql) }
                        answers[1] = (Int(sqlite3_column_int64(s, 0)), Int(sqlite3_column_int64(s, 1)))
                    }.seconds
                }
            ),
            (
                "grdb",
                {
                    try timed {
                        let row = try store.grdb.read { db in
                            try GRDBBook.select(
                                GRDB.max(GRDBBook.Columns.salesRank), GRDB.count(GRDBBook.Columns.title)
                            ).asRequest(of: Row.self).fetchOne(db)!
                        }
                        answers[2] = (row[0], row[1])
                    }.seconds
                }
            ),
        ])
    guard settings.only != nil || (answers.allSatisfy({ $0 == answers[0] }) && answers[0].1 == count) else {
        throw BenchError("aggregate: the implementations disagree: \(answers)")
    }
    return result(
        timings, unit: "s per max and count over \(count) rows", targets: [("raw", 1.1)],
        details: [
            ("rows", String(count)), ("max", String(answers[0].0)), ("repetitions", String(settings.repetitions)),
        ])
}
