import Foundation
import GRDB

extension SQLiteStore {
    /// Dictionary results in SQL: each property a column (`t0.ZTITLE`), each expression
    /// description an aggregate (`MAX(t0.ZSALESRANK)`), GROUP BY for the grouping properties,
    /// DISTINCT for distinct results. A `havingPredicate` then filters the groups, which are
    /// results, not table rows.
    func fetchDictionaries(_ request: FetchRequest, model: ManagedObjectModel) throws -> [[String: Any]] {
        let entity = try model.entity(named: request.entityName)
        try DictionaryResults.validate(request, entity: entity)
        let mapping = schema.entities[entity.name]!
        let properties = request.propertiesToFetch ?? entity.attributes.filter { !$0.isTransient }.map { .named($0.name) }
        let groupBy = request.propertiesToGroupBy ?? []

        /// How each selected column decodes.
        enum Decode { case attribute(AttributeType), toOne(String), computed(AttributeType) }
        var columns: [(sql: String, key: String, decode: Decode)] = []
        func column(forKey key: String) throws -> (String, Decode) {
            guard !key.contains(".") else {
                throw CoreDataError(.unsupportedOperation, "keypath \(key) in propertiesToFetch: dictionary results take the entity's own attributes and to-one relationships")
            }
            if let a = entity.attribute(named: key) {
                guard let c = mapping.attributeColumns[key], !a.isTransient else {
                    throw CoreDataError(.unsupportedOperation, "keypath \(key) not found in entity \(entity.name)")
                }
                return ("t0.\(c)", .attribute(a.attributeType))
            }
            if let r = entity.relationship(named: key), !r.isToMany, let c = mapping.toOneColumns[key] {
                return ("t0.\(c)", .toOne(r.destinationEntityName))
            }
            throw CoreDataError(.unsupportedOperation, "keypath \(key) not found in entity \(entity.name)")
        }
        for property in properties {
            switch property {
            case .named(let key):
                let (sql, decode) = try column(forKey: key)
                columns.append((sql, key, decode))
            case .expression(let description):
                let aggregate = try DictionaryResults.aggregate(of: description)
                let argument: String
                if let path = aggregate.keyPath { argument = try column(forKey: path).0 } else { argument = "t0.Z_PK" }
                let function = ["count:": "COUNT", "sum:": "SUM", "min:": "MIN", "max:": "MAX", "average:": "AVG"][aggregate.function]!
                columns.append(("\(function)(\(argument))", description.name, .computed(description.expressionResultType)))
            }
        }
        let groupColumns = try groupBy.map { property -> String in
            guard case .named(let key) = property else {
                throw CoreDataError(.unsupportedOperation, "propertiesToGroupBy takes property names, not expressions")
            }
            return try column(forKey: key).0
        }
        var (from, whereClause) = try filter(request, entity: entity)
        var translator = SQLFetchTranslator(model: model, schema: schema, entity: entity)
        let order = try translator.orderingTerms(for: request.sortDescriptors)
        from += translator.joins.filter { !from.contains($0) }.map { " " + $0 }.joined()
        var sql = "SELECT \(request.returnsDistinctResults ? "DISTINCT " : "")\(columns.map(\.sql).joined(separator: ", ")) FROM \(from)\(whereClause.sql)"
        if !groupColumns.isEmpty { sql += " GROUP BY " + groupColumns.joined(separator: ", ") }
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        let windowInSQL = request.havingPredicate == nil
        if windowInSQL && (request.fetchLimit > 0 || request.fetchOffset > 0) {
            sql += " LIMIT ? OFFSET ?"
            whereClause.arguments += [(request.fetchLimit > 0 ? request.fetchLimit : -1).databaseValue, request.fetchOffset.databaseValue]
        }
        let arguments = StatementArguments(whereClause.arguments)
        var results = try log.measure(sql: sql, arguments: whereClause.arguments) {
            try database.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row -> [String: Any] in
                    var result: [String: Any] = [:]
                    for (i, column) in columns.enumerated() {
                        let dbValue: DatabaseValue = row[i]
                        let value: Any?
                        switch column.decode {
                        case .attribute(let type): value = SQLiteValues.value(dbValue, type: type)
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
        } rowCount: { $0.count }
        if let having = request.havingPredicate {
            results = try results.filter { try having.evaluate(with: $0) }
            if request.fetchOffset > 0 { results = Array(results.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { results = Array(results.prefix(request.fetchLimit)) }
        }
        return results
    }
}
