import Foundation
import GRDB

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

    /// A new, empty table in a scratch file in `directory`.
    init(directory: URL) throws {
        url = directory.appendingPathComponent(".objectgraph-migration-\(UUID().uuidString).associations")
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

    /// Records associations, in one transaction.
    func insert(_ pairs: [Pair]) throws {
        guard !pairs.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO map VALUES (?, ?, ?, ?, ?)")
            for p in pairs {
                try statement.execute(arguments: [p.mapping, p.source, p.sourceEntity, p.destination, p.destinationEntity])
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
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT mapping, MIN(source), sourceEntity, destination, destinationEntity FROM map
                WHERE mapping = ? AND destination > ? GROUP BY destination ORDER BY destination LIMIT ?
                """), arguments: [mapping, after, limit]).map(Self.pair)
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
