import Foundation
import GRDB

extension SQLiteStore {
    /// One batch of a streaming read: the request's entity filter and predicate in SQL, then
    /// `Z_PK > ?` in key order, so each batch starts where the last ended (no OFFSET scans).
    func fetchRows(_ request: FetchRequest, afterPrimaryKey: Int64, limit: Int, model: ManagedObjectModel) throws -> [StoreRow] {
        let entity = try model.entity(named: request.entityName)
        let plan = plan(forTable: schema.entities[entity.name]!.tableName)
        let unwindowed = request.copy()
        unwindowed.fetchLimit = 0
        unwindowed.fetchOffset = 0
        let parts = try queryParts(unwindowed, entity: entity, sorted: false)
        let keyCondition = parts.whereClause.sql.isEmpty ? " WHERE t0.Z_PK > ?" : parts.whereClause.sql + " AND t0.Z_PK > ?"
        let sql = "SELECT \(plan.selectList) FROM \(parts.from)\(keyCondition) ORDER BY t0.Z_PK LIMIT ?"
        return try readRows(sql, parts.whereClause.arguments + [afterPrimaryKey.databaseValue, limit.databaseValue], plan: plan)
    }

    /// Turns off (or back on) waiting for the disk at each commit: a migration's destination
    /// is a scratch file until it is complete, flushed once and swapped in.
    func setSynchronous(_ on: Bool) throws {
        try database.writeWithoutTransaction { db in try db.execute(sql: on ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = OFF") }
    }

    /// Closes the connection; the WAL is checkpointed into the database file and removed.
    func close() throws {
        try database.close()
    }
}
