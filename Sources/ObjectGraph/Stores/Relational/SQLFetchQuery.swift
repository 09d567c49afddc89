import Foundation
import GRDB

/// The SQL of a fetch request over Core Data's table layout (``RelationalSchema``), shared by
/// the SQLite and the PostgreSQL stores: FROM with the predicate's and the sorts' joins, WHERE
/// (the entity filter, then the predicate), ORDER BY, the window, and the SELECT of objects,
/// IDs, counts and dictionaries. The dialect changes only the spelling (``SQLDialect``).
struct SQLFetchQuery {
    let model: ManagedObjectModel
    let schema: RelationalSchema
    /// The store's UUID, for `self == %@` and the object IDs of dictionary results.
    let storeIdentifier: String
    let dialect: SQLDialect

    /// The parts of a fetch's SQL, built with one translator so the joins of the predicate and
    /// of the sorts share their aliases.
    struct Parts {
        /// `ZBOOK t0 LEFT OUTER JOIN ...`
        var from: String
        /// ` WHERE ...` or empty, with its arguments.
        var whereClause: SQLFragment
        /// ORDER BY terms (empty when the request has no sort descriptors).
        var order: [String]
        /// ` LIMIT ? OFFSET ?` or empty, with its bindings.
        var window: SQLFragment
        /// The translator, for the dictionary fetch's columns.
        var translator: SQLFetchTranslator
    }

    /// FROM, WHERE (the entity filter, then the predicate), ORDER BY and the window of a request.
    func parts(
        _ request: AnyFetchRequest, entity: EntityDescription, sorted: Bool = true,
        extraColumns: (inout SQLFetchTranslator) throws -> Void = { _ in }
    ) throws -> Parts {
        guard let mapping = schema.entities[entity.name] else {
            throw CoreDataError(exception: .invalidArgument, "The entity \(entity.name) has no table in the store")
        }
        var translator = SQLFetchTranslator(model: model, schema: schema, entity: entity)
        translator.dialect = dialect
        translator.storeIdentifier = storeIdentifier
        var conditions: [SQLFragment] = []
        let tableEntities = schema.entities.values.filter { $0.tableName == mapping.tableName }.count
        let accepted = request.includesSubentities ? mapping.entityNumbersWithSubentities : [mapping.entityNumber]
        if accepted.count < tableEntities {
            conditions.append(
                accepted.count == 1
                    ? "t0.Z_ENT = \(bind: accepted[0].databaseValue)"
                    : "t0.Z_ENT IN (\(SQLFragment.joined(accepted.map { "\(bind: $0.databaseValue)" }, separator: ", ")))"
            )
        }
        if let predicate = request.predicate {
            // The translator recurses once per level: a predicate deeper than the limit is
            // refused here, as one the store cannot translate (NSInvalidArgumentException), not a stack overflow.
            do { try TreeDepth.check(predicate) } catch let error as PredicateError {
                throw CoreDataError(exception: .invalidArgument, error.message)
            }
            conditions.append(try translator.condition(for: predicate))
        }
        try extraColumns(&translator)
        var order = sorted ? try translator.orderingTerms(for: request.sortDescriptors) : []
        // Ties keep the order of the rows' keys, as the in-memory sort keeps insertion order.
        if !order.isEmpty { order.append("t0.Z_PK") }
        var window = SQLFragment()
        if request.fetchLimit > 0 || request.fetchOffset > 0 {
            // No limit: SQLite's -1, PostgreSQL's NULL (it refuses a negative LIMIT).
            let noLimit: DatabaseValue = dialect == .sqlite ? (-1).databaseValue : .null
            let limit = request.fetchLimit > 0 ? request.fetchLimit.databaseValue : noLimit
            window = " LIMIT \(bind: limit) OFFSET \(bind: request.fetchOffset.databaseValue)"
        }
        let from = "\(mapping.tableName) t0" + translator.joins.map { " " + $0 }.joined()
        let whereClause: SQLFragment =
            conditions.isEmpty ? SQLFragment() : " WHERE \(SQLFragment.joined(conditions, separator: " AND "))"
        return Parts(from: from, whereClause: whereClause, order: order, window: window, translator: translator)
    }

    /// The SELECT statement of a fetch, with `columns` as its select list.
    func select(_ request: AnyFetchRequest, entity: EntityDescription, columns: String) throws -> SQLFragment {
        let parts = try parts(request, entity: entity)
        var statement: SQLFragment = "SELECT \(raw: columns) FROM \(raw: parts.from)\(parts.whereClause)"
        if !parts.order.isEmpty { statement.append(sql: " ORDER BY " + parts.order.joined(separator: ", ")) }
        statement.append(parts.window)
        return statement
    }

    /// `SELECT COUNT(*)` of a request, its window applied.
    func count(_ request: AnyFetchRequest, entity: EntityDescription) throws -> SQLFragment {
        let parts = try parts(request, entity: entity, sorted: false)
        guard !parts.window.isEmpty else { return "SELECT COUNT(*) FROM \(raw: parts.from)\(parts.whereClause)" }
        // PostgreSQL wants a name for a subquery in FROM.
        let alias = dialect == .sqlite ? "" : " AS counted"
        return
            "SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM \(raw: parts.from)\(parts.whereClause)\(parts.window))\(raw: alias)"
    }

    // MARK: Dictionary results

    /// How a column of a dictionary result decodes.
    enum DictionaryDecode {
        case attribute(AttributeType)
        case transformable(AttributeDescription)
        case toOne(String)
        case computed(AttributeType)
    }

    /// A dictionary fetch's statement and its columns: each property a column (`t0.ZTITLE`),
    /// each expression description an aggregate (`MAX(t0.ZSALESRANK)`), GROUP BY for the
    /// grouping properties, DISTINCT for distinct results. With a `havingPredicate` the window
    /// is left out: the store applies it after filtering the groups.
    func dictionaries(_ request: AnyFetchRequest, entity: EntityDescription) throws -> (
        statement: SQLFragment, columns: [(key: String, decode: DictionaryDecode)]
    ) {
        try DictionaryResults.validate(request, entity: entity)
        guard let mapping = schema.entities[entity.name] else {
            throw CoreDataError(exception: .invalidArgument, "The entity \(entity.name) has no table in the store")
        }
        let properties =
            request.fetchedProperties ?? entity.attributes.filter { !$0.isTransient }.map { .named($0.name) }
        let groupBy = request.groupedProperties ?? []
        var columns: [(sql: SQLFragment, key: String, decode: DictionaryDecode)] = []
        var groupColumns: [SQLFragment] = []
        /// A property's column: an attribute (across to-one relationships too) or a to-one's key.
        func column(forKey key: String, _ translator: inout SQLFetchTranslator) throws -> (
            SQLFragment, DictionaryDecode
        ) {
            if !key.contains("."), let r = entity.relationship(named: key), !r.isToMany,
                let c = mapping.toOneColumns[key]
            {
                return (SQLFragment(sql: "t0.\(c)"), .toOne(r.destinationEntityName))
            }
            if !key.contains("."), let a = entity.attribute(named: key), a.attributeType == .transformable,
                let c = mapping.attributeColumns[key]
            {
                return (SQLFragment(sql: "t0.\(c)"), .transformable(a))
            }
            let resolved = try translator.resolvedColumn(forKeyPath: key)
            return (resolved.fragment, .attribute(resolved.attributeType ?? .string))
        }
        let parts = try parts(request, entity: entity) { translator in
            for property in properties {
                switch property {
                case .attribute(let key):
                    let (sql, decode) = try column(forKey: key, &translator)
                    columns.append((sql, key, decode))
                case .computed(let description):
                    let checked = try DictionaryResults.aggregate(of: description)
                    let aggregate = try translator.aggregate(for: checked.expression)
                    columns.append((aggregate.fragment, description.name, .computed(description.expressionResultType)))
                }
            }
            for property in groupBy {
                guard case .attribute(let key) = property else {
                    throw CoreDataError(
                        exception: .invalidArgument, "propertiesToGroupBy takes property names, not expressions")
                }
                groupColumns.append(try column(forKey: key, &translator).0)
            }
        }
        let selectList = SQLFragment.joined(columns.map(\.sql), separator: ", ")
        var statement: SQLFragment =
            "SELECT \(raw: request.returnsDistinctResults ? "DISTINCT " : "")\(selectList) FROM \(raw: parts.from)\(parts.whereClause)"
        if !groupColumns.isEmpty {
            statement.append(" GROUP BY \(SQLFragment.joined(groupColumns, separator: ", "))")
        }
        // Grouped or aggregated rows have no single key to break ties with.
        let aggregated =
            !groupColumns.isEmpty || request.returnsDistinctResults
            || columns.contains(where: {
                if case .computed = $0.decode { return true }
                return false
            })
        let order = aggregated ? Array(parts.order.dropLast()) : parts.order
        if !order.isEmpty { statement.append(sql: " ORDER BY " + order.joined(separator: ", ")) }
        if request.havingPredicate == nil { statement.append(parts.window) }
        return (statement, columns.map { ($0.key, $0.decode) })
    }

    /// One dictionary result from its row's values; `place` names the store in errors.
    func dictionary(
        _ value: (Int) -> DatabaseValue, columns: [(key: String, decode: DictionaryDecode)], entity: EntityDescription,
        place: String
    ) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for (i, column) in columns.enumerated() {
            let dbValue = value(i)
            let decoded: Any?
            switch column.decode {
            case .attribute(let type):
                do {
                    decoded = try RelationalValues.value(dbValue, type: type)
                } catch let mismatch as StoredValueMismatch {
                    throw CoreDataError(
                        .sqlite,
                        "\(entity.name).\(column.key) holds \(mismatch.found) in the store at \(place), which a \(type.xcodeName) attribute cannot take; fix the row or the model",
                        key: column.key, sqliteCode: 20)
                }
            case .transformable(let attribute):
                switch dbValue.storage {
                case .null: decoded = nil
                case .blob(let data):
                    do { decoded = try TransformableValues.value(from: data, attribute: attribute) } catch {
                        throw CoreDataError(
                            .sqlite,
                            "\(entity.name).\(column.key) in the store at \(place) is a transformable attribute whose data could not be read: \(error)",
                            key: column.key)
                    }
                default:
                    throw CoreDataError(
                        .sqlite,
                        "\(entity.name).\(column.key) holds \(dbValue) in the store at \(place), not the data of a transformable attribute; fix the row or the model",
                        key: column.key, sqliteCode: 20)
                }
            case .computed(let type):
                decoded = DictionaryResults.convert(RelationalValues.rawValue(dbValue), to: type)
            case .toOne(let destination):
                decoded = Int64.fromDatabaseValue(dbValue).map {
                    ManagedObjectID(entityName: destination, storeIdentifier: storeIdentifier, primaryKey: $0)
                }
            }
            if let decoded { result[column.key] = decoded }
        }
        return result
    }

    /// A having predicate, then the window, over dictionary results (the groups are results,
    /// not table rows, so this runs in memory after the SQL).
    static func applyingHaving(_ results: [[String: Any]], _ request: AnyFetchRequest) throws -> [[String: Any]] {
        guard let having = request.havingPredicate else { return results }
        var filtered = try results.filter { try having.checkedEvaluate(with: $0) }
        if request.fetchOffset > 0 { filtered = Array(filtered.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { filtered = Array(filtered.prefix(request.fetchLimit)) }
        return filtered
    }
}
