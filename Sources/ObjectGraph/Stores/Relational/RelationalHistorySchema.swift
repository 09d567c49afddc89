import Foundation

/// The tables in which an SQL store (SQLite or PostgreSQL) keeps persistent history, named,
/// numbered and indexed as Core Data's own (the CoreDataPlus SampleModel2_V1 store that
/// Tests/ObjectGraphTests/AppleFixtures reads holds real ones):
///
/// - `ATRANSACTION`: one row per save, `Z_ENT` 16002; its author, bundle ID, context name and
///   process ID are keys into the strings table (`ZAUTHORTS`, ...), its timestamp seconds since
///   2001 (`ZTIMESTAMP`).
/// - `ACHANGE`: one row per inserted, updated or deleted object, `Z_ENT` 16001: `ZCHANGETYPE`
///   0 insert, 1 update, 2 delete; `ZENTITY` the object's entity number, `ZENTITYPK` its
///   `Z_PK`, `ZTRANSACTIONID` the transaction's `Z_PK`; `ZCOLUMNS` a bitmap of an update's
///   changed properties; `ZTOMBSTONE0`, `ZTOMBSTONE1`, ... the preserved values of a deleted
///   object.
/// - `ATRANSACTIONSTRING`: each distinct string once, `Z_ENT` 16003.
///
/// Their keys come from `Z_PRIMARYKEY` rows 16001 to 16003 (`CHANGE`, `TRANSACTION`,
/// `TRANSACTIONSTRING`), as Core Data registers system entities from 16000 up.
enum RelationalHistorySchema {
    /// `Z_ENT` of change rows.
    static let changeEntity = 16001
    /// `Z_ENT` of transaction rows.
    static let transactionEntity = 16002
    /// `Z_ENT` of string rows.
    static let stringEntity = 16003

    /// The tables, without the tombstone columns (``tombstoneColumnCount(for:)`` adds them).
    static func creationStatements(tombstoneColumns: Int) -> [String] {
        let tombstones = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0) BLOB" }.joined()
        return [
            "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB\(tombstones) )",
            "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
            "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
            "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
            "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
            "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
            "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
            "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
            "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
        ]
    }

    /// The tables in PostgreSQL (``PostgresSchema``): the same tables, columns and indexes,
    /// each column in the type its values have in SQLite, text compared byte by byte.
    static func postgresCreationStatements(tombstoneColumns: Int) -> [String] {
        creationStatements(tombstoneColumns: tombstoneColumns).map { statement in
            var result = statement.replacingOccurrences(of: " COLLATE BINARY", with: "")
            for declared in ["INTEGER", "FLOAT", "VARCHAR", "BLOB"] {
                result = result.replacingOccurrences(
                    of: " \(declared)", with: " \(PostgresSchema.columnType(declared))")
            }
            return result
        }
    }

    /// The `Z_PRIMARYKEY` rows of the history tables: entity number and name.
    static let primaryKeyRows = [
        (changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"), (stringEntity, "TRANSACTIONSTRING"),
    ]

    /// The attributes of an entity whose values a deletion keeps
    /// (preservesValueInHistoryOnDeletion), its own and inherited, in name order: the n-th
    /// goes to `ZTOMBSTONE<n>`.
    static func preservedAttributes(of entity: EntityDescription) -> [(index: Int, attribute: AttributeDescription)] {
        entity.attributes.enumerated()
            .filter { $0.element.preservesValueInHistoryOnDeletion && !$0.element.isTransient }
            .sorted { $0.element.name < $1.element.name }
            .map { ($0.offset, $0.element) }
    }

    /// How many tombstone columns `ACHANGE` needs: the most preserved attributes of any entity.
    static func tombstoneColumnCount(for model: ManagedObjectModel) -> Int {
        model.entities.map { preservedAttributes(of: $0).count }.max() ?? 0
    }
}
