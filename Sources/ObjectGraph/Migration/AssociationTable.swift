import Foundation
import GRDB
import GRDBSQLite

/// The migration manager's association tables (Apple: "Core Data maintains association
/// tables" source to destination), kept in a scratch SQLite file beside the destination so
/// that memory does not grow with the store. Entities are recorded by their numbers in the
/// source and destination models; objects by primary key.
final class AssociationTable {
    /// One association: which mapping, which source object, which destination object.
    struct Pair {
        var mapping: Int
        var source: Int64
        var sourceEntity: Int
        var destination: Int64
        var destinationEntity: Int
    }

    let url: URL
    private let database: DatabaseQueue
    private var destinationIndexed = false
    /// Per mapping: how many associations were recorded, and the destination entities (by
    /// number) they name; so the third pass needs no scan of the table.
    private(set) var countByMapping: [Int: Int] = [:]
    private(set) var destinationEntitiesByMapping: [Int: Set<Int>] = [:]

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
            try db.execute(sql: "CREATE TABLE map (mapping INTEGER, source INTEGER, sourceEntity INTEGER, destination INTEGER, destinationEntity INTEGER)")
            try db.execute(sql: "CREATE INDEX map_source ON map (mapping, source)")
        }
    }

    /// Records associations, in one transaction: bound straight on the prepared statement,
    /// since a migration records one per object.
    func insert(_ pairs: [Pair]) throws {
        guard !pairs.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO map VALUES (?, ?, ?, ?, ?)")
            let handle = statement.sqliteStatement
            for p in pairs {
                sqlite3_reset(handle)
                sqlite3_bind_int64(handle, 1, Int64(p.mapping))
                sqlite3_bind_int64(handle, 2, p.source)
                sqlite3_bind_int64(handle, 3, Int64(p.sourceEntity))
                sqlite3_bind_int64(handle, 4, p.destination)
                sqlite3_bind_int64(handle, 5, Int64(p.destinationEntity))
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
                }
            }
            sqlite3_reset(handle)
        }
        var lastMapping = -1, lastEntity = -1
        for p in pairs {
            countByMapping[p.mapping, default: 0] += 1
            if p.mapping != lastMapping || p.destinationEntity != lastEntity {
                destinationEntitiesByMapping[p.mapping, default: []].insert(p.destinationEntity)
                lastMapping = p.mapping; lastEntity = p.destinationEntity
            }
        }
    }

    /// Builds the index the second and third passes read by; once, after the first pass.
    func indexDestinations() throws {
        guard !destinationIndexed else { return }
        try database.write { db in try db.execute(sql: "CREATE INDEX map_destination ON map (mapping, destination)") }
        destinationIndexed = true
    }

    /// The associations of sources of some mappings (nil keys: every source).
    func pairs(mappings: [Int], sources: [Int64]?) throws -> [Pair] {
        try database.read { db in
            var result: [Pair] = []
            let mappingList = mappings.map(String.init).joined(separator: ", ")
            if let sources {
                let statement = try db.cachedStatement(sql: "SELECT mapping, source, sourceEntity, destination, destinationEntity FROM map INDEXED BY map_source WHERE mapping IN (\(mappingList)) AND source = ?")
                for key in sources {
                    result += try Row.fetchAll(statement, arguments: [key]).map(Self.pair)
                }
            } else {
                result = try Row.fetchAll(db, sql: "SELECT mapping, source, sourceEntity, destination, destinationEntity FROM map WHERE mapping IN (\(mappingList)) ORDER BY destination").map(Self.pair)
            }
            return result
        }
    }

    /// The associations of some destinations of a mapping (nil keys: every destination).
    func pairs(mapping: Int, destinations: [Int64]?) throws -> [Pair] {
        try indexDestinations()
        return try database.read { db in
            if let destinations {
                let statement = try db.cachedStatement(sql: "SELECT mapping, source, sourceEntity, destination, destinationEntity FROM map INDEXED BY map_destination WHERE mapping = ? AND destination = ?")
                return try destinations.flatMap { try Row.fetchAll(statement, arguments: [mapping, $0]).map(Self.pair) }
            }
            return try Row.fetchAll(db, sql: "SELECT mapping, source, sourceEntity, destination, destinationEntity FROM map WHERE mapping = ? ORDER BY destination", arguments: [mapping]).map(Self.pair)
        }
    }

    /// One batch of a mapping's destinations in key order, each with its first source.
    func destinationBatch(mapping: Int, after: Int64, limit: Int) throws -> [Pair] {
        try indexDestinations()
        return try database.read { db in
            let statement = try db.cachedStatement(sql: """
                SELECT MIN(source), sourceEntity, destination, destinationEntity FROM map
                WHERE mapping = ? AND destination > ? GROUP BY destination ORDER BY destination LIMIT ?
                """)
            let handle = statement.sqliteStatement
            sqlite3_reset(handle)
            sqlite3_bind_int64(handle, 1, Int64(mapping))
            sqlite3_bind_int64(handle, 2, after)
            sqlite3_bind_int64(handle, 3, Int64(limit))
            defer { sqlite3_reset(handle) }
            var result: [Pair] = []
            result.reserveCapacity(limit)
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
                }
                result.append(Pair(mapping: mapping, source: sqlite3_column_int64(handle, 0), sourceEntity: Int(sqlite3_column_int64(handle, 1)),
                                   destination: sqlite3_column_int64(handle, 2), destinationEntity: Int(sqlite3_column_int64(handle, 3))))
            }
            return result
        }
    }

    /// How many destinations a mapping has.
    func destinationCount(mapping: Int) throws -> Int {
        try indexDestinations()
        return try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT destination) FROM map WHERE mapping = ?", arguments: [mapping]) ?? 0
        }
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

    private static func pair(_ row: Row) -> Pair {
        Pair(mapping: row[0], source: row[1], sourceEntity: row[2], destination: row[3], destinationEntity: row[4])
    }
}
