import Foundation
import GRDB

/// Runs a ``RelationalMigrationPlan`` on a store file: every statement, the primary-key table
/// and the metadata in one exclusive transaction, so a crash or an error leaves the store as
/// it was (SQLite's journal rolls the transaction back) or completely migrated.
enum SQLiteInPlaceMigration {
    static func migrate(url: URL, plan: RelationalMigrationPlan, progress: MigrationProgressHandler?, log: SQLLog)
        throws
    {
        // Waits for other connections' locks as a store does (the default timeout).
        var configuration = SQLiteConnection.configuration(timeout: StoreOption.defaultTimeout)
        configuration.journalMode = .wal
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            throw CoreDataError(
                .migrationManagerSourceStore, "Can't open the store at \(url.path) to migrate it: \(error)")
        }
        defer { try? queue.close() }
        let total = plan.statements.count + 2
        func report(_ done: Int, _ label: String?) {
            progress?(
                MigrationProgress(
                    fractionCompleted: Float(done) / Float(total), pass: 1, entityMappingName: label,
                    completedUnits: done, totalUnits: total))
        }
        report(0, nil)
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.exclusive) {
                    let (_, plist) = try SQLiteStore.readMetadata(db, url: url)
                    guard plan.source.isConfiguration(withName: nil, compatibleWithStoreMetadata: plist) else {
                        throw plan.source.incompatibleStoreError(plist, url: url)
                    }
                    let keysSQL = "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY"
                    let oldRows = try log.measure(
                        sql: keysSQL, arguments: [], { try Row.fetchAll(db, sql: keysSQL) }, rowCount: \.count)
                    let old = oldRows.map { (name: $0[0] as String, maximum: $0[1] as Int64? ?? 0) }
                    for (i, statement) in plan.statements.enumerated() {
                        log.statement(sql: statement.sql, arguments: [])
                        try db.execute(sql: statement.sql)
                        report(i + 1, statement.label)
                    }
                    // Z_PRIMARYKEY: the destination's entities; each root keeps the highest key used.
                    let keys = try plan.primaryKeyRows(old: old) { table in
                        let maxSQL = "SELECT MAX(Z_PK) FROM \(table)"
                        return try log.measure(
                            sql: maxSQL, arguments: [], { try Int64.fetchOne(db, sql: maxSQL) }, rowCount: { _ in 1 })
                    }
                    log.statement(sql: "DELETE FROM Z_PRIMARYKEY", arguments: [])
                    try db.execute(sql: "DELETE FROM Z_PRIMARYKEY")
                    for key in keys {
                        let keySQL = "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)"
                        let keyArguments: StatementArguments = [
                            key.entityNumber, key.name, key.superNumber, key.maximum,
                        ]
                        log.statement(
                            sql: keySQL,
                            arguments: [
                                key.entityNumber.databaseValue, key.name.databaseValue, key.superNumber.databaseValue,
                                key.maximum.databaseValue,
                            ])
                        try db.execute(sql: keySQL, arguments: keyArguments)
                    }
                    report(total - 1, nil)
                    let data = try plan.migratedMetadata(plist)
                    let metadataSQL = "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1"
                    log.statement(sql: metadataSQL, arguments: [data.databaseValue])
                    try db.execute(sql: metadataSQL, arguments: [data])
                    return .commit
                }
            }
        } catch let error as CoreDataError {
            throw error
        } catch {
            // SQLite's failure is kept as the underlying error, with its code.
            let sqlite = CoreDataError(sqlite: error, operation: "Migrating in place", url: url)
            throw CoreDataError(
                .migration,
                "Lightweight migration of \(url.path) failed and was rolled back, the store is unchanged: \(sqlite.message)",
                detailedErrors: [sqlite], sqliteCode: sqlite.sqliteCode)
        }
        report(total, nil)
    }
}
