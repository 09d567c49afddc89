import Foundation
import GRDB
import GRDBSQLite

/// Reading rows: decoding a row of a table's ``RelationalRowPlan`` straight from SQLite's
/// statement, and the fetches a context asks for.
extension SQLiteStore {
    func plan(forTable tableName: String) -> RelationalRowPlan { plans[tableName]! }

    /// The row the statement is on, decoded by the plan. Each value slot is initialized once,
    /// straight from the statement: this runs for every fetched row.
    ///
    /// Throws a 134180 error naming the table and Z_PK for a row whose Z_ENT no entity of the
    /// table has (a row written by another model, or damaged), and one naming the entity, key
    /// and Z_PK for a value its attribute's type cannot take (``RelationalValues``): a fetch fails
    /// rather than skip a row or return wrong data.
    private func decodeCurrentRow(_ statement: OpaquePointer, plan: RelationalRowPlan) throws -> StoreRow {
        let entityNumber = Int(sqlite3_column_int64(statement, 1))
        guard entityNumber >= 0, entityNumber < plan.decoders.count, let decoder = plan.decoders[entityNumber] else {
            throw unknownEntityError(statement, plan: plan)
        }
        let slots = decoder.slots
        let values = try [AttributeValue](unsafeUninitializedCapacity: slots.count) { buffer, initialized in
            let base = buffer.baseAddress!
            // Attributes: each value initialized in place, straight from its column.
            let attributeCount = try decoder.attributeColumns.withUnsafeBufferPointer { columns in
                for i in 0..<columns.count {
                    let column = columns[i]
                    do {
                        if column.position >= 0 {
                            (base + i).initialize(
                                to: try SQLiteColumns.value(statement, column.position, type: column.type))
                        } else {
                            (base + i).initialize(
                                to: column.position == -1
                                    ? .null
                                    : AttributeValue(
                                        try transformedValue(
                                            statement, -2 - column.position, decoder: decoder, index: i)))
                        }
                    } catch let mismatch as StoredValueMismatch {
                        initialized = i
                        throw mismatchError(mismatch, statement, decoder: decoder, index: i, type: column.type)
                    } catch {
                        initialized = i
                        throw error
                    }
                }
                return columns.count
            }
            for i in attributeCount..<slots.count {
                let slot = slots[i]
                var value: AttributeValue = .null
                if let slot {
                    switch slot.kind {
                    case .attribute(let type):
                        do {
                            value = try SQLiteColumns.value(statement, slot.position, type: type)
                        } catch let mismatch as StoredValueMismatch {
                            initialized = i
                            throw mismatchError(mismatch, statement, decoder: decoder, index: i, type: type)
                        }
                    case .toOne(let destination, let entityColumn):
                        if let key = SQLiteColumns.int64(statement, slot.position) {
                            var destinationName = destination
                            if let entityColumn, let number = SQLiteColumns.int64(statement, Int32(entityColumn)),
                                let actual = model.entitiesByNumber[Int(number)]
                            {
                                destinationName = actual.name
                            }
                            value = .objectID(
                                ManagedObjectID(
                                    entityName: destinationName, storeIdentifier: identifier, primaryKey: key))
                        }
                    }
                }
                (base + i).initialize(to: value)
            }
            initialized = slots.count
        }
        return StoreRow(
            entityName: decoder.entityName, primaryKey: sqlite3_column_int64(statement, 0),
            version: SQLiteColumns.int64(statement, 2) ?? 0, values: values)
    }

    /// The value of a transformable attribute: its column's data through the attribute's value
    /// transformer. Data that does not transform is an error naming the entity, key, row and
    /// transformer, never nil: a later save would write nil over the data.
    private func transformedValue(
        _ statement: OpaquePointer, _ position: Int32, decoder: RelationalRowPlan.EntityDecoder, index: Int
    ) throws -> Any? {
        guard let attribute = decoder.transformables[index] else { return nil }
        let type = sqlite3_column_type(statement, position)
        if type == SQLITE_NULL { return nil }
        guard type == SQLITE_BLOB || type == SQLITE_TEXT else {
            throw StoredValueMismatch(
                type == SQLITE_INTEGER
                    ? "the INTEGER \(sqlite3_column_int64(statement, position))"
                    : "the REAL \(sqlite3_column_double(statement, position))")
        }
        let length = Int(sqlite3_column_bytes(statement, position))
        let data = sqlite3_column_blob(statement, position).map { Data(bytes: $0, count: length) } ?? Data()
        do {
            return try TransformableValues.value(from: data, attribute: attribute)
        } catch {
            let pk = sqlite3_column_int64(statement, 0)
            let id = ManagedObjectID(entityName: decoder.entityName, storeIdentifier: identifier, primaryKey: pk)
            throw CoreDataError(
                .sqlite,
                "\(decoder.entityName).\(attribute.name) of the row Z_PK = \(pk) (\(id.uriString)) in the store at \(url.path) is a transformable attribute (value transformer \(attribute.valueTransformerName ?? "NSSecureUnarchiveFromData")) whose data could not be read: \(error.reason)",
                objectURI: id.uriString, key: attribute.name)
        }
    }

    /// The error for a row whose Z_ENT is no entity of its table.
    private func unknownEntityError(_ statement: OpaquePointer, plan: RelationalRowPlan) -> CoreDataError {
        let key = sqlite3_column_int64(statement, 0)
        let found = SQLiteColumns.int64(statement, 1).map { "\($0)" } ?? "NULL"
        let known = plan.decoders.compactMap { $0 }.compactMap { d in
            model.entitiesByName[d.entityName].map { "\($0.name) = \($0.entityNumber)" }
        }
        return CoreDataError(
            .sqlite,
            "The row Z_PK = \(key) of table \(plan.table.name) in the store at \(url.path) has Z_ENT = \(found), which is no entity of the model stored in that table (\(known.joined(separator: ", "))): the row was written with another model or is damaged"
        )
    }

    /// The error for a stored value its attribute cannot take.
    private func mismatchError(
        _ mismatch: StoredValueMismatch, _ statement: OpaquePointer, decoder: RelationalRowPlan.EntityDecoder,
        index: Int,
        type: AttributeType
    ) -> CoreDataError {
        let key = model.entitiesByName[decoder.entityName]?.propertyNames[index] ?? "#\(index)"
        let pk = sqlite3_column_int64(statement, 0)
        let id = ManagedObjectID(entityName: decoder.entityName, storeIdentifier: identifier, primaryKey: pk)
        return CoreDataError(
            .sqlite,
            "\(decoder.entityName).\(key) of the row Z_PK = \(pk) (\(id.uriString)) in the store at \(url.path) holds \(mismatch.found), which a \(type.xcodeName) attribute cannot take; the row was written by another program: fix the row, or change the attribute's type with a migration",
            objectURI: id.uriString, key: key, sqliteCode: 20)
    }

    /// Runs a SELECT of a plan's columns and decodes every row.
    func readRows(_ sql: String, _ values: [DatabaseValue], plan: RelationalRowPlan) throws -> [StoreRow] {
        try log.measure(sql: sql, arguments: values) {
            try read { db in
                let statement = try db.cachedStatement(sql: sql)
                let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(values))
                let handle = statement.sqliteStatement
                var rows: [StoreRow] = []
                while try cursor.next() != nil {
                    rows.append(try decodeCurrentRow(handle, plan: plan))
                }
                return rows
            }
        } rowCount: {
            $0.count
        }
    }

    /// The fetch SQL of this store (shared with the PostgreSQL store).
    var fetchQuery: SQLFetchQuery {
        SQLFetchQuery(model: model, schema: schema, storeIdentifier: identifier, dialect: .sqlite)
    }

    /// FROM, WHERE (the entity filter, then the predicate), ORDER BY and the window of a request.
    func queryParts(
        _ request: AnyFetchRequest, entity: EntityDescription, sorted: Bool = true,
        extraColumns: (inout SQLFetchTranslator) throws -> Void = { _ in }
    ) throws -> SQLFetchQuery.Parts {
        try fetchQuery.parts(request, entity: entity, sorted: sorted, extraColumns: extraColumns)
    }

    /// The SELECT statement of a fetch, with `columns` as its select list.
    private func selectStatement(_ request: AnyFetchRequest, columns: (RelationalRowPlan) -> String) throws -> (
        plan: RelationalRowPlan, fragment: SQLFragment
    ) {
        let entity = try model.entity(named: request.entityName)
        let plan = plan(forTable: schema.entities[entity.name]!.tableName)
        return (plan, try fetchQuery.select(request, entity: entity, columns: columns(plan)))
    }

    func fetchRows(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [StoreRow] {
        let (plan, statement) = try selectStatement(request) { $0.selectList }
        return try CoreDataError.mappingSQLite("Fetching \(request.entityName) objects from the store at", url) {
            try readRows(statement.sql, statement.arguments, plan: plan)
        }
    }

    func fetchIDs(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        let (_, statement) = try selectStatement(request) { _ in "t0.Z_PK, t0.Z_ENT" }
        let arguments = StatementArguments(statement.arguments)
        return try CoreDataError.mappingSQLite("Fetching \(request.entityName) object IDs from the store at", url) {
            try log.measure(sql: statement.sql, arguments: statement.arguments) {
                try read { db in
                    try Row.fetchAll(db.cachedStatement(sql: statement.sql), arguments: arguments).map {
                        row -> ManagedObjectID in
                        let number: Int = row[1]
                        guard let entity = model.entitiesByNumber[number] else {
                            let key: Int64 = row[0]
                            throw CoreDataError(
                                .sqlite,
                                "The row Z_PK = \(key) of table \(self.schema.entities[request.entityName]?.tableName ?? request.entityName) in the store at \(self.url.path) has Z_ENT = \(number), which is no entity of the model: the row was written with another model or is damaged"
                            )
                        }
                        return ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: row[0])
                    }
                }
            } rowCount: {
                $0.count
            }
        }
    }

    func count(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> Int {
        let entity = try model.entity(named: request.entityName)
        let statement = try fetchQuery.count(request, entity: entity)
        let (sql, values) = (statement.sql, statement.arguments)
        return try CoreDataError.mappingSQLite("Counting \(request.entityName) objects in the store at", url) {
            try log.measure(sql: sql, arguments: values) {
                try read { db in
                    try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values)) ?? 0
                }
            } rowCount: { _ in
                1
            }
        }
    }

    func row(for id: ManagedObjectID, model: ManagedObjectModel) throws -> StoreRow? {
        guard let mapping = schema.entities[id.entityName] else { return nil }
        let plan = plan(forTable: mapping.tableName)
        let sql = "SELECT \(plan.selectList) FROM \(mapping.tableName) t0 WHERE t0.Z_PK = ? AND t0.Z_ENT = ?"
        let values: [DatabaseValue] = [id.primaryKey.databaseValue, mapping.entityNumber.databaseValue]
        return try CoreDataError.mappingSQLite("Reading \(id.uriString) from the store at", url) {
            try readRows(sql, values, plan: plan).first
        }
    }

    func rows(for ids: [ManagedObjectID], model: ManagedObjectModel) throws -> [StoreRow] {
        var result: [StoreRow] = []
        // One query per table, in chunks that stay under SQLite's variable limit.
        for (table, group) in Dictionary(grouping: ids, by: { schema.entities[$0.entityName]?.tableName ?? "" })
        where !table.isEmpty {
            let plan = plan(forTable: table)
            for chunk in stride(from: 0, to: group.count, by: 500).map({ Array(group[$0..<min($0 + 500, group.count)]) }
            ) {
                let sql =
                    "SELECT \(plan.selectList) FROM \(table) t0 WHERE t0.Z_PK IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))"
                let values = chunk.map { $0.primaryKey.databaseValue }
                let wanted = Set(chunk)
                result += try CoreDataError.mappingSQLite(
                    "Reading \(chunk.count) objects of \(table) from the store at", url
                ) { try readRows(sql, values, plan: plan) }.filter {
                    wanted.contains(
                        ManagedObjectID(
                            entityName: $0.entityName, storeIdentifier: identifier, primaryKey: $0.primaryKey))
                }
            }
        }
        return result
    }
}
