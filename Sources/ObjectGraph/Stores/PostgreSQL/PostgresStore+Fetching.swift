import Foundation
import GRDB

/// Fetching from the PostgreSQL store: the relational layer's SQL (``SQLFetchQuery``,
/// ``SQLRelatedQuery``) in the translator's PostgreSQL dialect, and rows decoded with its row
/// plans (``RelationalRowPlan``) and value checks (``RelationalValues``).
extension PostgresStore: PersistentStoreBackend {
    /// The fetch SQL of this store, in PostgreSQL's dialect.
    var fetchQuery: SQLFetchQuery {
        SQLFetchQuery(model: model, schema: schema, storeIdentifier: identifier, dialect: .postgres)
    }

    /// How the rows of a table are selected and decoded, as the SQLite store reads them.
    func plan(forTable table: String) -> RelationalRowPlan {
        RelationalRowPlan(table: table, schema: schema, model: model)
    }

    /// The store, as messages name it (without its password).
    var place: String { PostgresNames.redacted(url) }

    func fetchRows(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [StoreRow] {
        let entity = try model.entity(named: request.entityName)
        let plan = try plan(for: entity)
        let statement = try fetchQuery.select(request, entity: entity, columns: plan.selectList)
        return try readRows("Fetching \(request.entityName) objects from the store at", statement, plan: plan)
    }

    func fetchIDs(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        let entity = try model.entity(named: request.entityName)
        let table = try plan(for: entity).table.name
        let statement = try fetchQuery.select(request, entity: entity, columns: "t0.Z_PK, t0.Z_ENT")
        let result = try withStatements("Fetching \(request.entityName) object IDs from the store at") {
            try $0.query(statement)
        }
        return try (0..<result.rowCount).map { i in
            let key = Int64.fromDatabaseValue(result[i, 0]) ?? 0
            guard let number = Int64.fromDatabaseValue(result[i, 1]), let entity = model.entitiesByNumber[Int(number)]
            else {
                throw CoreDataError(
                    .sqlite,
                    "The row Z_PK = \(key) of table \(table) in the store at \(place) has Z_ENT = \(result[i, 1]), which is no entity of the model: the row was written with another model or is damaged"
                )
            }
            return ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: key)
        }
    }

    func fetchDictionaries(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [[String: Any]] {
        let entity = try model.entity(named: request.entityName)
        let query = fetchQuery
        let (statement, columns) = try query.dictionaries(request, entity: entity)
        let result = try withStatements("Fetching \(request.entityName) dictionaries from the store at") {
            try $0.query(statement)
        }
        let results = try (0..<result.rowCount).map { i in
            try query.dictionary({ result[i, $0] }, columns: columns, entity: entity, place: place)
        }
        return try SQLFetchQuery.applyingHaving(results, request)
    }

    func count(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> Int {
        let entity = try model.entity(named: request.entityName)
        let statement = try fetchQuery.count(request, entity: entity)
        let result = try withStatements("Counting \(request.entityName) objects in the store at") {
            try $0.query(statement)
        }
        guard result.rowCount == 1 else { return 0 }
        return Int.fromDatabaseValue(result[0, 0]) ?? 0
    }

    func row(for id: ManagedObjectID, model: ManagedObjectModel) throws -> StoreRow? {
        guard let mapping = schema.entities[id.entityName] else { return nil }
        let plan = plan(forTable: mapping.tableName)
        let statement: SQLFragment = """
            SELECT \(raw: plan.selectList) FROM \(raw: mapping.tableName) t0 \
            WHERE t0.Z_PK = \(bind: id.primaryKey.databaseValue) AND t0.Z_ENT = \(bind: mapping.entityNumber.databaseValue)
            """
        return try readRows("Reading \(id.uriString) from the store at", statement, plan: plan).first
    }

    func rows(for ids: [ManagedObjectID], model: ManagedObjectModel) throws -> [StoreRow] {
        var result: [StoreRow] = []
        // One query per table, in chunks of a bounded number of parameters.
        for (table, group) in Dictionary(grouping: ids, by: { schema.entities[$0.entityName]?.tableName ?? "" })
        where !table.isEmpty {
            let plan = plan(forTable: table)
            for chunk in stride(from: 0, to: group.count, by: 500).map({ Array(group[$0..<min($0 + 500, group.count)]) }
            ) {
                let keys = SQLFragment.joined(chunk.map { "\(bind: $0.primaryKey.databaseValue)" }, separator: ", ")
                let statement: SQLFragment =
                    "SELECT \(raw: plan.selectList) FROM \(raw: table) t0 WHERE t0.Z_PK IN (\(keys))"
                let wanted = Set(chunk)
                result += try readRows(
                    "Reading \(chunk.count) objects of \(table) from the store at", statement, plan: plan
                ).filter {
                    wanted.contains(
                        ManagedObjectID(
                            entityName: $0.entityName, storeIdentifier: identifier, primaryKey: $0.primaryKey))
                }
            }
        }
        return result
    }

    func relatedIDs(of ids: [ManagedObjectID], relationship r: RelationshipDescription, model: ManagedObjectModel)
        throws -> [ManagedObjectID: Set<ManagedObjectID>]
    {
        try SQLRelatedQuery(model: model, schema: schema).relatedIDs(of: ids, relationship: r, read: related)
    }

    func relatedIDs(of id: ManagedObjectID, relationship r: RelationshipDescription, model: ManagedObjectModel) throws
        -> Set<ManagedObjectID>
    {
        Set(try orderedRelatedIDs(of: id, relationship: r, model: model))
    }

    /// The destinations in the relationship's order: its `Z_FOK_` column, then keys.
    func orderedRelatedIDs(of id: ManagedObjectID, relationship r: RelationshipDescription, model: ManagedObjectModel)
        throws -> [ManagedObjectID]
    {
        try SQLRelatedQuery(model: model, schema: schema).orderedRelatedIDs(of: id, relationship: r, read: related)
    }

    /// A key range is one SELECT.
    var readsKeyRanges: Bool { true }

    /// One batch of a streaming read (a migration's): the request's entity filter and
    /// predicate, then `Z_PK > ?` in key order, so each batch starts where the last ended.
    func fetchRows(_ request: AnyFetchRequest, afterPrimaryKey: Int64, limit: Int, model: ManagedObjectModel) throws
        -> [StoreRow]
    {
        let entity = try model.entity(named: request.entityName)
        let plan = try plan(for: entity)
        let unwindowed = request.copy()
        unwindowed.fetchLimit = 0
        unwindowed.fetchOffset = 0
        let parts = try fetchQuery.parts(unwindowed, entity: entity, sorted: false)
        let after: SQLFragment = "t0.Z_PK > \(bind: afterPrimaryKey.databaseValue)"
        let keyCondition: SQLFragment =
            parts.whereClause.isEmpty ? " WHERE \(after)" : "\(parts.whereClause) AND \(after)"
        let statement: SQLFragment = """
            SELECT \(raw: plan.selectList) FROM \(raw: parts.from)\(keyCondition) \
            ORDER BY t0.Z_PK LIMIT \(bind: limit.databaseValue)
            """
        return try readRows("Reading a batch of \(request.entityName) objects from the store at", statement, plan: plan)
    }

    // MARK: Reading rows

    private func plan(for entity: EntityDescription) throws -> RelationalRowPlan {
        guard let mapping = schema.entities[entity.name] else {
            throw CoreDataError(
                exception: .invalidArgument, "The entity \(entity.name) has no table in the store at \(place)")
        }
        return plan(forTable: mapping.tableName)
    }

    /// Runs a SELECT of a plan's columns and decodes every row.
    func readRows(_ operation: String, _ statement: SQLFragment, plan: RelationalRowPlan) throws -> [StoreRow] {
        let result = try withStatements(operation) { try $0.query(statement) }
        return try (0..<result.rowCount).map { try decodeRow(result, $0, plan: plan) }
    }

    /// Row `i` of a result, decoded by the plan with the SQLite store's checks: a Z_ENT no
    /// entity of the table has, or a value its attribute cannot take, is an error naming the
    /// table (or entity and key) and the row's Z_PK; a fetch never skips a row or returns
    /// wrong data.
    func decodeRow(_ result: PostgresWireResult, _ i: Int, plan: RelationalRowPlan) throws -> StoreRow {
        let key = Int64.fromDatabaseValue(result[i, 0]) ?? 0
        guard let number = Int64.fromDatabaseValue(result[i, 1]), number >= 0, number < plan.decoders.count,
            let decoder = plan.decoders[Int(number)]
        else {
            let known = plan.decoders.compactMap { $0 }.compactMap { d in
                model.entitiesByName[d.entityName].map { "\($0.name) = \($0.entityNumber)" }
            }
            throw CoreDataError(
                .sqlite,
                "The row Z_PK = \(key) of table \(plan.table.name) in the store at \(place) has Z_ENT = \(result[i, 1]), which is no entity of the model stored in that table (\(known.joined(separator: ", "))): the row was written with another model or is damaged"
            )
        }
        let id = ManagedObjectID(entityName: decoder.entityName, storeIdentifier: identifier, primaryKey: key)
        var values: [AttributeValue] = []
        values.reserveCapacity(decoder.slots.count)
        for (index, slot) in decoder.slots.enumerated() {
            guard let slot else {
                values.append(.null)
                continue
            }
            let value = result[i, Int(slot.position)]
            switch slot.kind {
            case .attribute(let type):
                if let attribute = decoder.transformables[index] {
                    values.append(AttributeValue(try transformedValue(value, attribute: attribute, id: id, key: key)))
                    continue
                }
                do {
                    values.append(AttributeValue(try RelationalValues.value(value, type: type)))
                } catch let mismatch as StoredValueMismatch {
                    let propertyName = model.entitiesByName[decoder.entityName]?.propertyNames[index] ?? "#\(index)"
                    throw CoreDataError(
                        .sqlite,
                        "\(decoder.entityName).\(propertyName) of the row Z_PK = \(key) (\(id.uriString)) in the store at \(place) holds \(mismatch.found), which a \(type.xcodeName) attribute cannot take; the row was written by another program: fix the row, or change the attribute's type with a migration",
                        objectURI: id.uriString, key: propertyName, sqliteCode: 20)
                }
            case .toOne(let destination, let entityColumn):
                guard let target = Int64.fromDatabaseValue(value) else {
                    values.append(.null)
                    continue
                }
                var destinationName = destination
                if let entityColumn, let number = Int64.fromDatabaseValue(result[i, entityColumn]),
                    let actual = model.entitiesByNumber[Int(number)]
                {
                    destinationName = actual.name
                }
                values.append(
                    .objectID(
                        ManagedObjectID(entityName: destinationName, storeIdentifier: identifier, primaryKey: target)))
            }
        }
        return StoreRow(
            entityName: decoder.entityName, primaryKey: key, version: Int64.fromDatabaseValue(result[i, 2]) ?? 0,
            values: values)
    }

    /// A transformable attribute's value: its data through the value transformer; data that
    /// does not transform is an error naming the entity, key and row, never nil.
    private func transformedValue(
        _ value: DatabaseValue, attribute: AttributeDescription, id: ManagedObjectID, key: Int64
    ) throws -> Any? {
        let data: Data
        switch value.storage {
        case .null: return nil
        case .blob(let bytes): data = bytes
        case .string(let text): data = Data(text.utf8)
        default:
            throw CoreDataError(
                .sqlite,
                "\(id.entityName).\(attribute.name) of the row Z_PK = \(key) (\(id.uriString)) in the store at \(place) holds \(value), not the data of a transformable attribute",
                objectURI: id.uriString, key: attribute.name, sqliteCode: 20)
        }
        do {
            return try TransformableValues.value(from: data, attribute: attribute)
        } catch {
            throw CoreDataError(
                .sqlite,
                "\(id.entityName).\(attribute.name) of the row Z_PK = \(key) (\(id.uriString)) in the store at \(place) is a transformable attribute (value transformer \(attribute.valueTransformerName ?? "NSSecureUnarchiveFromData")) whose data could not be read: \(error.reason)",
                objectURI: id.uriString, key: attribute.name)
        }
    }

    /// Runs a related-IDs query; returns (source key, destination ID) pairs in the query's order.
    private func related(_ sql: String, _ values: [DatabaseValue], destination: EntityDescription, what: String) throws
        -> [(Int64, ManagedObjectID)]
    {
        let result = try withStatements(what) { try $0.query(sql, values) }
        let query = SQLRelatedQuery(model: model, schema: schema)
        return (0..<result.rowCount).compactMap { i in
            query.destination(
                sourceKey: Int64.fromDatabaseValue(result[i, 0]), key: Int64.fromDatabaseValue(result[i, 1]),
                entityNumber: Int64.fromDatabaseValue(result[i, 2]), destination: destination,
                storeIdentifier: identifier)
        }
    }
}
