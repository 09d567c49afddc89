import Foundation
import GRDB

/// The SQLite store's connection as batch requests use it: queries measured in the SQL log,
/// statements cached per connection and logged.
struct SQLiteBatchStatements: SQLStoreStatements {
    let db: Database
    let log: SQLLog
    /// Whether queries go to the SQL log (persistent history's reads never did).
    var logsQueries = true

    func fetch(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[DatabaseValue]] {
        guard logsQueries else {
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
                Array($0.databaseValues)
            }
        }
        return try log.measure(sql: sql, arguments: arguments) {
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                Array(row.databaseValues)
            }
        } rowCount: {
            $0.count
        }
    }

    func fetch(_ statement: SQLFragment) throws -> [[DatabaseValue]] {
        try fetch(statement.sql, statement.arguments)
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(StatementArguments(arguments))
        log.statement(sql: sql, arguments: arguments)
        try statement.execute()
        return db.changesCount
    }
}
