import Foundation
import GRDB

extension SQLiteStore {
    /// Every row (one query per table) and every many-to-many link (one query per join table).
    func exportContents() throws -> AtomicContents {
        var contents = AtomicContents()
        for root in model.entities where root.parentEntityName == nil {
            let request = FetchRequest(entityName: root.name)
            for row in try fetchRows(request, model: model) {
                contents.rows[root.name, default: [:]][row.primaryKey] = row
                contents.lastKeys[root.name] = max(contents.lastKeys[root.name, default: 0], row.primaryKey)
            }
        }
        var seen: Set<String> = []
        for join in schema.joinTables.values where seen.insert(join.name).inserted {
            let key = "\(join.ownerEntity).\(join.ownerRelationship)"
            let pairs = try CoreDataError.mappingSQLite("Reading the links of \(key) from the store at", url) {
                try database.read { db in
                    try Row.fetchAll(db, sql: "SELECT \(join.ownerColumn), \(join.destinationColumn) FROM \(join.name)")
                        .map { [$0[0] as Int64, $0[1] as Int64] }
                }
            }
            contents.links[key] = Set(pairs)
        }
        return contents
    }

    /// Inserts every row and link of an empty store in one transaction, and sets each table's
    /// Z_MAX past its largest key so new objects do not collide.
    func importContents(_ contents: AtomicContents) throws {
        try save(contents.insertion(model: model, storeIdentifier: identifier), model: model)
        try CoreDataError.mappingSQLite("Setting the primary keys of the store at", url) {
            try database.write { db in
                for (root, rows) in contents.rows {
                    guard let number = model.entitiesByName[root]?.entityNumber, let highest = rows.keys.max() else {
                        continue
                    }
                    try db.execute(
                        sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(Z_MAX, ?) WHERE Z_ENT = ?",
                        arguments: [highest, number])
                }
            }
        }
    }
}
