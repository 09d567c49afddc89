import Foundation
import GRDB

extension SQLiteStore {
    /// One batch of a streaming read: the request's entity filter and predicate in SQL, then
    /// `Z_PK > ?` in key order, so each batch starts where the last ended (no OFFSET scans).
    func fetchRows(_ request: AnyFetchRequest, afterPrimaryKey: Int64, limit: Int, model: ManagedObjectModel) throws
        -> [StoreRow]
    {
        let entity = try model.entity(named: request.entityName)
        let plan = plan(forTable: schema.entities[entity.name]!.tableName)
        let unwindowed = request.copy()
        unwindowed.fetchLimit = 0
        unwindowed.fetchOffset = 0
        let parts = try queryParts(unwindowed, entity: entity, sorted: false)
        let after: SQLFragment = "t0.Z_PK > \(bind: afterPrimaryKey.databaseValue)"
        let keyCondition: SQLFragment =
            parts.whereClause.isEmpty ? " WHERE \(after)" : "\(parts.whereClause) AND \(after)"
        let statement: SQLFragment = """
            SELECT \(raw: plan.selectList) FROM \(raw: parts.from)\(keyCondition) \
            ORDER BY t0.Z_PK LIMIT \(bind: limit.databaseValue)
            """
        return try CoreDataError.mappingSQLite(
            "Reading a batch of \(request.entityName) objects from the store at", url
        ) {
            try readRows(statement.sql, statement.arguments, plan: plan)
        }
    }

    /// The keys of an entity's rows (not its sub-entities') that may fail the model's
    /// validation, found in SQL: a required attribute or to-one that is NULL (a to-many without
    /// a count range, required or not, accepts no rows at all). Nil when the entity has a check
    /// SQL does not express the way `Validation` does (bounds, patterns, to-many counts): then
    /// every object has to be validated in memory. A migration's third
    /// pass validates only these rows instead of loading every object.
    func keysFailingSimpleValidation(of entity: EntityDescription) throws -> [Int64]? {
        guard let mapping = schema.entities[entity.name] else { return nil }
        var conditions: [String] = []
        for a in entity.attributes where !a.isTransient {
            if a.maxValue != nil || a.minValue != nil || a.regularExpression != nil { return nil }
            guard !a.isOptional else { continue }
            guard let column = mapping.attributeColumns[a.name] else { return nil }
            conditions.append("\(column) IS NULL")
        }
        for r in entity.relationships {
            if !r.hasSaveChecks { continue }
            guard !r.isToMany, let column = mapping.toOneColumns[r.name] else { return nil }
            conditions.append("\(column) IS NULL")
        }
        guard !conditions.isEmpty else { return [] }
        let sql =
            "SELECT Z_PK FROM \(mapping.tableName) WHERE Z_ENT = ? AND (\(conditions.joined(separator: " OR "))) ORDER BY Z_PK"
        return try CoreDataError.mappingSQLite("Finding \(entity.name) objects to validate in the store at", url) {
            try database.read { db in try Int64.fetchAll(db, sql: sql, arguments: [mapping.entityNumber]) }
        }
    }

    /// A key range is one SELECT.
    var readsKeyRanges: Bool { true }

    /// Turns off (or back on) waiting for the disk at each commit (`PRAGMA synchronous`): a
    /// migration's destination is a scratch file until it is complete, flushed once and
    /// swapped in.
    func deferDurability(_ deferring: Bool) throws {
        try CoreDataError.mappingSQLite("Setting the synchronous mode of the store at", url) {
            try database.writeWithoutTransaction { db in
                try db.execute(sql: deferring ? "PRAGMA synchronous = OFF" : "PRAGMA synchronous = FULL")
            }
        }
    }

    /// Closes the connection; the WAL is checkpointed into the database file and removed.
    func close() throws {
        remoteChanges.stop()
        try CoreDataError.mappingSQLite("Closing the store at", url) { try database.close() }
        readOnlyFile?.close()
    }
}
