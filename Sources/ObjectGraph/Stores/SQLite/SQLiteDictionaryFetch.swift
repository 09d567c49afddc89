import Foundation
import GRDB

extension SQLiteStore {
    /// Dictionary results in SQL: each property a column (`t0.ZTITLE`), each expression
    /// description an aggregate (`MAX(t0.ZSALESRANK)`), GROUP BY for the grouping properties,
    /// DISTINCT for distinct results. A `havingPredicate` then filters the groups, which are
    /// results, not table rows.
    func fetchDictionaries(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [[String: Any]] {
        let entity = try model.entity(named: request.entityName)
        try DictionaryResults.validate(request, entity: entity)
        let mapping = schema.entities[entity.name]!
        let properties = request.propertiesToFetch ?? entity.attributes.filter { !$0.isTransient }.map { .named($0.name) }
        let groupBy = request.propertiesToGroupBy ?? []

        /// How each selected column decodes.
        enum Decode { case attribute(AttributeType), transformable(AttributeDescription), toOne(String), computed(AttributeType) }
        var columns: [(sql: SQLFragment, key: String, decode: Decode)] = []
        var groupColumns: [SQLFragment] = []
        /// A property's column: an attribute (across to-one relationships too) or a to-one's key.
        func column(forKey key: String, _ translator: inout SQLFetchTranslator) throws -> (SQLFragment, Decode) {
            if !key.contains("."), let r = entity.relationship(named: key), !r.isToMany, let c = mapping.toOneColumns[key] {
                return (SQLFragment(sql: "t0.\(c)"), .toOne(r.destinationEntityName))
            }
            if !key.contains("."), let a = entity.attribute(named: key), a.attributeType == .transformable, let c = mapping.attributeColumns[key] {
                return (SQLFragment(sql: "t0.\(c)"), .transformable(a))
            }
            let resolved = try translator.resolvedColumn(forKeyPath: key)
            return (resolved.fragment, .attribute(resolved.attributeType ?? .string))
        }
        let parts = try queryParts(request, entity: entity) { translator in
            for property in properties {
                switch property {
                case .named(let key):
                    let (sql, decode) = try column(forKey: key, &translator)
                    columns.append((sql, key, decode))
                case .expression(let description):
                    _ = try DictionaryResults.aggregate(of: description)
                    let aggregate = try translator.aggregate(for: description.expression)
                    columns.append((aggregate.fragment, description.name, .computed(description.expressionResultType)))
                }
            }
            for property in groupBy {
                guard case .named(let key) = property else {
                    throw CoreDataError(exception: .invalidArgument, "propertiesToGroupBy takes property names, not expressions")
                }
                groupColumns.append(try column(forKey: key, &translator).0)
            }
        }
        var sql = "SELECT \(request.returnsDistinctResults ? "DISTINCT " : "")\(columns.map(\.sql.sql).joined(separator: ", ")) FROM \(parts.from)\(parts.whereClause.sql)"
        var values = columns.flatMap(\.sql.arguments) + parts.whereClause.arguments
        if !groupColumns.isEmpty {
            sql += " GROUP BY " + groupColumns.map(\.sql).joined(separator: ", ")
            values += groupColumns.flatMap(\.arguments)
        }
        // Grouped or aggregated rows have no single key to break ties with.
        let aggregated = !groupColumns.isEmpty || request.returnsDistinctResults
            || columns.contains(where: { if case .computed = $0.decode { return true }; return false })
        let order = aggregated ? Array(parts.order.dropLast()) : parts.order
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        let windowInSQL = request.havingPredicate == nil
        if windowInSQL {
            sql += parts.window.sql
            values += parts.window.arguments
        }
        let arguments = StatementArguments(values)
        var results = try CoreDataError.mappingSQLite("Fetching \(request.entityName) dictionaries from the store at", url) { try log.measure(sql: sql, arguments: values) {
            try database.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row -> [String: Any] in
                    var result: [String: Any] = [:]
                    for (i, column) in columns.enumerated() {
                        let dbValue: DatabaseValue = row[i]
                        let value: Any?
                        switch column.decode {
                        case .attribute(let type):
                            do {
                                value = try SQLiteValues.value(dbValue, type: type)
                            } catch let mismatch as StoredValueMismatch {
                                throw CoreDataError(.sqlite, "\(entity.name).\(column.key) holds \(mismatch.found) in the store at \(url.path), which a \(type.xcodeName) attribute cannot take; fix the row or the model", key: column.key, sqliteCode: 20)
                            }
                        case .transformable(let attribute):
                            switch dbValue.storage {
                            case .null: value = nil
                            case .blob(let data):
                                do { value = try TransformableValues.value(from: data, attribute: attribute) } catch {
                                    throw CoreDataError(.sqlite, "\(entity.name).\(column.key) in the store at \(url.path) is a transformable attribute whose data could not be read: \(error)", key: column.key)
                                }
                            default:
                                throw CoreDataError(.sqlite, "\(entity.name).\(column.key) holds \(dbValue) in the store at \(url.path), not the data of a transformable attribute; fix the row or the model", key: column.key, sqliteCode: 20)
                            }
                        case .computed(let type):
                            value = DictionaryResults.convert(SQLiteValues.rawValue(dbValue), to: type)
                        case .toOne(let destination):
                            value = Int64.fromDatabaseValue(dbValue).map { ManagedObjectID(entityName: destination, storeIdentifier: identifier, primaryKey: $0) }
                        }
                        if let value { result[column.key] = value }
                    }
                    return result
                }
            }
        } rowCount: { $0.count } }
        if let having = request.havingPredicate {
            results = try results.filter { try having.evaluate(with: $0) }
            if request.fetchOffset > 0 { results = Array(results.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { results = Array(results.prefix(request.fetchLimit)) }
        }
        return results
    }
}
