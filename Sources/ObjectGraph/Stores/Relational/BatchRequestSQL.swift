import Foundation
import GRDB

/// The SQL of batch requests that both SQL stores run alike, since they share one layout
/// (``RelationalSchema``) and one translator: the stored object a uniqueness constraint finds, the
/// assignments of a batch update, the objects a batch delete starts from and follows through
/// relationships, and the statements that write a ``BatchDeletePlan``. Each store supplies
/// the transaction, the keys and the history.
struct BatchRequestSQL {
    let model: ManagedObjectModel
    let schema: RelationalSchema
    /// The store's UUID, for object IDs.
    let storeIdentifier: String
    /// The store as messages name it (a file's path, a URL without its password).
    let storeName: String

    /// Keys per statement: under SQLite's limit on bound variables.
    static let chunkSize = 500

    /// Keys in chunks of ``chunkSize``.
    static func chunks(_ keys: [Int64]) -> [ArraySlice<Int64>] {
        stride(from: 0, to: keys.count, by: chunkSize).map { keys[$0..<min($0 + chunkSize, keys.count)] }
    }

    /// `?, ?, ...`, n times.
    static func placeholders(_ n: Int) -> String {
        Array(repeating: "?", count: n).joined(separator: ", ")
    }

    /// The table of an entity a request names: the coordinator's model made the store's
    /// schema, so a missing one means the store lacks it.
    func tableMapping(of entity: EntityDescription) throws -> RelationalSchema.EntityMapping {
        guard let mapping = schema.entities[entity.name] else {
            throw CoreDataError(
                .persistentStoreIncompatibleSchema, "The store at \(storeName) has no table for \(entity.name)")
        }
        return mapping
    }

    /// The object a `(Z_PK, Z_ENT)` row names, when its entity is `kind` or one of its sub-entities.
    func objectID(_ row: [DatabaseValue], kindOf kind: String) -> ManagedObjectID? {
        guard row.count >= 2, let key = Int64.fromDatabaseValue(row[0]), let number = Int.fromDatabaseValue(row[1]),
            let entity = model.entitiesByNumber[number], model.isEntity(entity.name, kindOf: kind)
        else { return nil }
        return ManagedObjectID(entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: key)
    }

    // MARK: Insert

    /// The stored object holding a uniqueness constraint's values, for
    /// ``BatchInsertConstraints/resolve(_:entity:model:policy:lookup:)``.
    func constraintLookup(entity: EntityDescription, statements: SQLStoreStatements) throws
        -> BatchInsertConstraints.Lookup
    {
        let mapping = try tableMapping(of: entity)
        let constraints = BatchInsertValues.constraints(of: entity, model: model)
        return { c, values in
            let indexes = constraints[c]
            let conditions = indexes.map { "\(mapping.attributeColumns[entity.propertyNames[$0]] ?? "NULL") = ?" }
            let sql =
                "SELECT Z_PK, Z_ENT FROM \(mapping.tableName) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1"
            let arguments = zip(indexes, values).map {
                RelationalValues.databaseValue($1, type: entity.attributes[$0].attributeType)
            }
            guard let row = try statements.fetch(sql, arguments).first, let key = Int64.fromDatabaseValue(row[0]) else {
                return nil
            }
            let number = Int.fromDatabaseValue(row[1]) ?? entity.entityNumber
            return ManagedObjectID(
                entityName: model.entitiesByNumber[number]?.name ?? entity.name, storeIdentifier: storeIdentifier,
                primaryKey: key)
        }
    }

    /// The UPDATE that gives a stored object the values a batch insert's dictionary brings
    /// (an upsert under a merge policy), raising its version; and the names it sets.
    func upsert(_ id: ManagedObjectID, _ row: BatchInsertRow, entity: EntityDescription) throws -> (
        sql: String, arguments: [DatabaseValue], properties: [String]
    ) {
        let mapping = try tableMapping(of: entity)
        let columns = row.givenAttributes.compactMap { i in
            mapping.attributeColumns[entity.propertyNames[i]].map { (i, $0) }
        }
        let sets = (["Z_OPT = Z_OPT + 1"] + columns.map { "\($0.1) = ?" }).joined(separator: ", ")
        let values = columns.map {
            RelationalValues.databaseValue(row.values[$0.0], type: entity.attributes[$0.0].attributeType)
        }
        return (
            "UPDATE \(mapping.tableName) SET \(sets) WHERE Z_PK = ?", values + [id.primaryKey.databaseValue],
            columns.map { entity.propertyNames[$0.0] }
        )
    }

    // MARK: Update

    /// The `UPDATE ... SET ... WHERE` of a batch update: `Z_OPT` raised, each assignment a
    /// bound constant or an expression of the row's own columns, the rows chosen by the
    /// fetch's condition (by key when the predicate joins other tables); `RETURNING Z_PK,
    /// Z_ENT` when the keys are wanted.
    func updateStatement(
        _ request: BatchUpdateRequest, changes: BatchUpdateChanges, returningKeys: Bool,
        parts: (AnyFetchRequest, EntityDescription) throws -> SQLFetchQuery.Parts
    ) throws -> (entity: EntityDescription, statement: SQLFragment) {
        let entity = try model.entity(named: request.entityName)
        let parts = try parts(request.fetchRequest(), entity)
        let mapping = try tableMapping(of: entity)
        var sets: [SQLFragment] = ["Z_OPT = Z_OPT + 1"]
        for (i, attribute, value) in changes.assignments {
            guard let column = mapping.attributeColumns[attribute.name] else { continue }
            switch value {
            case .constant(let v):
                if let reason = RelationalValues.unstorableReason(v, type: attribute.attributeType) {
                    throw CoreDataError(
                        .validation,
                        "The batch update of \(entity.name) cannot store \"\(attribute.name)\" exactly in SQLite: \(reason)",
                        key: attribute.name)
                }
                // Bound as it is, as the save binds it: not through `bind:`, whose CAST is for
                // predicate constants.
                var set: SQLFragment = "\(raw: column) = "
                set.append(binding: RelationalValues.databaseValue(v, type: attribute.attributeType))
                sets.append(set)
            case .expression(let e):
                let value = try updateValue(e, entity: entity, index: i)
                sets.append("\(raw: column) = \(value)")
            }
        }
        // A predicate across relationships joins other tables: the rows are then chosen by key.
        let condition: SQLFragment =
            parts.translator.joins.isEmpty
            ? parts.whereClause
            : " WHERE t0.Z_PK IN (SELECT t0.Z_PK FROM \(raw: parts.from)\(parts.whereClause))"
        var statement: SQLFragment =
            "UPDATE \(raw: mapping.tableName) AS t0 SET \(SQLFragment.joined(sets, separator: ", "))\(condition)"
        if returningKeys { statement.append(sql: " RETURNING Z_PK, Z_ENT") }
        return (entity, statement)
    }

    /// The SQL of an expression a batch update assigns: constants (functions of constants
    /// evaluated once), the row's own attributes, and arithmetic of those.
    private func updateValue(_ e: Expression, entity: EntityDescription, index: Int) throws -> SQLFragment {
        if SQLFetchTranslator.isConstant(e) {
            let value = try e.expressionValue(with: nil)
            let attribute = entity.attributes[index]
            return
                "\(bind: RelationalValues.databaseValue(try BatchUpdateChanges.convert(value, attribute, entity), type: attribute.attributeType))"
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
        throw CoreDataError(
            exception: .invalidArgument,
            "The batch update of \(entity.name) cannot compute \(e.description) in SQL: use a constant, an attribute of \(entity.name), or arithmetic of those"
        )
    }

    /// The IDs of the rows a batch update's `RETURNING Z_PK, Z_ENT` gave.
    func returnedIDs(_ rows: [[DatabaseValue]], entity: EntityDescription) -> [ManagedObjectID] {
        rows.compactMap { row in
            guard row.count >= 2, let key = Int64.fromDatabaseValue(row[0]) else { return nil }
            let number = Int.fromDatabaseValue(row[1]) ?? entity.entityNumber
            return ManagedObjectID(
                entityName: model.entitiesByNumber[number]?.name ?? entity.name, storeIdentifier: storeIdentifier,
                primaryKey: key)
        }
    }

    // MARK: Delete

    /// The entity a batch delete's targets are of (the fetch request's, or the first ID's).
    func entity(of targets: BatchDeleteTargets) throws -> EntityDescription {
        switch targets {
        case .fetchRequest(let request): return try model.entity(named: request.entityName)
        case .objectIDs(let ids): return try model.entity(named: ids.first?.entityName ?? "")
        }
    }

    /// Whether a batch delete is one DELETE: nothing for delete rules to do (no relationships
    /// in the hierarchy), no keys wanted back (by the caller or by persistent history), no window.
    func deletesInOneStatement(_ targets: BatchDeleteTargets, entity: EntityDescription, wantsKeys: Bool)
        -> AnyFetchRequest?
    {
        guard case .fetchRequest(let request) = targets, !wantsKeys, request.fetchLimit == 0, request.fetchOffset == 0,
            model.entityAndSubentities(of: entity.name).allSatisfy({ $0.relationships.isEmpty })
        else { return nil }
        return request
    }

    /// The one DELETE of ``deletesInOneStatement(_:entity:wantsKeys:)``.
    func deleteStatement(entity: EntityDescription, parts: SQLFetchQuery.Parts) throws -> SQLFragment {
        let mapping = try tableMapping(of: entity)
        return parts.translator.joins.isEmpty
            ? "DELETE FROM \(raw: mapping.tableName) AS t0\(parts.whereClause)"
            : "DELETE FROM \(raw: mapping.tableName) WHERE Z_PK IN (SELECT t0.Z_PK FROM \(raw: parts.from)\(parts.whereClause))"
    }

    /// The IDs a batch delete starts from: the fetch request's rows (its parts built by the
    /// store, sorted and windowed), or the given IDs that are still in the store.
    func targetIDs(
        _ targets: BatchDeleteTargets, entity: EntityDescription,
        parts: (AnyFetchRequest) throws -> SQLFetchQuery.Parts,
        statements: SQLStoreStatements
    ) throws -> [ManagedObjectID] {
        switch targets {
        case .fetchRequest(let request):
            let parts = try parts(request)
            var statement: SQLFragment = "SELECT t0.Z_PK, t0.Z_ENT FROM \(raw: parts.from)\(parts.whereClause)"
            if !parts.order.isEmpty { statement.append(sql: " ORDER BY " + parts.order.joined(separator: ", ")) }
            statement.append(parts.window)
            return try statements.fetch(statement).compactMap { objectID($0, kindOf: entity.name) }
        case .objectIDs(let wanted):
            let table = try tableMapping(of: entity).tableName
            var result: [ManagedObjectID] = []
            for chunk in Self.chunks(wanted.map(\.primaryKey)) {
                result += try statements.fetch(
                    "SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_PK IN (\(Self.placeholders(chunk.count)))",
                    chunk.map(\.databaseValue)
                )
                .compactMap { objectID($0, kindOf: entity.name) }
            }
            return result
        }
    }

    /// The objects a relationship of `sources` reaches, read in the transaction.
    func related(_ sources: [ManagedObjectID], relationship r: RelationshipDescription, statements: SQLStoreStatements)
        throws -> [ManagedObjectID]
    {
        guard let sourceMapping = schema.entities[sources.first?.entityName ?? ""],
            let destination = schema.entities[r.destinationEntityName]
        else { return [] }
        let sql: String
        if let (join, columns) = SQLRelatedQuery(model: model, schema: schema).joinColumns(
            of: r, entity: sourceMapping.entityName)
        {
            sql =
                "SELECT d.Z_PK, d.Z_ENT FROM \(join.name) j JOIN \(destination.tableName) d ON d.Z_PK = j.\(columns.theirs) WHERE j.\(columns.mine) IN "
        } else if r.isToMany {
            let owner = model.inverseEntityName(of: r).flatMap { schema.entities[$0] }
            guard let name = r.inverseName, let column = destination.toOneColumns[name] ?? owner?.toOneColumns[name]
            else {
                throw CoreDataError(
                    .persistentStoreIncompatibleSchema,
                    "The to-many relationship \(sourceMapping.entityName).\(r.name) has no to-one inverse column in \(destination.tableName): a batch delete cannot follow it"
                )
            }
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(destination.tableName) d WHERE d.\(column) IN "
        } else {
            guard let column = sourceMapping.toOneColumns[r.name] else { return [] }
            let entityColumn =
                sourceMapping.toOneEntityColumns[r.name].map { "s.\($0)" } ?? "\(destination.entityNumber)"
            sql =
                "SELECT s.\(column), \(entityColumn) FROM \(sourceMapping.tableName) s WHERE s.\(column) IS NOT NULL AND s.Z_PK IN "
        }
        var result: [ManagedObjectID] = []
        for chunk in Self.chunks(sources.map(\.primaryKey)) {
            result += try statements.fetch(sql + "(\(Self.placeholders(chunk.count)))", chunk.map(\.databaseValue))
                .compactMap { objectID($0, kindOf: r.destinationEntityName) }
        }
        return result
    }

    /// Writes a delete plan: rows by key, their many-to-many links, and the related rows' to-one
    /// keys that Nullify clears (with their entity and order columns), each such row's version raised.
    func apply(_ plan: BatchDeletePlan, statements: SQLStoreStatements) throws {
        for (entityName, ids) in Dictionary(grouping: plan.deleted, by: \.entityName).sorted(by: { $0.key < $1.key }) {
            guard let mapping = schema.entities[entityName], let entity = model.entitiesByName[entityName] else {
                continue
            }
            let keys = ids.map(\.primaryKey)
            for chunk in Self.chunks(keys) {
                try statements.execute(
                    "DELETE FROM \(mapping.tableName) WHERE Z_PK IN (\(Self.placeholders(chunk.count)))",
                    chunk.map(\.databaseValue))
            }
            for r in entity.relationships where r.isToMany {
                guard
                    let (join, columns) = SQLRelatedQuery(model: model, schema: schema).joinColumns(
                        of: r, entity: entity.name)
                else { continue }
                for chunk in Self.chunks(keys) {
                    try statements.execute(
                        "DELETE FROM \(join.name) WHERE \(columns.mine) IN (\(Self.placeholders(chunk.count)))",
                        chunk.map(\.databaseValue))
                }
            }
        }
        let groups = Dictionary(grouping: plan.nullified, by: { "\($0.id.entityName).\($0.relationship.name)" })
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) {
            let r = group[0].relationship
            guard let mapping = schema.entities[group[0].id.entityName], let column = mapping.toOneColumns[r.name]
            else { continue }
            let cleared = [column, mapping.toOneEntityColumns[r.name], mapping.toOneOrderColumns[r.name]].compactMap {
                $0
            }
            let sets = (["Z_OPT = Z_OPT + 1"] + cleared.map { "\($0) = NULL" }).joined(separator: ", ")
            for chunk in Self.chunks(group.map(\.id.primaryKey)) {
                try statements.execute(
                    "UPDATE \(mapping.tableName) SET \(sets) WHERE Z_PK IN (\(Self.placeholders(chunk.count)))",
                    chunk.map(\.databaseValue))
            }
        }
    }

    /// The values of a row's preserved attributes (preservesValueInHistoryOnDeletion), in
    /// tombstone order, read before the row is deleted; nil when the row is gone.
    func tombstoneValues(of id: ManagedObjectID, statements: SQLStoreStatements) throws -> [DatabaseValue]? {
        guard let entity = model.entitiesByName[id.entityName], let mapping = schema.entities[id.entityName] else {
            return []
        }
        let columns = RelationalHistorySchema.preservedAttributes(of: entity).map {
            mapping.attributeColumns[$0.attribute.name] ?? "NULL"
        }
        let rows = try statements.fetch(
            "SELECT Z_PK\(columns.map { ", " + $0 }.joined()) FROM \(mapping.tableName) WHERE Z_PK = ?",
            [id.primaryKey.databaseValue])
        guard let row = rows.first else { return nil }
        return Array(row.dropFirst())
    }
}
