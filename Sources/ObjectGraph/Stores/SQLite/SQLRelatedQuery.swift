import Foundation

/// The SQL that reads a to-many relationship's destinations over the SQLite layout, shared by
/// the SQLite and the PostgreSQL stores: through the destination's foreign key (one-to-many)
/// or a join table (many-to-many), in the order of the `Z_FOK_` column when ordered.
struct SQLRelatedQuery {
    let model: ManagedObjectModel
    let schema: SQLiteSchema

    /// The join table of a many-to-many relationship of `entity` and its columns for it (the
    /// source's keys, the destination's keys, the order of the destinations); nil for a
    /// relationship that has no join table.
    func joinColumns(of r: RelationshipDescription, entity: String) -> (table: SQLiteSchema.JoinTable, columns: (mine: String, theirs: String, order: String?))? {
        let declaring = model.declaringEntity(of: r.name, in: entity)
        guard let join = schema.joinTables["\(declaring).\(r.name)"] else { return nil }
        return (join, join.columns(isOwnerSide: join.ownerEntity == declaring && join.ownerRelationship == r.name))
    }

    /// Where a one-to-many relationship's destinations are: the destination table's column
    /// holding the source's key (the to-one inverse's), and its `Z_FOK_` column when ordered.
    func inverseColumns(of r: RelationshipDescription, source: String, destination: SQLiteSchema.EntityMapping) throws -> (key: String, order: String?) {
        if let name = r.inverseName {
            // On the destination's mapping, or on the sub-entity's that declares the inverse
            // (its columns are in the same table).
            let owner = model.inverseEntityName(of: r).flatMap { schema.entities[$0] }
            if let column = destination.toOneColumns[name] ?? owner?.toOneColumns[name] {
                return (column, destination.toOneOrderColumns[name] ?? owner?.toOneOrderColumns[name])
            }
        }
        throw CoreDataError(.persistentStoreIncompatibleSchema, "The to-many relationship \(source).\(r.name) has no to-one inverse column in \(destination.tableName): ObjectGraph's SQL stores keep a to-many relationship through its inverse, so give it one")
    }

    /// The SELECT of a to-many relationship's destinations: the source's key, the destination's
    /// key and entity, for sources `IN (placeholders)` (or `= ?`), in the relationship's order
    /// when it has one (then the destination's key).
    func sql(_ r: RelationshipDescription, source: EntityDescription, destination: SQLiteSchema.EntityMapping, condition: String) throws -> String {
        if let (join, columns) = joinColumns(of: r, entity: source.name) {
            let order = r.isOrdered ? columns.order.map { " ORDER BY j.\($0) IS NULL, j.\($0), d.Z_PK" } ?? " ORDER BY d.Z_PK" : ""
            return "SELECT j.\(columns.mine), d.Z_PK, d.Z_ENT FROM \(join.name) j JOIN \(destination.tableName) d ON d.Z_PK = j.\(columns.theirs) WHERE j.\(columns.mine) \(condition)\(order)"
        }
        let fk = try inverseColumns(of: r, source: source.name, destination: destination)
        let order = r.isOrdered ? fk.order.map { " ORDER BY d.\($0) IS NULL, d.\($0), d.Z_PK" } ?? " ORDER BY d.Z_PK" : ""
        return "SELECT d.\(fk.key), d.Z_PK, d.Z_ENT FROM \(destination.tableName) d WHERE d.\(fk.key) \(condition)\(order)"
    }

    /// The destination of one row of that SELECT (source key, destination key, Z_ENT), or nil
    /// for a row of another entity of the destination's table.
    func destination(sourceKey: Int64?, key: Int64?, entityNumber: Int64?, destination: EntityDescription, storeIdentifier: String) -> (Int64, ManagedObjectID)? {
        guard let sourceKey, let key, let number = entityNumber, let entity = model.entitiesByNumber[Int(number)],
              model.isEntity(entity.name, kindOf: destination.name) else { return nil }
        return (sourceKey, ManagedObjectID(entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: key))
    }
}
