import Foundation
import GRDB

/// Batch requests as SQL, each in one IMMEDIATE transaction, never loading objects: a batch
/// insert as the save's prepared INSERT with keys taken from `Z_PRIMARYKEY` (its `Z_MAX`
/// advanced), a batch update as one `UPDATE ... WHERE` with the fetch's predicate SQL that also
/// raises `Z_OPT`, a batch delete as DELETEs by key plus what the delete rules ask (join-table
/// rows, to-one keys of related rows set to NULL, cascaded rows). When the store keeps
/// persistent history, each request is recorded as one transaction in its own database
/// transaction, as Apple records batch requests: the UPDATE then gets `RETURNING Z_PK, Z_ENT`,
/// and a delete takes its general path (keys read first, tombstones read before the rows go).
/// Derived attributes are not recomputed by a batch request.
extension SQLiteStore {
    /// Runs `body` in one IMMEDIATE write transaction; a UNIQUE index that refuses a row is
    /// 133021, as at save.
    private func inBatchTransaction<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        if isReadOnly { throw readOnlyError(what) }
        // The request's statements end with an annotation, as a save's do ("save of ..."), so
        // that a reader of the SQL debug log sees where the request ends and the next work begins.
        let start = DispatchTime.now()
        let result = try CoreDataError.mappingSQLite("Running a \(what) on the store at", url) {
            do {
                var result: T?
                try database.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        result = try body(db)
                        return .commit
                    }
                }
                return result!
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw CoreDataError(
                    .constraintMerge,
                    "The \(what) breaks a uniqueness constraint of the model in the store at \(url.path): \(error.message ?? "UNIQUE constraint failed"). Nothing was written",
                    sqliteCode: error.extendedResultCode.rawValue)
            }
        }
        log.annotate(what, since: start)
        return result
    }

    /// The store-independent SQL of batch requests, on this store's layout.
    private var batchSQL: BatchRequestSQL {
        BatchRequestSQL(model: model, schema: schema, storeIdentifier: identifier, storeName: url.path)
    }

    // MARK: Insert

    func batchInsert(
        _ rows: [BatchInsertRow], entity: EntityDescription, mergePolicy: MergePolicyType, model: ManagedObjectModel,
        transaction: HistoryTransactionInfo
    ) throws -> [ManagedObjectID] {
        guard schema.entities[entity.name] != nil, let root = model.entitiesByName[entity.rootEntityName] else {
            throw CoreDataError(
                .persistentStoreIncompatibleSchema, "The store at \(url.path) has no table for \(entity.name)")
        }
        let plan = RelationalWritePlan(for: entity, schema: schema)
        let sql = batchSQL
        return try inBatchTransaction("batch insert of \(entity.name) objects") { db in
            let statements = SQLiteBatchStatements(db: db, log: log)
            let actions = try BatchInsertConstraints.resolve(
                rows, entity: entity, model: model, policy: mergePolicy,
                lookup: try sql.constraintLookup(entity: entity, statements: statements))
            let insertCount = actions.reduce(0) { n, action in
                if case .insert = action { return n + 1 }
                return n
            }
            // Keys from Z_PRIMARYKEY in this same transaction, as allocatePrimaryKeys takes them.
            let first =
                (try Int64.fetchOne(
                    db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root.entityNumber]) ?? 0) + 1
            if insertCount > 0 {
                try execute(
                    db, "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
                    [(first - 1 + Int64(insertCount)).databaseValue, root.entityNumber.databaseValue])
                guard db.changesCount == 1 else {
                    throw CoreDataError(
                        .persistentStoreIncompatibleSchema,
                        "The store at \(url.path) has no primary-key row for \(root.name) in Z_PRIMARYKEY; nothing was inserted"
                    )
                }
            }
            let writer = SQLiteWriter(db: db, model: model, log: log, storeIdentifier: identifier)
            var ids: [ManagedObjectID] = []
            ids.reserveCapacity(actions.count)
            var key = first
            var inserted: [ManagedObjectID] = []
            var updated: [(id: ManagedObjectID, changedProperties: [String])] = []
            for action in actions {
                switch action {
                case .insert(let row):
                    try writer.insert(
                        StoreRow(
                            entityName: entity.name, primaryKey: key, version: 1,
                            values: row.values.map(AttributeValue.init)), plan: plan)
                    ids.append(ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: key))
                    if tracksHistory { inserted.append(ids[ids.count - 1]) }
                    key += 1
                case .update(let id, let row):
                    let upsert = try sql.upsert(id, row, entity: entity)
                    try execute(db, upsert.sql, upsert.arguments)
                    ids.append(id)
                    if tracksHistory { updated.append((id, upsert.properties)) }
                }
            }
            try recordHistory(inserted: inserted, updated: updated, deleted: [], transaction: transaction, db: db)
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
            try queryParts($0, entity: $1, sorted: false)
        }
        let (sql, arguments) = (statement.sql, statement.arguments)
        return try inBatchTransaction("batch update of \(entity.name) objects") { db in
            try log.measure(sql: sql, arguments: arguments) {
                var outcome = BatchOutcome()
                if readsKeys {
                    let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
                        Array($0.databaseValues)
                    }
                    outcome.ids = batchSQL.returnedIDs(rows, entity: entity)
                    outcome.count = outcome.ids.count
                    let properties = changes.assignments.map(\.attribute.name)
                    try recordHistory(
                        inserted: [], updated: outcome.ids.map { ($0, properties) }, deleted: [],
                        transaction: transaction, db: db)
                    if !wantsIDs { outcome.ids = [] }
                } else {
                    try db.execute(sql: sql, arguments: StatementArguments(arguments))
                    outcome.count = db.changesCount
                }
                return outcome
            } rowCount: {
                $0.count
            }
        }
    }

    // MARK: Delete

    func batchDelete(
        _ targets: BatchDeleteTargets, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo
    ) throws -> BatchOutcome {
        let sql = batchSQL
        let entity = try sql.entity(of: targets)
        // Without relationships there is nothing for delete rules to do: one DELETE (unless
        // persistent history needs each row's key and tombstone).
        if let request = sql.deletesInOneStatement(targets, entity: entity, wantsKeys: wantsIDs || tracksHistory) {
            let statement = try sql.deleteStatement(
                entity: entity, parts: try queryParts(request, entity: entity, sorted: false))
            return try inBatchTransaction("batch delete of \(entity.name) objects") { db in
                try log.measure(sql: statement.sql, arguments: statement.arguments) {
                    try db.execute(sql: statement.sql, arguments: StatementArguments(statement.arguments))
                    return BatchOutcome(count: db.changesCount)
                } rowCount: {
                    $0.count
                }
            }
        }
        return try inBatchTransaction("batch delete of \(entity.name) objects") { db in
            let statements = SQLiteBatchStatements(db: db, log: log)
            let ids = try sql.targetIDs(
                targets, entity: entity, parts: { try queryParts($0, entity: entity) }, statements: statements)
            let plan = try BatchDeletePlan(targets: ids, model: model) { sources, r in
                try sql.related(sources, relationship: r, statements: statements)
            }
            let tombstones = tracksHistory ? try plan.deleted.map { ($0, try tombstoneValues(of: $0, db: db)) } : []
            try sql.apply(plan, statements: statements)
            try recordHistory(
                inserted: [], updated: plan.nullified.map { ($0.id, [$0.relationship.name]) }, deleted: tombstones,
                transaction: transaction, db: db)
            return BatchOutcome(count: plan.deleted.count, ids: wantsIDs ? plan.deleted : [])
        }
    }
}
