import Foundation
import GRDB

/// Reads persistent history rows (``RelationalHistorySchema``) back as transactions and changes,
/// from a store ObjectGraph wrote or one Apple's Core Data wrote; the SQLite store and the
/// PostgreSQL store (the same tables) read through it alike.
struct RelationalHistoryReader {
    /// The store's connection.
    let statements: SQLStoreStatements
    /// How many `ZTOMBSTONE<n>` columns `ACHANGE` has.
    let tombstoneColumns: Int
    let model: ManagedObjectModel
    /// The store's UUID, for object IDs and the transactions' storeID.
    let storeIdentifier: String
    /// The store as errors name it (a file's path, a URL without its password).
    let storeName: String
    /// A tombstone column's value as the store keeps it, back to the attribute's stored value
    /// (PostgresTombstone's bytes; SQLite keeps values as they are).
    var decodeTombstone: (DatabaseValue) -> DatabaseValue = { $0 }

    /// The condition on `ATRANSACTION t` of a request's boundary for the store
    /// `storeIdentifier`, and its arguments; nil when it selects nothing. Both SQL stores use it.
    static func condition(
        _ boundary: PersistentHistoryChangeRequest.Boundary, storeIdentifier identifier: String
    ) -> (String, [DatabaseValue])? {
        switch boundary {
        case .afterToken(let token):
            guard let token else { return ("1 = 1", []) }
            // A token of other stores only says nothing about this one: all of its history.
            return ("t.Z_PK > ?", [(token.transactionNumber(forStore: identifier) ?? 0).databaseValue])
        case .afterDate(let date):
            return ("t.ZTIMESTAMP > ?", [date.timeIntervalSinceReferenceDate.databaseValue])
        case .beforeToken(let token):
            guard let number = token?.transactionNumber(forStore: identifier) else { return nil }
            return ("t.Z_PK <= ?", [number.databaseValue])
        case .beforeDate(let date):
            return ("t.ZTIMESTAMP < ?", [date.timeIntervalSinceReferenceDate.databaseValue])
        }
    }

    /// The transactions a condition on `ATRANSACTION t` selects, oldest first, with their
    /// changes when asked. Author, bundle ID, context name and process ID are read from the
    /// strings table, or from the transaction's own columns where a store wrote them there.
    func transactions(where condition: String, _ arguments: [DatabaseValue], withChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        let sql = """
            SELECT t.Z_PK, t.ZTIMESTAMP, COALESCE(a.ZNAME, t.ZAUTHOR), COALESCE(b.ZNAME, t.ZBUNDLEID), \
            COALESCE(c.ZNAME, t.ZCONTEXTNAME), COALESCE(p.ZNAME, t.ZPROCESSID) FROM ATRANSACTION t \
            LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS \
            LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS \
            WHERE \(condition) ORDER BY t.Z_PK
            """
        let rows = try statements.fetch(sql, arguments)
        var changes: [Int64: [PersistentHistoryChange]] = [:]
        if withChanges, !rows.isEmpty {
            changes = try self.changes(inTransactionsWhere: condition, arguments)
        }
        return rows.map { row in
            let number = Int64.fromDatabaseValue(row[0]) ?? 0
            return PersistentHistoryTransaction(
                timestamp: Date(timeIntervalSinceReferenceDate: Double.fromDatabaseValue(row[1]) ?? 0),
                author: String.fromDatabaseValue(row[2]), contextName: String.fromDatabaseValue(row[4]),
                bundleID: String.fromDatabaseValue(row[3]), processID: String.fromDatabaseValue(row[5]),
                storeID: storeIdentifier, transactionNumber: number,
                changes: withChanges ? changes[number] ?? [] : nil)
        }
    }

    /// The changes of the selected transactions, by transaction number, each in key order.
    private func changes(inTransactionsWhere condition: String, _ arguments: [DatabaseValue]) throws -> [Int64:
        [PersistentHistoryChange]]
    {
        let tombstoneList = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        let sql =
            "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneList) FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition)) ORDER BY ZTRANSACTIONID, Z_PK"
        var result: [Int64: [PersistentHistoryChange]] = [:]
        for row in try statements.fetch(sql, arguments) {
            let change = try decode(row)
            result[change.transactionNumber, default: []].append(change)
        }
        return result
    }

    /// One `ACHANGE` row; a row naming an entity the model lacks or an unknown change type
    /// is an error that names the row, never skipped.
    private func decode(_ row: [DatabaseValue]) throws -> PersistentHistoryChange {
        let key = Int64.fromDatabaseValue(row[0]) ?? 0
        let rawType = Int.fromDatabaseValue(row[1]) ?? -1
        let entityNumber = Int.fromDatabaseValue(row[2]) ?? -1
        guard let type = PersistentHistoryChangeType(rawValue: rawType) else {
            throw CoreDataError(
                .sqlite,
                "The history change Z_PK = \(key) of ACHANGE in the store at \(storeName) has ZCHANGETYPE = \(rawType), which is no change type (0 insert, 1 update, 2 delete)"
            )
        }
        guard let entity = model.entitiesByNumber[entityNumber] else {
            throw CoreDataError(
                .sqlite,
                "The history change Z_PK = \(key) of ACHANGE in the store at \(storeName) has ZENTITY = \(entityNumber), which is no entity of the model: the history was written with another model version"
            )
        }
        let id = ManagedObjectID(
            entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: Int64.fromDatabaseValue(row[3]) ?? 0)
        var updated: Set<PropertyDescription>?
        if type == .update {
            updated =
                Data.fromDatabaseValue(row[5]).map { RelationalHistorySchema.properties(inBitmap: $0, of: entity) }
                ?? []
        }
        var tombstone: [String: Any]?
        if type == .delete {
            var values: [String: Any] = [:]
            for (n, (_, attribute)) in RelationalHistorySchema.preservedAttributes(of: entity).enumerated()
            where n < tombstoneColumns && 6 + n < row.count {
                let stored = decodeTombstone(row[6 + n])
                if attribute.attributeType == .transformable {
                    if case .blob(let data) = stored.storage { values[attribute.name] = data }
                    continue
                }
                do {
                    if let value = try RelationalValues.value(stored, type: attribute.attributeType) {
                        values[attribute.name] = value
                    }
                } catch {
                    throw CoreDataError(
                        .sqlite,
                        "The tombstone of history change Z_PK = \(key) of ACHANGE in the store at \(storeName) holds a value for \(entity.name).\(attribute.name) its type cannot take: \(error)",
                        key: attribute.name)
                }
            }
            tombstone = values
        }
        return PersistentHistoryChange(
            changeID: key, changeType: type, changedObjectID: id, updatedProperties: updated, tombstone: tombstone,
            transactionNumber: Int64.fromDatabaseValue(row[4]) ?? 0)
    }
}
