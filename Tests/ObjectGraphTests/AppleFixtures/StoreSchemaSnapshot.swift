import Foundation
import GRDB

/// A store's schema as `sqlite_master` and `PRAGMA table_info` give it, read with the test's
/// own SQL: what the schema-equality tests compare between a store Apple's Core Data wrote
/// and one created here for the same model.
struct StoreSchemaSnapshot: Equatable {
    /// A table's columns, in order, with their declared types.
    var tables: [String: [String]] = [:]
    /// Index name: "TABLE(COLUMNS)" and whether it is UNIQUE, as its SQL declares it.
    var indexes: [String: String] = [:]
    /// Trigger names.
    var triggers: Set<String> = []

    init(_ url: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in
            for row in try Row.fetchAll(
                db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
            {
                let type: String = row[0]
                let name: String = row[1]
                let table: String = row[2]
                switch type {
                case "table":
                    tables[name] = try Row.fetchAll(
                        db, sql: "SELECT name, type FROM pragma_table_info(?) ORDER BY cid", arguments: [name]
                    )
                    .map { "\($0[0] as String) \($0[1] as String)" }
                case "index":
                    let sql: String = row[3] ?? ""
                    let columns = sql.firstIndex(of: "(").map { String(sql[$0...]) } ?? ""
                    indexes[name] = (sql.hasPrefix("CREATE UNIQUE") ? "UNIQUE " : "") + table + columns
                case "trigger":
                    triggers.insert(name)
                default:
                    break
                }
            }
        }
    }

    /// The differences from `other` (Apple's), one line each, in name order: what is missing
    /// here, what is extra, what differs.
    func differences(from apple: StoreSchemaSnapshot) -> [String] {
        var result: [String] = []
        for name in Set(tables.keys).union(apple.tables.keys).sorted() {
            switch (tables[name], apple.tables[name]) {
            case (nil, let theirs?): result.append("table \(name) missing: \(theirs.joined(separator: ", "))")
            case (let mine?, nil): result.append("table \(name) extra: \(mine.joined(separator: ", "))")
            case (let mine?, let theirs?) where mine != theirs:
                result.append(
                    "table \(name) columns: \(mine.joined(separator: ", ")) | Apple: \(theirs.joined(separator: ", "))")
            default: break
            }
        }
        for name in Set(indexes.keys).union(apple.indexes.keys).sorted() {
            switch (indexes[name], apple.indexes[name]) {
            case (nil, let theirs?): result.append("index \(name) missing: \(theirs)")
            case (let mine?, nil): result.append("index \(name) extra: \(mine)")
            case (let mine?, let theirs?) where mine != theirs:
                result.append("index \(name): \(mine) | Apple: \(theirs)")
            default: break
            }
        }
        for name in triggers.union(apple.triggers).sorted()
        where triggers.contains(name) != apple.triggers.contains(name) {
            result.append("trigger \(name) \(triggers.contains(name) ? "extra" : "missing")")
        }
        return result
    }
}
