import Foundation
import GRDB

extension SQLiteStore.QueryParts {
    /// FROM, WHERE (the entity filter, then the predicate), ORDER BY and the window of a
    /// request on the SQLite layout, in a dialect: the PostgreSQL store's batch requests build
    /// their conditions with it. SQLiteStore.queryParts builds the same for SQLite; the fetch
    /// work (SQLFetchQuery.parts) shares one builder for both stores, and replaces this when
    /// it lands.
    static func make(_ request: AnyFetchRequest, entity: EntityDescription, model: ManagedObjectModel, schema: SQLiteSchema,
                     storeIdentifier: String, dialect: SQLDialect, sorted: Bool = true,
                     extraColumns: (inout SQLFetchTranslator) throws -> Void = { _ in }) throws -> SQLiteStore.QueryParts {
        guard let mapping = schema.entities[entity.name] else {
            throw CoreDataError(.persistentStoreIncompatibleSchema, "The store has no table for \(entity.name)")
        }
        var translator = SQLFetchTranslator(model: model, schema: schema, entity: entity)
        translator.storeIdentifier = storeIdentifier
        translator.dialect = dialect
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        let tableEntities = schema.entities.values.filter { $0.tableName == mapping.tableName }.count
        let accepted = request.includesSubentities ? mapping.entityNumbersWithSubentities : [mapping.entityNumber]
        if accepted.count < tableEntities {
            conditions.append(accepted.count == 1 ? "t0.Z_ENT = ?" : "t0.Z_ENT IN (\(accepted.map { _ in "?" }.joined(separator: ", ")))")
            arguments += accepted.map { $0.databaseValue }
        }
        if let predicate = request.predicate {
            // The translator recurses once per level: a predicate deeper than the limit is
            // refused here, as one the store cannot translate (NSInvalidArgumentException), not a stack overflow.
            do { try TreeDepth.check(predicate) } catch let error as PredicateError {
                throw CoreDataError(exception: .invalidArgument, error.message)
            }
            let fragment = try translator.condition(for: predicate)
            conditions.append(fragment.sql)
            arguments += fragment.arguments
        }
        try extraColumns(&translator)
        var order = sorted ? try translator.orderingTerms(for: request.sortDescriptors) : []
        // Ties keep the order of the rows' keys, as the in-memory sort keeps insertion order.
        if !order.isEmpty { order.append("t0.Z_PK") }
        var window = SQLFragment(sql: "")
        if request.fetchLimit > 0 || request.fetchOffset > 0 {
            // No limit is SQLite's -1 and PostgreSQL's NULL (LIMIT ALL).
            let none: DatabaseValue = dialect == .sqlite ? (-1).databaseValue : .null
            window = SQLFragment(sql: " LIMIT ? OFFSET ?", arguments: [request.fetchLimit > 0 ? request.fetchLimit.databaseValue : none, request.fetchOffset.databaseValue])
        }
        let from = "\(mapping.tableName) t0" + translator.joins.map { " " + $0 }.joined()
        let whereSQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return SQLiteStore.QueryParts(from: from, whereClause: SQLFragment(sql: whereSQL, arguments: arguments), order: order, window: window, translator: translator)
    }
}
