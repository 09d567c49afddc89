import Foundation
import GRDB

/// The INSERTs and UPDATEs of a save in PostgreSQL: the shared write plans
/// (``RelationalWritePlan``: columns, sources, Core Data's UPDATE of the changed columns) with
/// their values as `DatabaseValue`s, and new rows of one entity in multi-row INSERTs.
struct PostgresWriter {
    let model: ManagedObjectModel
    let schema: RelationalSchema
    let storeIdentifier: String

    /// PostgreSQL binds at most 65,535 parameters in one statement; a multi-row INSERT stays
    /// well under, and under this many rows.
    static let rowsPerInsert = 1_000
    static let parametersPerStatement = 30_000

    /// The plan of an entity (built per save: a plan is a few strings per column).
    func plan(_ entityName: String) throws -> RelationalWritePlan {
        guard let entity = model.entitiesByName[entityName] else {
            throw CoreDataError(.persistentStoreIncompatibleSchema, "The model has no entity \(entityName)")
        }
        return RelationalWritePlan(for: entity, schema: schema)
    }

    /// The multi-row INSERTs of `rows`, one per run of rows of one entity and chunk.
    func inserts(_ rows: [StoreRow]) throws -> [(String, [DatabaseValue])] {
        var statements: [(String, [DatabaseValue])] = []
        var plans: [String: RelationalWritePlan] = [:]
        var start = 0
        while start < rows.count {
            let entityName = rows[start].entityName
            let plan = try plans[entityName] ?? self.plan(entityName)
            plans[entityName] = plan
            let width = 3 + plan.columns.count
            let limit = max(1, min(Self.rowsPerInsert, Self.parametersPerStatement / width))
            var end = start
            while end < rows.count, end - start < limit, rows[end].entityName == entityName { end += 1 }
            var values: [DatabaseValue] = []
            values.reserveCapacity((end - start) * width)
            for row in rows[start..<end] {
                values += [row.primaryKey.databaseValue, plan.entityNumber.databaseValue, row.version.databaseValue]
                for source in plan.sources { values.append(try value(source, of: row, plan: plan)) }
            }
            let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
            let names = (["Z_PK", "Z_ENT", "Z_OPT"] + plan.columns).joined(separator: ", ")
            statements.append(
                (
                    "INSERT INTO \(plan.tableName) (\(names)) VALUES "
                        + Array(repeating: tuple, count: end - start).joined(separator: ", "), values
                ))
            start = end
        }
        return statements
    }

    /// The UPDATE of a row still at `expectedVersion`: the columns of the `changed` properties
    /// (every column when nil) and Z_OPT, as the SQLite store writes it.
    func update(_ row: StoreRow, expectedVersion: Int64, changed: PropertyIndexSet?) throws -> (String, [DatabaseValue])
    {
        let plan = try plan(row.entityName)
        let update = plan.update(writing: changed)
        var values = try update.positions.map { try value(plan.sources[$0], of: row, plan: plan) }
        values += [row.version.databaseValue, row.primaryKey.databaseValue, expectedVersion.databaseValue]
        return (update.sql, values)
    }

    /// The value one column takes from a row. A value PostgreSQL cannot keep exactly is a
    /// validation error (1550) naming the object and key, and nothing is written: a string
    /// holding NUL (PostgreSQL's text cannot), and what the SQLite store refuses too (NaN, a
    /// Decimal beyond a double's precision), so that both stores keep the same values.
    func value(_ source: RelationalWritePlan.Source, of row: StoreRow, plan: RelationalWritePlan) throws
        -> DatabaseValue
    {
        switch source {
        case .attribute(let index, let type):
            let value = row.values[index]
            switch value {
            case .null: return .null
            case .string(let text) where text.utf8.contains(0):
                throw unstorable(
                    row, index,
                    "the string holds the NUL character, which PostgreSQL's text cannot hold. Remove it, or use a Binary attribute"
                )
            case .double(let d) where d.isNaN:
                throw unstorable(
                    row, index, "NaN is not a number the store keeps (the SQLite store would make it NULL)")
            default:
                let any = value.any
                if type == .decimal, let reason = RelationalValues.unstorableReason(any, type: type) {
                    throw unstorable(row, index, reason)
                }
                return RelationalValues.databaseValue(any, type: type)
            }
        case .transformable(let index, let attribute):
            guard let value = row.values[index].any else { return .null }
            do {
                return try TransformableValues.data(for: value, attribute: attribute).databaseValue
            } catch {
                let uri = ManagedObjectID(
                    entityName: row.entityName, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey
                ).uriString
                throw CoreDataError(
                    .persistentStoreSave,
                    "\(row.entityName).\(attribute.name) of \(uri) is a transformable attribute, and \(error.reason). Nothing was saved",
                    objectURI: uri, key: attribute.name)
            }
        case .toOne(let index):
            return row.values[index].objectID?.primaryKey.databaseValue ?? .null
        case .toOneEntity(let index):
            return row.values[index].objectID.flatMap { model.entitiesByName[$0.entityName]?.entityNumber }?
                .databaseValue ?? .null
        }
    }

    private func unstorable(_ row: StoreRow, _ index: Int, _ reason: String) -> CoreDataError {
        let key =
            model.entitiesByName[row.entityName].flatMap {
                index < $0.attributes.count ? $0.attributes[index].name : nil
            } ?? "?"
        let uri = ManagedObjectID(
            entityName: row.entityName, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey
        ).uriString
        return CoreDataError(
            .validation,
            "The PostgreSQL store cannot keep \(row.entityName).\(key) of \(uri) exactly: \(reason). Nothing was saved",
            objectURI: uri, key: key)
    }
}
