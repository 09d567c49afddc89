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
        return try CoreDataError.mappingSQLite("Running a \(what) on the store at", url) {
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
                throw CoreDataError(.constraintMerge, "The \(what) breaks a uniqueness constraint of the model in the store at \(url.path): \(error.message ?? "UNIQUE constraint failed"). Nothing was written", sqliteCode: error.extendedResultCode.rawValue)
            }
        }
    }

    // MARK: Insert

    func batchInsert(_ rows: [BatchInsertRow], entity: EntityDescription, mergePolicy: MergePolicyType, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws -> [ManagedObjectID] {
        guard let mapping = schema.entities[entity.name], let root = model.entitiesByName[entity.rootEntityName] else {
            throw CoreDataError(.persistentStoreIncompatibleSchema, "The store at \(url.path) has no table for \(entity.name)")
        }
        let plan = SQLiteWriter.plan(for: entity, schema: schema)
        let constraints = BatchInsertValues.constraints(of: entity, model: model)
        return try inBatchTransaction("batch insert of \(entity.name) objects") { db in
            let actions = try BatchInsertConstraints.resolve(rows, entity: entity, model: model, policy: mergePolicy) { c, values in
                let indexes = constraints[c]
                let conditions = indexes.map { "\(mapping.attributeColumns[entity.propertyNames[$0]] ?? "NULL") = ?" }
                let sql = "SELECT Z_PK, Z_ENT FROM \(mapping.tableName) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1"
                let arguments = zip(indexes, values).map { SQLiteValues.databaseValue($1, type: entity.attributes[$0].attributeType) }
                log.statement(sql: sql, arguments: arguments)
                guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) else { return nil }
                let number: Int = row[1]
                return ManagedObjectID(entityName: model.entitiesByNumber[number]?.name ?? entity.name, storeIdentifier: identifier, primaryKey: row[0])
            }
            let insertCount = actions.reduce(0) { n, action in if case .insert = action { return n + 1 }; return n }
            // Keys from Z_PRIMARYKEY in this same transaction, as allocatePrimaryKeys takes them.
            let first = (try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root.entityNumber]) ?? 0) + 1
            if insertCount > 0 {
                try execute(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [(first - 1 + Int64(insertCount)).databaseValue, root.entityNumber.databaseValue])
                guard db.changesCount == 1 else {
                    throw CoreDataError(.persistentStoreIncompatibleSchema, "The store at \(url.path) has no primary-key row for \(root.name) in Z_PRIMARYKEY; nothing was inserted")
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
                    try writer.insert(StoreRow(entityName: entity.name, primaryKey: key, version: 1, values: row.values.map(AttributeValue.init)), plan: plan)
                    ids.append(ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: key))
                    if tracksHistory { inserted.append(ids[ids.count - 1]) }
                    key += 1
                case .update(let id, let row):
                    let columns = row.givenAttributes.compactMap { i in mapping.attributeColumns[entity.propertyNames[i]].map { (i, $0) } }
                    let sets = (["Z_OPT = Z_OPT + 1"] + columns.map { "\($0.1) = ?" }).joined(separator: ", ")
                    let values = columns.map { SQLiteValues.databaseValue(row.values[$0.0], type: entity.attributes[$0.0].attributeType) }
                    try execute(db, "UPDATE \(mapping.tableName) SET \(sets) WHERE Z_PK = ?", values + [id.primaryKey.databaseValue])
                    ids.append(id)
                    if tracksHistory { updated.append((id, columns.map { entity.propertyNames[$0.0] })) }
                }
            }
            try recordHistory(inserted: inserted, updated: updated, deleted: [], transaction: transaction, db: db)
            return ids
        }
    }

    // MARK: Update

    func batchUpdate(_ request: BatchUpdateRequest, changes: BatchUpdateChanges, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws -> BatchOutcome {
        let entity = try model.entity(named: request.entityName)
        let fetch = request.fetchRequest()
        let parts = try queryParts(fetch, entity: entity, sorted: false)
        let mapping = try tableMapping(of: entity)
        var sets = ["Z_OPT = Z_OPT + 1"]
        var setArguments: [DatabaseValue] = []
        for (i, attribute, value) in changes.assignments {
            guard let column = mapping.attributeColumns[attribute.name] else { continue }
            switch value {
            case .constant(let v):
                if let reason = SQLiteValues.unstorableReason(v, type: attribute.attributeType) {
                    throw CoreDataError(.validation, "The batch update of \(entity.name) cannot store \"\(attribute.name)\" exactly in SQLite: \(reason)", key: attribute.name)
                }
                sets.append("\(column) = ?")
                setArguments.append(SQLiteValues.databaseValue(v, type: attribute.attributeType))
            case .expression(let e):
                let fragment = try updateValue(e, entity: entity, index: i)
                sets.append("\(column) = \(fragment.sql)")
                setArguments += fragment.arguments
            }
        }
        // A predicate across relationships joins other tables: the rows are then chosen by key.
        let condition: SQLFragment = parts.translator.joins.isEmpty
            ? parts.whereClause
            : SQLFragment(sql: " WHERE t0.Z_PK IN (SELECT t0.Z_PK FROM \(parts.from)\(parts.whereClause.sql))", arguments: parts.whereClause.arguments)
        var sql = "UPDATE \(mapping.tableName) AS t0 SET \(sets.joined(separator: ", "))\(condition.sql)"
        // Persistent history needs the keys of the rows changed, as the caller's IDs do.
        let readsKeys = wantsIDs || tracksHistory
        if readsKeys { sql += " RETURNING Z_PK, Z_ENT" }
        let arguments = setArguments + condition.arguments
        return try inBatchTransaction("batch update of \(entity.name) objects") { db in
            try log.measure(sql: sql, arguments: arguments) {
                var outcome = BatchOutcome()
                if readsKeys {
                    for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) {
                        let number: Int = row[1]
                        outcome.ids.append(ManagedObjectID(entityName: model.entitiesByNumber[number]?.name ?? entity.name, storeIdentifier: identifier, primaryKey: row[0]))
                    }
                    outcome.count = outcome.ids.count
                    let properties = changes.assignments.map(\.attribute.name)
                    try recordHistory(inserted: [], updated: outcome.ids.map { ($0, properties) }, deleted: [], transaction: transaction, db: db)
                    if !wantsIDs { outcome.ids = [] }
                } else {
                    try db.execute(sql: sql, arguments: StatementArguments(arguments))
                    outcome.count = db.changesCount
                }
                return outcome
            } rowCount: { $0.count }
        }
    }

    /// The SQL of an expression a batch update assigns: constants (functions of constants
    /// evaluated once), the row's own attributes, and arithmetic of those.
    private func updateValue(_ e: Expression, entity: EntityDescription, index: Int) throws -> SQLFragment {
        if SQLFetchTranslator.isConstant(e) {
            let value = try e.expressionValue(with: nil)
            let attribute = entity.attributes[index]
            return "\(bind: SQLiteValues.databaseValue(try BatchUpdateChanges.convert(value, attribute, entity), type: attribute.attributeType))"
        }
        switch e {
        case .keyPath(let path) where !path.contains("."):
            guard let column = schema.entities[entity.name]?.attributeColumns[path] else { break }
            return "t0.\(raw: column)"
        case .function(let selector, let arguments) where arguments.count == 2:
            let operators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/"]
            guard let op = operators[selector] else { break }
            let a = try updateValue(arguments[0], entity: entity, index: index)
            let b = try updateValue(arguments[1], entity: entity, index: index)
            return "(\(a) \(raw: op) \(b))"
        default:
            break
        }
        throw CoreDataError(exception: .invalidArgument, "The batch update of \(entity.name) cannot compute \(e.description) in SQL: use a constant, an attribute of \(entity.name), or arithmetic of those")
    }

    // MARK: Delete

    func batchDelete(_ targets: BatchDeleteTargets, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws -> BatchOutcome {
        let entityName: String
        switch targets {
        case .fetchRequest(let request): entityName = request.entityName
        case .objectIDs(let ids): entityName = ids.first?.entityName ?? ""
        }
        let entity = try model.entity(named: entityName)
        let hierarchy = model.entityAndSubentities(of: entity.name)
        // Without relationships there is nothing for delete rules to do: one DELETE (unless
        // persistent history needs each row's key and tombstone).
        if case .fetchRequest(let request) = targets, !wantsIDs, !tracksHistory, hierarchy.allSatisfy({ $0.relationships.isEmpty }),
           request.fetchLimit == 0, request.fetchOffset == 0 {
            let parts = try queryParts(request, entity: entity, sorted: false)
            let mapping = try tableMapping(of: entity)
            let sql = parts.translator.joins.isEmpty
                ? "DELETE FROM \(mapping.tableName) AS t0\(parts.whereClause.sql)"
                : "DELETE FROM \(mapping.tableName) WHERE Z_PK IN (SELECT t0.Z_PK FROM \(parts.from)\(parts.whereClause.sql))"
            return try inBatchTransaction("batch delete of \(entity.name) objects") { db in
                try log.measure(sql: sql, arguments: parts.whereClause.arguments) {
                    try db.execute(sql: sql, arguments: StatementArguments(parts.whereClause.arguments))
                    return BatchOutcome(count: db.changesCount)
                } rowCount: { $0.count }
            }
        }
        return try inBatchTransaction("batch delete of \(entity.name) objects") { db in
            let ids = try targetIDs(targets, entity: entity, db: db, model: model)
            let plan = try BatchDeletePlan(targets: ids, model: model) { sources, r in
                try related(sources, relationship: r, db: db, model: model)
            }
            let tombstones = tracksHistory ? try plan.deleted.map { ($0, try tombstoneValues(of: $0, db: db)) } : []
            try apply(plan, db: db, model: model)
            try recordHistory(inserted: [], updated: plan.nullified.map { ($0.id, [$0.relationship.name]) }, deleted: tombstones, transaction: transaction, db: db)
            return BatchOutcome(count: plan.deleted.count, ids: wantsIDs ? plan.deleted : [])
        }
    }

    /// The IDs a batch delete starts from: the fetch request's rows, or the given IDs that are
    /// still in the store.
    private func targetIDs(_ targets: BatchDeleteTargets, entity: EntityDescription, db: Database, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        func ids(_ sql: String, _ arguments: [DatabaseValue]) throws -> [ManagedObjectID] {
            try log.measure(sql: sql, arguments: arguments) {
                try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).compactMap { row -> ManagedObjectID? in
                    let number: Int = row[1]
                    guard let e = model.entitiesByNumber[number], model.isEntity(e.name, kindOf: entity.name) else { return nil }
                    return ManagedObjectID(entityName: e.name, storeIdentifier: identifier, primaryKey: row[0])
                }
            } rowCount: { $0.count }
        }
        switch targets {
        case .fetchRequest(let request):
            let parts = try queryParts(request, entity: entity)
            var sql = "SELECT t0.Z_PK, t0.Z_ENT FROM \(parts.from)\(parts.whereClause.sql)"
            if !parts.order.isEmpty { sql += " ORDER BY " + parts.order.joined(separator: ", ") }
            return try ids(sql + parts.window.sql, parts.whereClause.arguments + parts.window.arguments)
        case .objectIDs(let wanted):
            let table = try tableMapping(of: entity).tableName
            var result: [ManagedObjectID] = []
            for chunk in Self.chunks(wanted.map(\.primaryKey)) {
                result += try ids("SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_PK IN (\(Self.placeholders(chunk.count)))", chunk.map(\.databaseValue))
            }
            return result
        }
    }

    /// The objects a relationship of `sources` reaches, read in the transaction.
    private func related(_ sources: [ManagedObjectID], relationship r: RelationshipDescription, db: Database, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        guard let sourceMapping = schema.entities[sources.first?.entityName ?? ""],
              let destination = schema.entities[r.destinationEntityName] else { return [] }
        let sql: String
        if let (join, columns) = joinColumns(of: r, entity: sourceMapping.entityName) {
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(join.name) j JOIN \(destination.tableName) d ON d.Z_PK = j.\(columns.theirs) WHERE j.\(columns.mine) IN "
        } else if r.isToMany {
            let owner = model.inverseEntityName(of: r).flatMap { schema.entities[$0] }
            guard let name = r.inverseName, let column = destination.toOneColumns[name] ?? owner?.toOneColumns[name] else {
                throw CoreDataError(.persistentStoreIncompatibleSchema, "The to-many relationship \(sourceMapping.entityName).\(r.name) has no to-one inverse column in \(destination.tableName): a batch delete cannot follow it")
            }
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(destination.tableName) d WHERE d.\(column) IN "
        } else {
            guard let column = sourceMapping.toOneColumns[r.name] else { return [] }
            let entityColumn = sourceMapping.toOneEntityColumns[r.name].map { "s.\($0)" } ?? "\(destination.entityNumber)"
            sql = "SELECT s.\(column), \(entityColumn) FROM \(sourceMapping.tableName) s WHERE s.\(column) IS NOT NULL AND s.Z_PK IN "
        }
        var result: [ManagedObjectID] = []
        for chunk in Self.chunks(sources.map(\.primaryKey)) {
            let full = sql + "(\(Self.placeholders(chunk.count)))"
            let arguments = chunk.map(\.databaseValue)
            let rows = try log.measure(sql: full, arguments: arguments) {
                try Row.fetchAll(db, sql: full, arguments: StatementArguments(arguments))
            } rowCount: { $0.count }
            for row in rows {
                let number: Int = row[1]
                guard let e = model.entitiesByNumber[number], model.isEntity(e.name, kindOf: r.destinationEntityName) else { continue }
                result.append(ManagedObjectID(entityName: e.name, storeIdentifier: identifier, primaryKey: row[0]))
            }
        }
        return result
    }

    /// Writes a delete plan: rows by key, their many-to-many links, and the related rows' to-one
    /// keys that Nullify clears (with their entity and order columns), each such row's version raised.
    private func apply(_ plan: BatchDeletePlan, db: Database, model: ManagedObjectModel) throws {
        for (entityName, ids) in Dictionary(grouping: plan.deleted, by: \.entityName).sorted(by: { $0.key < $1.key }) {
            guard let mapping = schema.entities[entityName], let entity = model.entitiesByName[entityName] else { continue }
            let keys = ids.map(\.primaryKey)
            for chunk in Self.chunks(keys) {
                try execute(db, "DELETE FROM \(mapping.tableName) WHERE Z_PK IN (\(Self.placeholders(chunk.count)))", chunk.map(\.databaseValue))
            }
            for r in entity.relationships where r.isToMany {
                guard let (join, columns) = joinColumns(of: r, entity: entity.name) else { continue }
                for chunk in Self.chunks(keys) {
                    try execute(db, "DELETE FROM \(join.name) WHERE \(columns.mine) IN (\(Self.placeholders(chunk.count)))", chunk.map(\.databaseValue))
                }
            }
        }
        let groups = Dictionary(grouping: plan.nullified, by: { "\($0.id.entityName).\($0.relationship.name)" })
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) {
            let r = group[0].relationship
            guard let mapping = schema.entities[group[0].id.entityName], let column = mapping.toOneColumns[r.name] else { continue }
            let cleared = [column, mapping.toOneEntityColumns[r.name], mapping.toOneOrderColumns[r.name]].compactMap { $0 }
            let sets = (["Z_OPT = Z_OPT + 1"] + cleared.map { "\($0) = NULL" }).joined(separator: ", ")
            for chunk in Self.chunks(group.map(\.id.primaryKey)) {
                try execute(db, "UPDATE \(mapping.tableName) SET \(sets) WHERE Z_PK IN (\(Self.placeholders(chunk.count)))", chunk.map(\.databaseValue))
            }
        }
    }

    /// The table of an entity the request names: the coordinator's model made the store's
    /// schema, so a missing one means the store's file lacks it.
    private func tableMapping(of entity: EntityDescription) throws -> SQLiteSchema.EntityMapping {
        guard let mapping = schema.entities[entity.name] else {
            throw CoreDataError(.persistentStoreIncompatibleSchema, "The store at \(url.path) has no table for \(entity.name)")
        }
        return mapping
    }

    /// Keys in chunks that stay under SQLite's limit on bound variables.
    private static func chunks(_ keys: [Int64]) -> [ArraySlice<Int64>] {
        stride(from: 0, to: keys.count, by: 500).map { keys[$0..<min($0 + 500, keys.count)] }
    }

    private static func placeholders(_ n: Int) -> String {
        Array(repeating: "?", count: n).joined(separator: ", ")
    }
}
