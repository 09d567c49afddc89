import Foundation
import GRDB

extension SQLiteStore {
    /// Dictionary results in SQL (``SQLFetchQuery/dictionaries(_:entity:)``). A
    /// `havingPredicate` then filters the groups, which are results, not table rows.
    func fetchDictionaries(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [[String: Any]] {
        let entity = try model.entity(named: request.entityName)
        let query = fetchQuery
        let (statement, columns) = try query.dictionaries(request, entity: entity)
        let (sql, values) = (statement.sql, statement.arguments)
        let arguments = StatementArguments(values)
        let results = try CoreDataError.mappingSQLite(
            "Fetching \(request.entityName) dictionaries from the store at", url
        ) {
            try log.measure(sql: sql, arguments: values) {
                try read { db in
                    try Row.fetchAll(db, sql: sql, arguments: arguments).map { row -> [String: Any] in
                        try query.dictionary({ row[$0] }, columns: columns, entity: entity, place: url.path)
                    }
                }
            } rowCount: {
                $0.count
            }
        }
        return try SQLFetchQuery.applyingHaving(results, request)
    }
}
