import Foundation
import GRDB
import GRDBSQLite

/// The migration manager's association tables (Apple: "Core Data maintains association
/// tables" source to destination), kept in a scratch SQLite file beside the destination so
/// that memory does not grow with the store. Entities are recorded by their numbers in the
/// source and destination models; objects by primary key.
///
/// Associations are stored as runs: one row says that `n` consecutive source keys map to `n`
/// consecutive destination keys. A migration streams sources in key order and the
/// destination allocates keys in insertion order, so one batch is usually one row, where a
/// row per pair cost much more (Benchmarks/PROFILES.md, "association runs").
/// Runs of one mapping never overlap one another, in sources or in destinations (a run that
/// would is stored pair by pair), so the run holding a key is the one starting last at or
/// before it. Pairs that form no run (a source with several destinations, keys out of
/// order) are rows with `n = 1`, found through their own indexes.
final class AssociationTable {
    /// One association: which mapping, which source object, which destination object.
    struct Pair: Equatable {
        var mapping: Int
        var source: Int64
        var sourceEntity: Int
        var destination: Int64
        var destinationEntity: Int
    }

    /// Consecutive pairs of one mapping and one pair of entities: source + k with destination + k.
    struct Run {
        var first: Pair
        var count: Int64

        /// The pair at offset k of the run.
        func pair(_ k: Int64) -> Pair {
            Pair(
                mapping: first.mapping, source: first.source + k, sourceEntity: first.sourceEntity,
                destination: first.destination + k, destinationEntity: first.destinationEntity)
        }

        /// Whether `p` continues the run.
        func isContinued(by p: Pair) -> Bool {
            p.mapping == first.mapping && p.sourceEntity == first.sourceEntity
                && p.destinationEntity == first.destinationEntity
                && p.source == first.source + count && p.destination == first.destination + count
        }
    }

    let url: URL
    private let database: DatabaseQueue
    private var destinationIndexed = false
    /// Per mapping: how many associations were recorded, and the destination entities (by
    /// number) they name; so the third pass needs no scan of the table.
    private(set) var countByMapping: [Int: Int] = [:]
    private(set) var destinationEntitiesByMapping: [Int: Set<Int>] = [:]

    private static let columns = "mapping, source, sourceEntity, destination, destinationEntity, n"

    /// A new, empty table in a scratch file in `directory`.
    init(directory: URL) throws {
        // The name carries this process's id, so a later run can tell an abandoned table
        // (its process is gone) from a live one (StoreFiles.removeAbandonedScratchFiles).
        url = StoreFiles.associationsURL(in: directory)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -4096")
        }
        database = try DatabaseQueue(path: url.path, configuration: configuration)
        try database.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE map (mapping INTEGER, source INTEGER, sourceEntity INTEGER, destination INTEGER, destinationEntity INTEGER, n INTEGER)"
            )
            // Partial indexes: single pairs by source; runs by source and by destination
            // (which the overlap checks of insert read).
            try db.execute(sql: "CREATE INDEX map_source ON map (mapping, source) WHERE n = 1")
            try db.execute(sql: "CREATE INDEX map_run_source ON map (mapping, source) WHERE n > 1")
            try db.execute(sql: "CREATE INDEX map_run_destination ON map (mapping, destination) WHERE n > 1")
        }
    }

    /// Records associations, in one transaction, as runs where consecutive pairs allow.
    func insert(_ pairs: [Pair]) throws {
        guard !pairs.isEmpty else { return }
        var runs: [Run] = []
        for p in pairs {
            if let last = runs.last, last.isContinued(by: p) {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(Run(first: p, count: 1))
            }
        }
        try database.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO map VALUES (?, ?, ?, ?, ?, ?)")
            for run in runs {
                if run.count > 1, try !overlapsARun(run, db) {
                    try Self.insert(run.first, count: run.count, statement, db)
                } else {
                    for k in 0..<run.count { try Self.insert(run.pair(k), count: 1, statement, db) }
                }
            }
        }
        var lastMapping = -1
        var lastEntity = -1
        for p in pairs {
            countByMapping[p.mapping, default: 0] += 1
            if p.mapping != lastMapping || p.destinationEntity != lastEntity {
                destinationEntitiesByMapping[p.mapping, default: []].insert(p.destinationEntity)
                lastMapping = p.mapping
                lastEntity = p.destinationEntity
            }
        }
    }

    /// Bound straight on the prepared statement: a migration records one row per batch or per pair.
    private static func insert(_ p: Pair, count: Int64, _ statement: Statement, _ db: Database) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_bind_int64(handle, 1, Int64(p.mapping))
        sqlite3_bind_int64(handle, 2, p.source)
        sqlite3_bind_int64(handle, 3, Int64(p.sourceEntity))
        sqlite3_bind_int64(handle, 4, p.destination)
        sqlite3_bind_int64(handle, 5, Int64(p.destinationEntity))
        sqlite3_bind_int64(handle, 6, count)
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: statement.sql)
        }
    }

    /// Whether a new run would share a source or a destination key with a run of its mapping
    /// already recorded: the run starting last at or before its end is the only candidate.
    private func overlapsARun(_ run: Run, _ db: Database) throws -> Bool {
        let last = run.count - 1
        for side in ["source", "destination"] {
            let start = side == "source" ? run.first.source : run.first.destination
            let statement = try db.cachedStatement(
                sql:
                    "SELECT \(side) + n - 1 FROM map WHERE mapping = ? AND n > 1 AND \(side) <= ? ORDER BY \(side) DESC LIMIT 1"
            )
            if let end = try Int64.fetchOne(statement, arguments: [run.first.mapping, start + last]), end >= start {
                return true
            }
        }
        return false
    }

    /// Builds the index of single pairs by destination, which the second and third passes
    /// read by; once, after the first pass.
    func indexDestinations() throws {
        guard !destinationIndexed else { return }
        try database.write { db in
            try db.execute(sql: "CREATE INDEX map_destination ON map (mapping, destination) WHERE n = 1")
        }
        destinationIndexed = true
    }

    /// The associations of sources of some mappings (nil keys: every source, by
    /// destination; else by key, mapping in the order given, then destination).
    func pairs(mappings: [Int], sources: [Int64]?) throws -> [Pair] {
        guard let sources else {
            return try database.read { db in
                let list = mappings.map(String.init).joined(separator: ", ")
                return Self.expanded(
                    try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM map WHERE mapping IN (\(list))").map(
                        Self.run))
            }
        }
        return try database.read { db in
            let singles = try db.cachedStatement(
                sql: "SELECT \(Self.columns) FROM map WHERE mapping = ? AND source = ? AND n = 1")
            let runs = try db.cachedStatement(
                sql:
                    "SELECT \(Self.columns) FROM map WHERE mapping = ? AND n > 1 AND source <= ? ORDER BY source DESC LIMIT 1"
            )
            var result: [Pair] = []
            for key in sources {
                for m in mappings {
                    var found = try Row.fetchAll(singles, arguments: [m, key]).map { Self.run($0).first }
                    if let run = try Row.fetchOne(runs, arguments: [m, key]).map(Self.run),
                        key < run.first.source + run.count
                    {
                        found.append(run.pair(key - run.first.source))
                    }
                    result += found.sorted { $0.destination < $1.destination }
                }
            }
            return result
        }
    }

    /// The associations of some destinations of a mapping (nil keys: every destination), by
    /// destination.
    func pairs(mapping: Int, destinations: [Int64]?) throws -> [Pair] {
        try indexDestinations()
        return try database.read { db in
            guard let destinations else {
                return Self.expanded(
                    try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM map WHERE mapping = ?", arguments: [mapping])
                        .map(Self.run))
            }
            let singles = try db.cachedStatement(
                sql: "SELECT \(Self.columns) FROM map WHERE mapping = ? AND destination = ? AND n = 1")
            var result: [Pair] = []
            for key in destinations {
                result += try Row.fetchAll(singles, arguments: [mapping, key]).map { Self.run($0).first }
                if let run = try Self.run(containingDestination: key, mapping: mapping, db) {
                    result.append(run.pair(key - run.first.destination))
                }
            }
            return result
        }
    }

    /// The run of a mapping holding a destination key, if one does.
    private static func run(containingDestination key: Int64, mapping: Int, _ db: Database) throws -> Run? {
        let statement = try db.cachedStatement(
            sql:
                "SELECT \(columns) FROM map WHERE mapping = ? AND n > 1 AND destination <= ? ORDER BY destination DESC LIMIT 1"
        )
        guard let run = try Row.fetchOne(statement, arguments: [mapping, key]).map(Self.run),
            key < run.first.destination + run.count
        else { return nil }
        return run
    }

    /// One batch of a mapping's destinations in key order, each with its first source (the
    /// smallest key, and that pair's source entity).
    func destinationBatch(mapping: Int, after: Int64, limit: Int) throws -> [Pair] {
        try indexDestinations()
        return try database.read { db in
            // The first `limit` destinations among single pairs...
            let singles = try db.cachedStatement(
                sql: """
                    SELECT MIN(source), sourceEntity, destination, destinationEntity FROM map
                    WHERE mapping = ? AND n = 1 AND destination > ? GROUP BY destination ORDER BY destination LIMIT ?
                    """)
            var single: [Pair] = []
            single.reserveCapacity(limit)
            let cursor = try Row.fetchCursor(singles, arguments: [mapping, after, limit])
            while let row = try cursor.next() {
                single.append(
                    Pair(
                        mapping: mapping, source: row[0], sourceEntity: row[1], destination: row[2],
                        destinationEntity: row[3]))
            }
            // ...and among runs: the one holding after + 1, then those starting later, each of
            // which holds at least two destinations, so `limit` of them are enough.
            var runs: [Run] = []
            if let holding = try Self.run(containingDestination: after + 1, mapping: mapping, db) {
                runs.append(holding)
            }
            let later = try db.cachedStatement(
                sql:
                    "SELECT \(Self.columns) FROM map WHERE mapping = ? AND n > 1 AND destination > ? ORDER BY destination LIMIT ?"
            )
            for run in try Row.fetchAll(later, arguments: [mapping, after + 1, limit]).map(Self.run)
            where runs.last?.first.destination != run.first.destination {
                runs.append(run)
            }
            // Merged by destination; a destination in both takes the smaller source.
            var result: [Pair] = []
            result.reserveCapacity(limit)
            var s = 0
            var r = 0
            var k: Int64 = runs.first.map { max(0, after + 1 - $0.first.destination) } ?? 0
            while result.count < limit {
                let fromRun: Pair? = r < runs.count ? runs[r].pair(k) : nil
                let fromSingle: Pair? = s < single.count ? single[s] : nil
                guard fromRun != nil || fromSingle != nil else { break }
                if let a = fromRun, let b = fromSingle, a.destination == b.destination {
                    result.append(a.source <= b.source ? a : b)
                    s += 1
                } else if let a = fromRun, fromSingle.map({ a.destination < $0.destination }) ?? true {
                    result.append(a)
                } else if let b = fromSingle {
                    result.append(b)
                    s += 1
                    continue
                }
                k += 1
                if k == runs[r].count {
                    r += 1
                    k = 0
                }
            }
            return result
        }
    }

    /// Every pair of some runs, by destination (then mapping and source, as rows of one
    /// destination were recorded).
    private static func expanded(_ runs: [Run]) -> [Pair] {
        var result: [Pair] = []
        for run in runs { for k in 0..<run.count { result.append(run.pair(k)) } }
        result.sort { ($0.destination, $0.mapping, $0.source) < ($1.destination, $1.mapping, $1.source) }
        return result
    }

    /// How many rows the table holds: runs and single pairs.
    func rowCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM map") ?? 0 }
    }

    /// Forgets every association (MigrationManager.reset()).
    func removeAll() throws {
        try database.write { db in try db.execute(sql: "DELETE FROM map") }
        countByMapping = [:]
        destinationEntitiesByMapping = [:]
    }

    /// Closes and deletes the scratch file.
    func destroy() {
        try? database.close()
        try? FileManager.default.removeItem(at: url)
    }

    private static func run(_ row: Row) -> Run {
        Run(
            first: Pair(
                mapping: row[0], source: row[1], sourceEntity: row[2], destination: row[3], destinationEntity: row[4]),
            count: row[5])
    }
}
