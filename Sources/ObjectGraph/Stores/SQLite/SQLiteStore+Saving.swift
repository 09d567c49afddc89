import Foundation
import GRDB
import GRDBSQLite

/// Writing: primary keys, and each save applied in one transaction, with optimistic locking
/// and persistent history.
extension SQLiteStore {
    /// The error for a write to a store opened read-only.
    func readOnlyError(_ what: String) -> CoreDataError {
        CoreDataError(
            .persistentStoreSave,
            "Cannot \(what): the store at \(url.path) was added read-only (NSReadOnlyPersistentStoreOption)")
    }

    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] {
        if isReadOnly { throw readOnlyError("save new \(entity.name) objects") }
        // Keys come from the root entity's Z_MAX: every entity of a table shares its key space.
        let root = model.entitiesByName[entity.rootEntityName]!
        // One IMMEDIATE transaction (GRDB's `write`): it holds the write lock before reading
        // Z_MAX, so no other process can hand out the same keys, and it waits for the lock
        // with the busy timeout. The UPDATE's `AND Z_MAX = ?` must match: if it ever did not,
        // the keys are refused rather than reused.
        return try CoreDataError.mappingSQLite(
            "Allocating \(count) primary keys for \(entity.name) in the store at", url
        ) {
            try database.write { db in
                // Cached statements: every save of new objects runs these two, prepared once
                // per connection.
                let current =
                    try Int64.fetchOne(
                        db.cachedStatement(sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"),
                        arguments: [root.entityNumber]) ?? 0
                try db.cachedStatement(sql: "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
                    .execute(arguments: [current + Int64(count), root.entityNumber, current])
                guard db.changesCount == 1 else {
                    throw CoreDataError(
                        .persistentStoreIncompatibleSchema,
                        "The store at \(url.path) has no primary-key row for \(root.name) in Z_PRIMARYKEY, or it changed while keys were allocated; no keys were handed out"
                    )
                }
                return (0..<count).map { current + 1 + Int64($0) }
            }
        }
    }

    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws {
        try save(changes, model: model, history: tracksHistory ? HistoryTransactionInfo() : nil)
    }

    func save(_ changes: StoreChanges, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws {
        try save(changes, model: model, history: tracksHistory ? transaction : nil)
    }

    /// Applies a save in one transaction; with `history`, records it there too.
    private func save(_ changes: StoreChanges, model: ManagedObjectModel, history: HistoryTransactionInfo?) throws {
        let newMetadata = pendingMetadata.withLock { $0 }
        guard !changes.isEmpty || newMetadata != nil else { return }
        if isReadOnly { throw readOnlyError("save") }
        try UnstorableModelParts.refuse(changes, storeType: .sqlite, storeIdentifier: identifier, model: model)
        let start = DispatchTime.now()
        // BEGIN IMMEDIATE: the write lock is taken (waiting up to the busy timeout) before
        // anything is read, so the busy handler applies.
        try CoreDataError.mappingSQLite("Saving the store at", url) {
            do {
                try database.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try apply(changes, db: db, history: history)
                        if let newMetadata { try writeMetadata(newMetadata, db: db) }
                        return .commit
                    }
                }
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                // A uniqueness constraint's UNIQUE index refused a row: Core Data's answer with
                // its default merge policy is 133021 (NSManagedObjectConstraintMergeError).
                // The transaction was rolled back: nothing of the save is written.
                throw CoreDataError(
                    .constraintMerge,
                    "The save breaks a uniqueness constraint of the model in the store at \(url.path): \(error.message ?? "UNIQUE constraint failed"). Nothing was saved",
                    sqliteCode: error.extendedResultCode.rawValue)
            }
        }
        log.annotate(
            "save of \(changes.inserted.count) inserted, \(changes.updated.count) updated, \(changes.deleted.count) deleted",
            since: start)
    }

    private func apply(_ changes: StoreChanges, db: Database, history: HistoryTransactionInfo?) throws {
        var conflicts: [String] = []
        let writer = SQLiteWriter(db: db, model: model, log: log, storeIdentifier: identifier)
        // Persistent history, when tracked: each change noted as its row is written.
        var record: HistoryRecord? = history == nil ? nil : HistoryRecord()
        for (k, (row, expected)) in changes.updated.enumerated() {
            // Only the changed columns, when the save knows them (SQLiteWriter).
            let properties = changes.properties(ofUpdate: k)
            if try !writer.update(
                row, expectedVersion: expected, plan: writePlan(row.entityName), properties: properties,
                history: &record)
            {
                let id = ManagedObjectID(
                    entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey)
                let mapping = schema.entities[row.entityName]!
                let now = try Int64.fetchOne(
                    db, sql: "SELECT Z_OPT FROM \(mapping.tableName) WHERE Z_PK = ?", arguments: [row.primaryKey])
                conflicts.append(
                    "\(id.uriString) (version \(expected) read, \(now.map { "\($0)" } ?? "deleted") in the store)")
            }
        }
        for (id, expected) in changes.deleted {
            let mapping = schema.entities[id.entityName]!
            let tombstone = record == nil ? [] : try tombstoneValues(of: id, db: db)
            try execute(
                db, "DELETE FROM \(mapping.tableName) WHERE Z_PK = ? AND Z_OPT = ?",
                [id.primaryKey.databaseValue, expected.databaseValue])
            if db.changesCount == 0,
                let now = try Int64.fetchOne(
                    db, sql: "SELECT Z_OPT FROM \(mapping.tableName) WHERE Z_PK = ?", arguments: [id.primaryKey])
            {
                conflicts.append("\(id.uriString) (version \(expected) read, \(now) in the store)")
            } else if record != nil, db.changesCount > 0 {
                record!.deleted.append((mapping.entityNumber, id.primaryKey, tombstone))
            }
            // Many-to-many links of the deleted object go with it.
            let entity = model.entitiesByName[id.entityName]!
            for r in entity.relationships where r.isToMany {
                guard let (join, columns) = joinColumns(of: r, entity: entity.name) else { continue }
                try execute(db, "DELETE FROM \(join.name) WHERE \(columns.mine) = ?", [id.primaryKey.databaseValue])
            }
        }
        guard conflicts.isEmpty else {
            throw CoreDataError(
                .merge, "Could not merge changes: another context saved \(conflicts.joined(separator: ", ")) first")
        }
        // Rows come in runs of one entity: its plan is looked up once per run, not hashed per row.
        var plan: RelationalWritePlan?
        for row in changes.inserted {
            if plan?.entityName != row.entityName { plan = writePlan(row.entityName) }
            try writer.insert(row, plan: plan!)
        }
        let statements = SQLiteBatchStatements(db: db, log: log)
        try relationshipWrites.applyLinks(changes, statements: statements)
        try relationshipWrites.applyOrderings(changes.orderings, statements: statements)
        var written: [String: [Int64]] = [:]
        for row in changes.inserted { written[row.entityName, default: []].append(row.primaryKey) }
        for (row, _) in changes.updated { written[row.entityName, default: []].append(row.primaryKey) }
        for (sql, arguments) in derived.recomputations(written: written, anyChange: !changes.isEmpty, model: model) {
            try execute(db, sql, arguments)
        }
        if var record, let history {
            record.inserted = changes.inserted.map { (writePlan($0.entityName).entityNumber, $0.primaryKey) }
            try SQLiteHistoryRecorder.record(record, info: history, model: model, db: db, log: log)
        }
    }

    /// The values of a row's preserved attributes (preservesValueInHistoryOnDeletion), in
    /// tombstone order, read before the row is deleted: a batch delete calls it too, for
    /// ``recordHistory(inserted:updated:deleted:transaction:db:)``.
    func tombstoneValues(of id: ManagedObjectID, db: Database) throws -> [DatabaseValue] {
        guard let entity = model.entitiesByName[id.entityName], let mapping = schema.entities[id.entityName] else {
            return []
        }
        let columns = RelationalHistorySchema.preservedAttributes(of: entity).map {
            mapping.attributeColumns[$0.attribute.name] ?? "NULL"
        }
        guard !columns.isEmpty else { return [] }
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT \(columns.joined(separator: ", ")) FROM \(mapping.tableName) WHERE Z_PK = ?"),
            arguments: [id.primaryKey])
        return row.map { row in (0..<columns.count).map { row[$0] as DatabaseValue } } ?? []
    }

    func execute(_ db: Database, _ sql: String, _ values: [DatabaseValue]) throws {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(StatementArguments(values))
        log.statement(sql: sql, arguments: values)
        try statement.execute()
    }

    /// How an entity's rows are written, prepared once per entity.
    private func writePlan(_ entityName: String) -> RelationalWritePlan { writePlans[entityName]! }
}
