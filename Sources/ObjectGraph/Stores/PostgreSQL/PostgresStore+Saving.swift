import Foundation
import GRDB

/// Saving to the PostgreSQL store: primary keys, the save's transaction with optimistic
/// locking, moving contents in and out.
extension PostgresStore {
    /// Hands out `count` keys of the entity's inheritance tree in one statement:
    /// `UPDATE ... SET Z_MAX = Z_MAX + n ... RETURNING Z_MAX` takes the row's lock, so two
    /// processes (or machines) asking at once get disjoint ranges, the second after the first
    /// commits.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64] {
        guard let root = model.entitiesByName[entity.rootEntityName] else {
            throw CoreDataError(.persistentStoreIncompatibleSchema, "\(entity.name) has no root entity in the model")
        }
        // Asked again on a new connection when the first was lost: if the lost statement did
        // run, its range is only a gap in the keys, which are unique, not dense.
        let result = try withStatements(
            "Allocating \(count) primary keys for \(entity.name) in the store at",
            retryingLostConnection: true
        ) { statements in
            try statements.query(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX",
                [count.databaseValue, root.entityNumber.databaseValue])
        }
        guard result.rowCount == 1, case .int64(let last) = result[0, 0].storage else {
            throw CoreDataError(
                .persistentStoreIncompatibleSchema,
                "The store at \(PostgresNames.redacted(url)) has no primary-key row for \(root.name) in Z_PRIMARYKEY; no keys were handed out"
            )
        }
        return (0..<count).map { last - Int64(count) + 1 + Int64($0) }
    }

    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws {
        try save(changes, model: model, history: tracksHistory ? HistoryTransactionInfo() : nil)
    }

    func save(_ changes: StoreChanges, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws {
        try save(changes, model: model, history: tracksHistory ? transaction : nil)
    }

    /// Applies a save in one transaction; with `history`, records it there too.
    ///
    /// Updates and deletes carry `AND Z_OPT = <version read>`. Under READ COMMITTED an UPDATE
    /// that meets a row another transaction is changing waits for it, then tests the condition
    /// again on the committed row: a save that lost the race changes nothing there and fails
    /// with 133020, naming each object and both versions, and nothing of it is written.
    func save(_ changes: StoreChanges, model: ManagedObjectModel, history: HistoryTransactionInfo?) throws {
        guard !changes.isEmpty else { return }
        try UnstorableModelParts.refuse(changes, storeType: .postgres, storeIdentifier: identifier, model: model)
        let start = DispatchTime.now()
        try inTransaction("Saving the store at") { statements in
            if let history { try recordHistory(changes, transaction: history, statements: statements) }
            try apply(changes, statements: statements)
        }
        log.annotate(
            "save of \(changes.inserted.count) inserted, \(changes.updated.count) updated, \(changes.deleted.count) deleted",
            since: start)
    }

    private func apply(_ changes: StoreChanges, statements: PostgresStatements) throws {
        let writer = PostgresWriter(model: model, schema: schema, storeIdentifier: identifier)
        var conflicts: [String] = []
        for (k, (row, expected)) in changes.updated.enumerated() {
            let (sql, values) = try writer.update(
                row, expectedVersion: expected, changed: changes.properties(ofUpdate: k)?.changed)
            if try statements.query(sql, values).affectedRows == 0 {
                conflicts.append(try conflict(row.entityName, row.primaryKey, expected, statements))
            }
        }
        for (id, expected) in changes.deleted {
            guard let mapping = schema.entities[id.entityName], let entity = model.entitiesByName[id.entityName] else {
                continue
            }
            let deleted = try statements.query(
                "DELETE FROM \(mapping.tableName) WHERE Z_PK = ? AND Z_OPT = ?",
                [id.primaryKey.databaseValue, expected.databaseValue])
            if deleted.affectedRows == 0 {
                let found = try statements.query(
                    "SELECT Z_OPT FROM \(mapping.tableName) WHERE Z_PK = ?", [id.primaryKey.databaseValue])
                // Deleted by another context already: what this save wanted.
                if found.rowCount > 0 {
                    conflicts.append(try conflict(id.entityName, id.primaryKey, expected, statements))
                }
            }
            // Many-to-many links of the deleted object go with it.
            for r in entity.relationships where r.isToMany {
                guard let (join, columns) = joinColumns(of: r, entity: entity.name) else { continue }
                try statements.query(
                    "DELETE FROM \(join.name) WHERE \(columns.mine) = ?", [id.primaryKey.databaseValue])
            }
        }
        guard conflicts.isEmpty else {
            throw CoreDataError(
                .merge, "Could not merge changes: another context saved \(conflicts.joined(separator: ", ")) first")
        }
        for (sql, values) in try writer.inserts(changes.inserted) {
            try statements.query(sql, values)
        }
        let writes = SQLRelationshipWrites(
            related: SQLRelatedQuery(model: model, schema: schema), dialect: .postgres,
            storeName: PostgresNames.redacted(url))
        try writes.applyLinks(changes, statements: statements)
        try writes.applyOrderings(changes.orderings, statements: statements)
    }

    /// How a conflicting row stands now, for the 133020 message.
    private func conflict(_ entityName: String, _ key: Int64, _ expected: Int64, _ statements: PostgresStatements)
        throws -> String
    {
        let id = ManagedObjectID(entityName: entityName, storeIdentifier: identifier, primaryKey: key)
        let table = schema.entities[entityName]?.tableName ?? entityName
        let now = try statements.query("SELECT Z_OPT FROM \(table) WHERE Z_PK = ?", [key.databaseValue])
        let version: String
        if now.rowCount > 0, case .int64(let v) = now[0, 0].storage { version = "\(v)" } else { version = "deleted" }
        return "\(id.uriString) (version \(expected) read, \(version) in the store)"
    }

    /// The join table and columns of a many-to-many relationship, seen from `entity`.
    func joinColumns(of r: RelationshipDescription, entity: String) -> (
        table: RelationalSchema.JoinTable, columns: (mine: String, theirs: String, order: String?)
    )? {
        SQLRelatedQuery(model: model, schema: schema).joinColumns(of: r, entity: entity)
    }

    // MARK: Moving contents

    /// Every row (one query per table) and every many-to-many link (one query per join table).
    func exportContents() throws -> AtomicContents {
        var contents = AtomicContents()
        for root in model.entities where root.parentEntityName == nil {
            for row in try fetchRows(FetchRequest(entityName: root.name), model: model) {
                contents.rows[root.name, default: [:]][row.primaryKey] = row
                contents.lastKeys[root.name] = max(contents.lastKeys[root.name, default: 0], row.primaryKey)
            }
        }
        var seen: Set<String> = []
        for join in schema.joinTables.values where seen.insert(join.name).inserted {
            let key = "\(join.ownerEntity).\(join.ownerRelationship)"
            let result = try withStatements("Reading the links of \(key) from the store at") { statements in
                try statements.query("SELECT \(join.ownerColumn), \(join.destinationColumn) FROM \(join.name)", [])
            }
            var pairs: Set<[Int64]> = []
            for i in 0..<result.rowCount {
                guard case .int64(let owner) = result[i, 0].storage, case .int64(let other) = result[i, 1].storage
                else { continue }
                pairs.insert([owner, other])
            }
            contents.links[key] = pairs
        }
        return contents
    }

    /// Inserts every row and link of an empty store in one transaction, and sets each table's
    /// Z_MAX past its largest key so new objects do not collide.
    func importContents(_ contents: AtomicContents) throws {
        try save(contents.insertion(model: model, storeIdentifier: identifier), model: model)
        try inTransaction("Setting the primary keys of the store at") { statements in
            for (root, rows) in contents.rows {
                guard let number = model.entitiesByName[root]?.entityNumber, let highest = rows.keys.max() else {
                    continue
                }
                try statements.query(
                    "UPDATE Z_PRIMARYKEY SET Z_MAX = GREATEST(Z_MAX, ?) WHERE Z_ENT = ?",
                    [highest.databaseValue, number.databaseValue])
            }
        }
    }
}
