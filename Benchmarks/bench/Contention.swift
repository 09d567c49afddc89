import Foundation
import GRDBSQLite
import ObjectGraph
import ObjectGraphPostgres

/// `bench contention`: several processes increment a few shared counters through contexts,
/// each increment a fetch, +1 and a save under optimistic locking (Z_OPT); a save refused with
/// 133020 (another process saved the counter first) refreshes the counter and tries again. At
/// the end the counters must hold exactly processes × increments: a lost increment fails the run.
///
/// The processes are the bench binary itself in its `contention-child` mode; they connect and
/// fetch first, then all start together (each waits for "go" on its standard input).
struct Contention {
    var processes = 8
    var increments = 250
    var counters = 4
    var store: BenchStore = .postgres

    /// The model the processes share: counters of one 64-bit value.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Counter") {
                AttributeDescription("value", .integer64, optional: false)
            }
        }
    }

    /// How a process adds the store: a pool of one connection, and a long timeout for SQLite's
    /// writer lock.
    static func description(_ store: BenchStore, _ url: URL) -> PersistentStoreDescription {
        let description =
            store == .postgres
            ? PersistentStoreDescription.postgres(url: url, poolSize: 1)
            : PersistentStoreDescription(type: .sqlite, url: url)
        description.timeout = 120
        return description
    }

    /// What one process reports when it is done.
    struct ChildReport {
        var increments = 0
        var conflicts = 0
        var retriedIncrements = 0
        var mostRetries = 0
        var seconds = 0.0

        var line: String { "done \(increments) \(conflicts) \(retriedIncrements) \(mostRetries) \(seconds)" }

        init() {}

        init?(line: Substring) {
            let words = line.split(separator: " ")
            guard words.count == 6, words[0] == "done", let i = Int(words[1]), let c = Int(words[2]),
                let r = Int(words[3]),
                let m = Int(words[4]), let s = Double(words[5])
            else { return nil }
            (increments, conflicts, retriedIncrements, mostRetries, seconds) = (i, c, r, m, s)
        }
    }

    // MARK: The parent

    /// Runs the contention: makes the store and its counters, starts the processes, checks the
    /// sum, and prints the table and the JSON line. Throws when an increment was lost.
    func run(_ settings: BenchSettings) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url =
            store == .postgres
            ? try BenchPostgres.newStoreURL(settings, prefix: "contention") : directory.file("Counters.sqlite")
        defer { if store == .postgres { try? BenchPostgres.dropStore(at: url) } }
        try makeCounters(at: url)
        let before = try totals(at: url)

        let executable = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        var children: [(process: Process, input: Pipe, output: Pipe)] = []
        defer { for child in children where child.process.isRunning { child.process.terminate() } }
        for k in 0..<processes {
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "contention-child", store.rawValue, url.absoluteString, String(increments), String(counters),
                String(k + 1),
            ]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            children.append((process, input, output))
        }
        // Every process has connected and read its counters: start them together.
        var buffers = [Data](repeating: Data(), count: processes)
        for (k, child) in children.enumerated() {
            while !String(decoding: buffers[k], as: UTF8.self).contains("ready\n") {
                let chunk = child.output.fileHandleForReading.availableData
                guard !chunk.isEmpty else {
                    child.process.waitUntilExit()
                    throw BenchError(
                        "contention: process \(k + 1) ended before it was ready (status \(child.process.terminationStatus)); its error is above"
                    )
                }
                buffers[k].append(chunk)
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for child in children { child.input.fileHandleForWriting.write(Data("go\n".utf8)) }
        var reports: [ChildReport] = []
        for (k, child) in children.enumerated() {
            buffers[k].append(child.output.fileHandleForReading.readDataToEndOfFile())
            child.process.waitUntilExit()
            let text = String(decoding: buffers[k], as: UTF8.self)
            guard child.process.terminationStatus == 0,
                let report = text.split(separator: "\n").last.flatMap(ChildReport.init(line:))
            else {
                throw BenchError(
                    "contention: process \(k + 1) failed (status \(child.process.terminationStatus)); it printed: \(text.suffix(300))"
                )
            }
            reports.append(report)
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9

        let after = try totals(at: url)
        let expected = processes * increments
        let counted = after.values - before.values
        let saves = after.versions - before.versions
        let confirmed = reports.reduce(0) { $0 + $1.increments }
        guard counted == expected, confirmed == expected, saves == expected else {
            throw BenchError(
                "contention: LOST INCREMENTS: the counters went up by \(counted) and their versions by \(saves), the processes confirmed \(confirmed), expected \(processes) × \(increments) = \(expected)"
            )
        }
        let conflicts = reports.reduce(0) { $0 + $1.conflicts }
        let retried = reports.reduce(0) { $0 + $1.retriedIncrements }
        let mostRetries = reports.map(\.mostRetries).max() ?? 0
        let rate = Double(expected) / wall

        print(
            "contention on \(store.rawValue): \(processes) processes × \(increments) increments of \(counters) shared counters"
                + (store == .postgres ? ", on \(BenchPostgres.serverDescription(settings))" : ""))
        print(
            ["processes", "increments", "lost", "conflicts", "retried", "most retries", "seconds", "increments/s"].map {
                pad($0, 12)
            }.joined(separator: " "))
        print(String(repeating: "-", count: 110))
        print(
            [
                String(processes), String(expected), "0", String(conflicts), String(retried), String(mostRetries),
                String(format: "%.3f", wall), String(format: "%.0f", rate),
            ].map { pad($0, 12) }.joined(separator: " "))
        print("")
        let result = WorkloadResult(
            ours: wall, unit: "s for \(expected) increments by \(processes) processes",
            details: [
                ("store", jsonString(store.rawValue)), ("processes", String(processes)),
                ("increments", String(expected)),
                ("counters", String(counters)), ("lost", "0"), ("conflicts", String(conflicts)),
                ("retried_increments", String(retried)),
                ("most_retries", String(mostRetries)), ("increments_per_second", jsonNumber(rate)),
            ])
        print(result.jsonLine(workload: "contention"))
    }

    /// A new store holding `counters` counters at 0.
    private func makeCounters(at url: URL) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let added = try coordinator.addPersistentStore(with: Self.description(store, url))
        let context = ManagedObjectContext(coordinator: coordinator)
        for _ in 0..<counters {
            try context.insertNewObject(forEntityName: "Counter").checkedSetValue(0, forKey: "value")
        }
        try context.save()
        try coordinator.remove(added)
    }

    /// The sum of the counters' values and of their versions (Z_OPT), read with SQL directly,
    /// not through the store under test.
    private func totals(at url: URL) throws -> (values: Int, versions: Int) {
        let sql =
            "SELECT CAST(COALESCE(SUM(ZVALUE), 0) AS bigint), CAST(COALESCE(SUM(Z_OPT), 0) AS bigint), COUNT(*) FROM ZCOUNTER"
        let row: (Int, Int, Int)
        if store == .postgres {
            let result = try RawPostgres(url: url).query(sql)
            guard let first = result.rows.first else { throw BenchError("contention: no answer to \(sql)") }
            let (values, versions, count) = try first.decode((Int64, Int64, Int64).self)
            row = (Int(values), Int(versions), Int(count))
        } else {
            let db = try RawDatabase(path: url.path)
            defer { db.close() }
            let s = try db.prepare(sql)
            defer { sqlite3_finalize(s) }
            guard sqlite3_step(s) == SQLITE_ROW else { throw db.error(sql) }
            row = (Int(sqlite3_column_int64(s, 0)), Int(sqlite3_column_int64(s, 1)), Int(sqlite3_column_int64(s, 2)))
        }
        guard row.2 == counters else {
            throw BenchError("contention: the store holds \(row.2) counters, expected \(counters)")
        }
        return (row.0, row.1)
    }

    // MARK: A child process

    /// `bench contention-child <sqlite|postgres> <store URL> <increments> <counters> <seed>`:
    /// opens the store, fetches the counters, prints "ready", waits for "go", then increments
    /// counters chosen from the seed, retrying each refused save; prints its ``ChildReport``.
    static func runChild(_ arguments: [String]) -> Never {
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("bench contention-child: \(message)\n".utf8))
            exit(1)
        }
        guard arguments.count == 5, let store = BenchStore(rawValue: arguments[0]), let url = URL(string: arguments[1]),
            let increments = Int(arguments[2]), let counterCount = Int(arguments[3]), let seed = UInt64(arguments[4])
        else {
            fail("usage: bench contention-child <sqlite|postgres> <store URL> <increments> <counters> <seed>")
        }
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
            try coordinator.addPersistentStore(with: description(store, url))
            let context = ManagedObjectContext(coordinator: coordinator)
            let counters = try context.fetch(FetchRequest(entityName: "Counter")).sorted {
                $0.objectID.primaryKey < $1.objectID.primaryKey
            }
            guard counters.count == counterCount else {
                fail("the store holds \(counters.count) counters, expected \(counterCount)")
            }
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            guard readLine() == "go" else { fail("the parent did not say go") }
            var rng = SplitMix64(seed: seed)
            var report = ChildReport()
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<increments {
                let counter = counters[Int(rng.next() % UInt64(counters.count))]
                var retries = 0
                while true {
                    // The fetch: the counter becomes a fault, so reading it reads its stored
                    // row, as a request on another application server would.
                    try context.checkedRefresh(counter, mergeChanges: false)
                    let value = (try counter.checkedValue(forKey: "value") as? Int ?? 0) + 1
                    try counter.checkedSetValue(value, forKey: "value")
                    do {
                        try context.save()
                        break
                    } catch let error as CoreDataError where error.code == .merge {
                        report.conflicts += 1
                        retries += 1
                        guard retries < 100_000 else { fail("one increment was refused \(retries) times: \(error)") }
                    }
                }
                report.increments += 1
                if retries > 0 { report.retriedIncrements += 1 }
                report.mostRetries = max(report.mostRetries, retries)
            }
            report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            FileHandle.standardOutput.write(Data((report.line + "\n").utf8))
            exit(0)
        } catch {
            fail("\(error)")
        }
    }
}
