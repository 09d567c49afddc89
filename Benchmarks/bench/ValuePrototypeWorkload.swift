import Foundation
import GRDBSQLite

/// The prototype of issue 17's value core: today's `[Any?]`, an enum with payloads and typed
/// column storage per entity, on the fetch-100k and insert-100k shapes, against the raw loop,
/// in one run. Every variant uses the C API directly, so only the representation differs.
///
/// The measurements are named `<representation>/<phase>`: representations `raw`, `any`
/// (today), `enum`, `inline` (the enum in the object's own allocation), `columns`; phases
/// `fetch-kvc` (fetch, read every attribute as `Any` and cast, as an app reads by key),
/// `fetch-typed` (fetch, read through typed accessors) and `insert` (make objects, set every
/// attribute as `Any`, bind and insert in one transaction).
/// `--only enum` runs one representation's phases, `--only enum/insert` one measurement,
/// `--only setup` none (for subtracting the setup from a callgrind count).
let valuePrototypeWorkloads: [Workload] = [
    Workload(name: "prototype-values",
             summary: "value representation prototype: [Any?] vs enum vs typed columns vs raw, fetch (by Any and typed) and insert of Books",
             run: runValuePrototype),
]

private func runValuePrototype(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = settings.rows ?? max(1, 100_000 / settings.scaleDown)
    let books = Books.make(count: count)
    var expected = Checksum()
    for b in books { expected.addBook(b) }

    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let filled = directory.file("Books.sqlite")
    try Books.createFilledStore(at: filled, books: books)
    let db = try RawDatabase(path: filled.path)
    defer { db.close() }

    var files = 0
    /// A new empty store for an insert (made before the clock starts), and its check after.
    func emptyStore() throws -> (URL, RawDatabase) {
        files += 1
        let url = directory.file("Insert-\(files).sqlite")
        try Books.createEmptyStore(at: url)
        return (url, try RawDatabase(path: url.path))
    }
    func verify(_ url: URL, _ insertDB: RawDatabase, _ who: String) throws {
        var sum = Checksum()
        for row in try RawBooks.fetch(insertDB, RawBooks.selectSQL(" ORDER BY t0.Z_PK")) { sum.addBook(row.values) }
        insertDB.close()
        guard sum == expected else { throw BenchError("prototype-values: \(who) wrote \(sum), expected \(expected)") }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
    /// Checks a fetch read every row right.
    func check(_ sum: Checksum, _ who: String) throws {
        guard sum == expected else { throw BenchError("prototype-values: \(who) read \(sum), expected \(expected)") }
    }
    func insertTimed(_ who: String, _ body: (RawDatabase) throws -> Void) throws -> Double {
        let (url, insertDB) = try emptyStore()
        let t = try timed { try body(insertDB) }
        try verify(url, insertDB, who)
        return t.seconds
    }

    let bodies: [(name: String, body: () throws -> Double)] = [
        ("raw/fetch", {
            let t = try timed { () throws -> [RawBooks.Row] in
                let rows = try RawBooks.fetch(db, RawBooks.selectSQL())
                var sum = Checksum()
                for row in rows { sum.addBook(row.values) }
                try check(sum, "raw")
                return rows
            }
            return t.seconds
        }),
        ("any/fetch-kvc", {
            try timed { () throws -> [ProtoAnyObject] in
                let objects = try protoFetch(db) { try ProtoAnyObject.decode($0, first: 3) }
                var sum = Checksum()
                for o in objects { try sum.addKVC(o.value(at:)) }
                try check(sum, "any/fetch-kvc")
                return objects
            }.seconds
        }),
        ("any/fetch-typed", {
            try timed { () throws -> [ProtoAnyObject] in
                let objects = try protoFetch(db) { try ProtoAnyObject.decode($0, first: 3) }
                var sum = Checksum()
                for o in objects {
                    // Typed accessors over `[Any?]` are casts: what @Managed does today.
                    sum.add(title: o.storage[0] as? String ?? "", author: o.storage[1] as? String ?? "",
                            salesRank: o.storage[2] as? Int ?? 0, price: o.storage[3] as? Double ?? 0,
                            published: o.storage[4] as? Date ?? Date(timeIntervalSinceReferenceDate: 0),
                            inPrint: o.storage[5] as? Bool ?? false)
                }
                try check(sum, "any/fetch-typed")
                return objects
            }.seconds
        }),
        ("enum/fetch-kvc", {
            try timed { () throws -> [ProtoEnumObject] in
                let objects = try protoFetch(db) { try ProtoEnumObject.decode($0, first: 3) }
                var sum = Checksum()
                for o in objects { try sum.addKVC(o.value(at:)) }
                try check(sum, "enum/fetch-kvc")
                return objects
            }.seconds
        }),
        ("enum/fetch-typed", {
            try timed { () throws -> [ProtoEnumObject] in
                let objects = try protoFetch(db) { try ProtoEnumObject.decode($0, first: 3) }
                var sum = Checksum()
                for o in objects {
                    sum.add(title: o.string(at: 0) ?? "", author: o.string(at: 1) ?? "",
                            salesRank: Int(o.integer(at: 2) ?? 0), price: o.double(at: 3) ?? 0,
                            published: o.date(at: 4) ?? Date(timeIntervalSinceReferenceDate: 0),
                            inPrint: o.boolean(at: 5) ?? false)
                }
                try check(sum, "enum/fetch-typed")
                return objects
            }.seconds
        }),
        ("inline/fetch-kvc", {
            try timed { () throws -> [ProtoInlineObject] in
                let objects = try protoFetch(db) { try ProtoInlineObject.decode($0, first: 3) }
                var sum = Checksum()
                for o in objects { try sum.addKVC(o.value(at:)) }
                try check(sum, "inline/fetch-kvc")
                return objects
            }.seconds
        }),
        ("inline/fetch-typed", {
            try timed { () throws -> [ProtoInlineObject] in
                let objects = try protoFetch(db) { try ProtoInlineObject.decode($0, first: 3) }
                var sum = Checksum()
                for o in objects {
                    sum.add(title: o.string(at: 0) ?? "", author: o.string(at: 1) ?? "",
                            salesRank: Int(o.integer(at: 2) ?? 0), price: o.double(at: 3) ?? 0,
                            published: o.date(at: 4) ?? Date(timeIntervalSinceReferenceDate: 0),
                            inPrint: o.boolean(at: 5) ?? false)
                }
                try check(sum, "inline/fetch-typed")
                return objects
            }.seconds
        }),
        ("columns/fetch-kvc", {
            try timed { () throws -> [ProtoColumnObject] in
                let table = ProtoColumnTable(kinds: protoBookKinds)
                let objects = try protoFetch(db) { s in
                    ProtoColumnObject(primaryKey: sqlite3_column_int64(s, 0), table: table, row: try table.appendRow(s, first: 3))
                }
                var sum = Checksum()
                for o in objects { try sum.addKVC(o.value(at:)) }
                try check(sum, "columns/fetch-kvc")
                return objects
            }.seconds
        }),
        ("columns/fetch-typed", {
            try timed { () throws -> [ProtoColumnObject] in
                let table = ProtoColumnTable(kinds: protoBookKinds)
                let objects = try protoFetch(db) { s in
                    ProtoColumnObject(primaryKey: sqlite3_column_int64(s, 0), table: table, row: try table.appendRow(s, first: 3))
                }
                var sum = Checksum()
                for o in objects {
                    sum.add(title: o.string(at: 0) ?? "", author: o.string(at: 1) ?? "",
                            salesRank: Int(o.integer(at: 2) ?? 0), price: o.double(at: 3) ?? 0,
                            published: o.date(at: 4) ?? Date(timeIntervalSinceReferenceDate: 0),
                            inPrint: o.boolean(at: 5) ?? false)
                }
                try check(sum, "columns/fetch-typed")
                return objects
            }.seconds
        }),
        ("raw/insert", {
            try insertTimed("raw") { insertDB in try RawBooks.insert(books, into: insertDB, firstKey: 1) }
        }),
        ("any/insert", {
            try insertTimed("any") { insertDB in
                var objects: [ProtoAnyObject] = []
                objects.reserveCapacity(books.count)
                for (k, b) in books.enumerated() {
                    let o = ProtoAnyObject(primaryKey: Int64(k + 1), storage: Array(repeating: nil, count: protoBookKinds.count))
                    try protoSet(b, o.setValue(_:at:))
                    objects.append(o)
                }
                try protoInsert(objects.count, into: insertDB) { s, k in
                    sqlite3_bind_int64(s, 1, objects[k].primaryKey)
                    try objects[k].bind(s, first: 4)
                }
            }
        }),
        ("enum/insert", {
            try insertTimed("enum") { insertDB in
                var objects: [ProtoEnumObject] = []
                objects.reserveCapacity(books.count)
                for (k, b) in books.enumerated() {
                    let o = ProtoEnumObject(primaryKey: Int64(k + 1), storage: Array(repeating: .null, count: protoBookKinds.count))
                    try protoSet(b, o.setValue(_:at:))
                    objects.append(o)
                }
                try protoInsert(objects.count, into: insertDB) { s, k in
                    sqlite3_bind_int64(s, 1, objects[k].primaryKey)
                    objects[k].bind(s, first: 4)
                }
            }
        }),
        ("inline/insert", {
            try insertTimed("inline") { insertDB in
                var objects: [ProtoInlineObject] = []
                objects.reserveCapacity(books.count)
                for (k, b) in books.enumerated() {
                    let o = ProtoInlineObject.make(primaryKey: Int64(k + 1)) { _ in }
                    try protoSet(b, o.setValue(_:at:))
                    objects.append(o)
                }
                try protoInsert(objects.count, into: insertDB) { s, k in
                    sqlite3_bind_int64(s, 1, objects[k].primaryKey)
                    objects[k].bind(s, first: 4)
                }
            }
        }),
        ("columns/insert", {
            try insertTimed("columns") { insertDB in
                let table = ProtoColumnTable(kinds: protoBookKinds)
                table.reserve(books.count)
                var objects: [ProtoColumnObject] = []
                objects.reserveCapacity(books.count)
                for (k, b) in books.enumerated() {
                    let o = ProtoColumnObject(primaryKey: Int64(k + 1), table: table, row: table.appendEmptyRow())
                    try protoSet(b, o.setValue(_:at:))
                    objects.append(o)
                }
                try protoInsert(objects.count, into: insertDB) { s, k in
                    sqlite3_bind_int64(s, 1, objects[k].primaryKey)
                    table.bind(s, row: objects[k].row, first: 4)
                }
            }
        }),
    ]

    let selected = bodies.filter { b in
        guard let only = settings.only else { return true }
        return b.name == only || b.name.hasPrefix(only + "/")
    }
    if let only = settings.only, only != "setup", selected.isEmpty {
        throw BenchError("prototype-values: no measurement named \(only) (names: setup, \(bodies.map(\.name).joined(separator: ", ")))")
    }
    var everyone = settings
    everyone.only = nil
    let timings = selected.isEmpty ? [] : try interleavedMedians(everyone, selected)
    var byName: [String: Double] = [:]
    for (b, t) in zip(selected, timings) { byName[b.name] = t }
    FileHandle.standardError.write(Data(protoTable(byName, rows: count).utf8))

    // The table's row: the enum read by key against the raw loop and the other representations.
    let order = ["raw/fetch", "any/fetch-kvc", "inline/fetch-kvc", "columns/fetch-kvc", "raw/insert", "any/insert", "enum/insert",
                 "inline/insert", "columns/insert", "enum/fetch-typed", "any/fetch-typed", "inline/fetch-typed", "columns/fetch-typed"]
    return WorkloadResult(
        ours: byName["enum/fetch-kvc"] ?? .nan,
        baselines: order.compactMap { name in byName[name].map { (name, $0) } },
        unit: "s, enum fetch of \(count) rows read by key (see the table above for every phase)",
        details: [("rows", String(count)), ("repetitions", String(settings.repetitions))])
}

/// Prepares the fetch-100k SELECT, steps it and makes one object per row.
private func protoFetch<T>(_ db: RawDatabase, _ make: (OpaquePointer) throws -> T) throws -> [T] {
    let sql = RawBooks.selectSQL()
    let s = try db.prepare(sql)
    defer { sqlite3_finalize(s) }
    var objects: [T] = []
    while true {
        let code = sqlite3_step(s)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else { throw db.error(sql) }
        objects.append(try make(s))
    }
    return objects
}

/// Sets a book's six attributes through a KVC-shaped setter, as `Books.insert` does by key.
@inline(__always)
private func protoSet(_ b: BookValues, _ set: (Any?, Int) throws -> Void) throws {
    try set(b.title, 0)
    try set(b.author, 1)
    try set(b.salesRank, 2)
    try set(b.price, 3)
    try set(b.published, 4)
    try set(b.inPrint, 5)
}

/// Inserts `count` rows in one transaction with the raw INSERT; `bind` binds Z_PK (1) and the
/// values (4...) of row `k`.
private func protoInsert(_ count: Int, into db: RawDatabase, bind: (OpaquePointer, Int) throws -> Void) throws {
    let names = ["Z_PK", "Z_ENT", "Z_OPT"] + Books.columns
    let sql = "INSERT INTO \(Books.table)(\(names.joined(separator: ", "))) VALUES(\(names.map { _ in "?" }.joined(separator: ", ")))"
    try db.execute("BEGIN IMMEDIATE")
    let s = try db.prepare(sql)
    defer { sqlite3_finalize(s) }
    for k in 0..<count {
        try bind(s, k)
        sqlite3_bind_int64(s, 2, Books.entityNumber)
        sqlite3_bind_int64(s, 3, 1)
        guard sqlite3_step(s) == SQLITE_DONE else { throw db.error(sql) }
        sqlite3_reset(s)
    }
    try db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_ENT = \(Books.entityNumber)")
    try db.execute("COMMIT")
}

/// The prototype's own table: each representation's three phases and their ratio to raw.
private func protoTable(_ t: [String: Double], rows: Int) -> String {
    func cell(_ name: String, _ raw: String) -> String {
        guard let s = t[name] else { return "-" }
        guard let r = t[raw], r > 0 else { return formatSeconds(s) }
        return formatSeconds(s) + String(format: " (%.2fx)", s / r)
    }
    var out = "prototype-values, \(rows) rows (ratio to raw in parentheses)\n"
    out += pad("representation", 16) + pad("fetch, read by key", 26) + pad("fetch, typed read", 26) + "insert\n"
    for rep in ["raw", "any", "enum", "inline", "columns"] {
        let kvc = rep == "raw" ? cell("raw/fetch", "raw/fetch") : cell("\(rep)/fetch-kvc", "raw/fetch")
        let typed = rep == "raw" ? "-" : cell("\(rep)/fetch-typed", "raw/fetch")
        out += pad(rep, 16) + pad(kvc, 26) + pad(typed, 26) + cell("\(rep)/insert", "raw/insert") + "\n"
    }
    return out
}

extension Checksum {
    /// Adds a book's values.
    mutating func addBook(_ b: BookValues) {
        add(title: b.title, author: b.author, salesRank: b.salesRank, price: b.price, published: b.published, inPrint: b.inPrint)
    }

    /// Adds an object's six attributes read as `Any` and cast, as an app reads by key.
    mutating func addKVC(_ value: (Int) -> Any?) throws {
        guard let title = value(0) as? String, let author = value(1) as? String, let rank = value(2) as? Int,
              let price = value(3) as? Double, let published = value(4) as? Date, let inPrint = value(5) as? Bool else {
            throw BenchError("prototype-values: a value read by key has the wrong type")
        }
        add(title: title, author: author, salesRank: rank, price: price, published: published, inPrint: inPrint)
    }
}
