import Foundation

/// Core Data's table layout (``RelationalSchema``) in PostgreSQL: the same tables, columns and
/// indexes under the same names, in the store's own schema (the connections' `search_path`).
///
/// Names stay unquoted, so PostgreSQL folds them to lower case everywhere alike (`ZBOOK` is the
/// table `zbook`), and the translator's SQL needs no change of names. A column holds one type,
/// where SQLite's hold any: each attribute type gets the type its values have in SQLite.
enum PostgresSchema {
    /// The PostgreSQL type of a column SQLite declares as `declared`
    /// (``RelationalSchema/sqlType(_:)``). Text compares byte by byte (`COLLATE "C"`), as
    /// SQLite's BINARY collation does; a decimal is `numeric`, which holds SQLite's whole
    /// INTEGER and its REAL alike.
    static func columnType(_ declared: String) -> String {
        switch declared.uppercased() {
        case "INTEGER": return "bigint"
        case "FLOAT", "REAL", "TIMESTAMP": return "double precision"
        case "DECIMAL": return "numeric"
        case "VARCHAR", "TEXT": return "text COLLATE \"C\""
        default: return "bytea"
        }
    }

    /// The statements that create a store's tables and indexes in the current schema. Core
    /// Data's derived-count triggers are SQLite's own syntax: the PostgreSQL store keeps those
    /// counts otherwise (see ``PostgresStore``).
    static func creationStatements(for schema: RelationalSchema) -> [String] {
        var statements = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT bigint PRIMARY KEY, Z_NAME text COLLATE \"C\", Z_SUPER bigint, Z_MAX bigint)",
            "CREATE TABLE Z_METADATA (Z_VERSION bigint PRIMARY KEY, Z_UUID text COLLATE \"C\", Z_PLIST bytea)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT bytea)",
        ]
        for table in schema.tables {
            let columns =
                ["Z_PK bigint PRIMARY KEY", "Z_ENT bigint", "Z_OPT bigint"]
                + table.columns.map { "\($0.name) \(columnType($0.type))" }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        for join in schema.distinctJoinTables {
            let columns = [
                join.ownerColumn, join.destinationColumn, join.ownerOrderColumn, join.destinationOrderColumn,
            ].compactMap { $0 }
            statements.append(
                "CREATE TABLE \(join.name) ( \(columns.map { "\($0) bigint" }.joined(separator: ", ")), PRIMARY KEY (\(join.ownerColumn), \(join.destinationColumn)) )"
            )
        }
        for index in schema.indexes {
            // Every text column already compares as BINARY does.
            let columns = index.columns.map { $0.replacingOccurrences(of: " COLLATE BINARY", with: "") }
            statements.append(
                "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(columns.joined(separator: ", ")))"
            )
        }
        return statements
    }
}
