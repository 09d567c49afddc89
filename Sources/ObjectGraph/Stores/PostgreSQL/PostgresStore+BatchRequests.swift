import Foundation
import GRDB

/// Batch requests on the PostgreSQL store: the SQLite store's SQL (``BatchRequestSQL``), each
/// request one transaction, never loading objects. Keys come from `Z_PRIMARYKEY` with `UPDATE
/// ... SET Z_MAX = Z_MAX + n RETURNING Z_MAX`, which PostgreSQL runs atomically under the
/// row's lock, so processes inserting at once never take the same keys. When the store keeps
/// persistent history, each request is recorded as one transaction in its own database
/// transaction, as Apple records batch requests. Derived attributes are not recomputed.
extension PostgresStore {
    /// The parts of a request's SQL in PostgreSQL's dialect.
    private func batchQueryParts(_ request: AnyFetchRequest, entity: EntityDescription, sorted: Bool) throws
        -> SQLFetchQuery.Parts
    {
        try fetchQuery.parts(request, entity: entity, sorted: sorted)
    }

    /// Runs `body` in one transaction; the request's statements end with an annotation naming
    /// it, as the SQLite store's do, so the SQL debug log shows where the request ends.
    private func inBatchTransaction<T>(_ what: String, _ body: (PostgresStatements) throws -> T) throws -> T {
        let start = DispatchTime.now()
        let result = try inTransaction("Running a \(what) on the store at", body)
        log.annotate(what, since: start)
        return result
    }

    // MARK: Insert

    func batchInsert(
        _ rows: [BatchInsertRow], entity: EntityDescription, mergePolicy: MergePolicyType, model: ManagedObjectModel,
        transaction: HistoryTransactionInfo
    ) throws -> [ManagedObjectID] {
        guard schema.entities[entity.name] != nil, let root = model.entitiesByName[entity.rootEntityName] else {
            throw CoreDataError(
                .persistentStoreIncompatibleSchema,
                "The store at \(PostgresNames.redacted(url)) has no table for \(entity.name)")
        }
        let sql = batchSQL
        return try inBatchTransaction("batch insert of \(entity.name) objects") { statements in
            let actions = try BatchInsertConstraints.resolve(
                rows, entity: entity, model: model, policy: mergePolicy,
                lookup: try sql.constraintLookup(entity: entity, statements: statements))
            var inserts: [StoreRow] = []
            for action in actions {
                if case .insert(let row) = action {
                    inserts.append(
                        StoreRow(
                            entityName: entity.name, primaryKey: 0, version: 1,
                            values: row.values.map(AttributeValue.init)))
                }
            }
            if !inserts.isEmpty {
                // Keys from Z_PRIMARYKEY in this same transaction; its row stays locked until COMMIT.
                let result = try statements.query(
                    "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX",
                    [inserts.count.databaseValue, root.entityNumber.databaseValue])
                guard result.rowCount == 1, let last = Int64.fromDatabaseValue(result[0, 0]) else {
                    throw CoreDataError(
                        .persistentStoreIncompatibleSchema,
                        "The store at \(PostgresNames.redacted(url)) has no primary-key row for \(root.name) in Z_PRIMARYKEY; nothing was inserted"
                    )
                }
                for k in inserts.indices { inserts[k].primaryKey = last - Int64(inserts.count) + 1 + Int64(k) }
                for (sql, values) in try PostgresWriter(model: model, schema: schema, storeIdentifier: identifier)
                    .inserts(inserts)
                {
                    try statements.query(sql, values)
                }
            }
            var ids: [ManagedObjectID] = []
            ids.reserveCapacity(actions.count)
            var next = inserts.makeIterator()
            var updated: [(id: ManagedObjectID, changedProperties: [String])] = []
            for action in actions {
                switch action {
                case .insert:
                    guard let row = next.next() else { continue }
                    ids.append(
                        ManagedObjectID(
                            entityName: entity.name, storeIdentifier: identifier, primaryKey: row.primaryKey))
                case .update(let id, let row):
                    let upsert = try sql.upsert(id, row, entity: entity)
                    try statements.query(upsert.sql, upsert.arguments)
                    ids.append(id)
                    updated.append((id, upsert.properties))
                }
            }
            let inserted = inserts.map {
                ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: $0.primaryKey)
            }
            try recordHistory(
                inserted: inserted, updated: updated, deleted: [], transaction: transaction, statements: statements)
            return ids
        }
    }

    // MARK: Update

    func batchUpdate(
        _ request: BatchUpdateRequest, changes: BatchUpdateChanges, wantsIDs: Bool, model: ManagedObjectModel,
        transaction: HistoryTransactionInfo
    ) throws -> BatchOutcome {
        // Persistent history needs the keys of the rows changed, as the caller's IDs do.
        let readsKeys = wantsIDs || tracksHistory
        let (entity, statement) = try batchSQL.updateStatement(request, changes: changes, returningKeys: readsKeys) {
            try batchQueryParts($0, entity: $1, sorted: false)
        }
        return try inBatchTransaction("batch update of \(entity.name) objects") { statements in
            let result = try statements.query(statement)
            guard readsKeys else { return BatchOutcome(count: result.affectedRows) }
            let ids = batchSQL.returnedIDs(
                (0..<result.rowCount).map { [result[$0, 0], result[$0, 1]] }, entity: entity)
            let properties = changes.assignments.map(\.attribute.name)
            try recordHistory(
                inserted: [], updated: ids.map { ($0, properties) }, deleted: [], transaction: transaction,
                statements: statements)
            return BatchOutcome(count: ids.count, ids: wantsIDs ? ids : [])
        }
    }

    // MARK: Delete

    func batchDelete(
        _ targets: BatchDeleteTargets, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo
    ) throws -> BatchOutcome {
        let sql = batchSQL
        let entity = try sql.entity(of: targets)
        let operation = "batch delete of \(entity.name) objects"
        if let request = sql.deletesInOneStatement(targets, entity: entity, wantsKeys: wantsIDs || tracksHistory) {
            let statement = try sql.deleteStatement(
                entity: entity, parts: try batchQueryParts(request, entity: entity, sorted: false))
            return try inBatchTransaction(operation) { statements in
                BatchOutcome(count: try statements.query(statement).affectedRows)
            }
        }
        return try inBatchTransaction(operation) { statements in
            let ids = try sql.targetIDs(
                targets, entity: entity, parts: { try batchQueryParts($0, entity: entity, sorted: true) },
                statements: statements)
            let plan = try BatchDeletePlan(targets: ids, model: model) { sources, r in
                try sql.related(sources, relationship: r, statements: statements)
            }
            let tombstones =
                tracksHistory
                ? try plan.deleted.compactMap { id in
                    try sql.tombstoneValues(of: id, statements: statements).map { (id, $0) }
                } : []
            try sql.apply(plan, statements: statements)
            try recordHistory(
                inserted: [], updated: plan.nullified.map { ($0.id, [$0.relationship.name]) }, deleted: tombstones,
                transaction: transaction, statements: statements)
            return BatchOutcome(count: plan.deleted.count, ids: wantsIDs ? plan.deleted : [])
        }
    }
}
