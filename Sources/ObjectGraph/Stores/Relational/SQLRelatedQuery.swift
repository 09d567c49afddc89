import Foundation
import GRDB

/// The SQL that reads a to-many relationship's destinations over Core Data's table layout, shared by
/// the SQLite and the PostgreSQL stores: through the destination's foreign key (one-to-many)
/// or a join table (many-to-many), in the order of the `Z_FOK_` column when ordered.
struct SQLRelatedQuery {
    let model: ManagedObjectModel
    let schema: RelationalSchema

    /// The join table of a many-to-many relationship of `entity` and its columns for it (the
    /// source's keys, the destination's keys, the order of the destinations); nil for a
    /// relationship that has no join table.
    func joinColumns(of r: RelationshipDescription, entity: String) -> (
        table: RelationalSchema.JoinTable, columns: (mine: String, theirs: String, order: String?)
    )? {
        let declaring = model.declaringEntity(of: r.name, in: entity)
        guard let join = schema.joinTables["\(declaring).\(r.name)"] else { return nil }
        return (join, join.columns(isOwnerSide: join.ownerEntity == declaring && join.ownerRelationship == r.name))
    }

    /// Where a one-to-many relationship's destinations are: the destination table's column
    /// holding the source's key (the to-one inverse's), and its `Z_FOK_` column when ordered.
    func inverseColumns(of r: RelationshipDescription, source: String, destination: RelationalSchema.EntityMapping)
        throws
        -> (key: String, order: String?)
    {
        if let name = r.inverseName {
            // On the destination's mapping, or on the sub-entity's that declares the inverse
            // (its columns are in the same table).
            let owner = model.inverseEntityName(of: r).flatMap { schema.entities[$0] }
            if let column = destination.toOneColumns[name] ?? owner?.toOneColumns[name] {
                return (column, destination.toOneOrderColumns[name] ?? owner?.toOneOrderColumns[name])
            }
        }
        throw CoreDataError(
            .persistentStoreIncompatibleSchema,
            "The to-many relationship \(source).\(r.name) has no to-one inverse column in \(destination.tableName): ObjectGraph's SQL stores keep a to-many relationship through its inverse, so give it one"
        )
    }

    /// The SELECT of a to-many relationship's destinations: the source's key, the destination's
    /// key and entity, for sources `IN (placeholders)` (or `= ?`), in the relationship's order
    /// when it has one (then the destination's key).
    func sql(
        _ r: RelationshipDescription, source: EntityDescription, destination: RelationalSchema.EntityMapping,
        condition: String
    ) throws -> String {
        if let (join, columns) = joinColumns(of: r, entity: source.name) {
            let order =
                r.isOrdered
                ? columns.order.map { " ORDER BY j.\($0) IS NULL, j.\($0), d.Z_PK" } ?? " ORDER BY d.Z_PK" : ""
            return
                "SELECT j.\(columns.mine), d.Z_PK, d.Z_ENT FROM \(join.name) j JOIN \(destination.tableName) d ON d.Z_PK = j.\(columns.theirs) WHERE j.\(columns.mine) \(condition)\(order)"
        }
        let fk = try inverseColumns(of: r, source: source.name, destination: destination)
        let order =
            r.isOrdered ? fk.order.map { " ORDER BY d.\($0) IS NULL, d.\($0), d.Z_PK" } ?? " ORDER BY d.Z_PK" : ""
        return
            "SELECT d.\(fk.key), d.Z_PK, d.Z_ENT FROM \(destination.tableName) d WHERE d.\(fk.key) \(condition)\(order)"
    }

    /// The destination of one row of that SELECT (source key, destination key, Z_ENT), or nil
    /// for a row of another entity of the destination's table.
    func destination(
        sourceKey: Int64?, key: Int64?, entityNumber: Int64?, destination: EntityDescription, storeIdentifier: String
    ) -> (Int64, ManagedObjectID)? {
        guard let sourceKey, let key, let number = entityNumber, let entity = model.entitiesByNumber[Int(number)],
            model.isEntity(entity.name, kindOf: destination.name)
        else { return nil }
        return (sourceKey, ManagedObjectID(entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: key))
    }

    /// The rows of one related-IDs SELECT as (source key, destination ID): `read` runs the
    /// SQL with its values (`what` says what for errors).
    typealias Read = (_ sql: String, _ values: [DatabaseValue], _ destination: EntityDescription, _ what: String) throws
        -> [(Int64, ManagedObjectID)]

    /// The destinations of each source, read in chunks of 500 sources.
    func relatedIDs(of ids: [ManagedObjectID], relationship r: RelationshipDescription, read: Read) throws
        -> [ManagedObjectID: Set<ManagedObjectID>]
    {
        guard let first = ids.first, let source = model.entitiesByName[first.entityName],
            let destination = model.entitiesByName[r.destinationEntityName],
            let destinationMapping = schema.entities[destination.name]
        else { return [:] }
        var result: [ManagedObjectID: Set<ManagedObjectID>] = Dictionary(uniqueKeysWithValues: ids.map { ($0, []) })
        let byKey = Dictionary(ids.map { ($0.primaryKey, $0) }, uniquingKeysWith: { a, _ in a })
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let sql = try self.sql(
                r, source: source, destination: destinationMapping,
                condition: "IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))")
            for (owner, id) in try read(
                sql, chunk.map { $0.primaryKey.databaseValue }, destination,
                "Reading the relationship \(r.name) of \(source.name) objects from the store at")
            {
                guard let sourceID = byKey[owner] else { continue }
                result[sourceID, default: []].insert(id)
            }
        }
        return result
    }

    /// The destinations of one source in the relationship's order: its `Z_FOK_` column, then
    /// keys (a row another writer left without a position comes after the ones that have one).
    func orderedRelatedIDs(of id: ManagedObjectID, relationship r: RelationshipDescription, read: Read) throws
        -> [ManagedObjectID]
    {
        guard let source = model.entitiesByName[id.entityName],
            let destination = model.entitiesByName[r.destinationEntityName],
            let destinationMapping = schema.entities[destination.name]
        else { return [] }
        let sql = try self.sql(r, source: source, destination: destinationMapping, condition: "= ?")
        return try read(
            sql, [id.primaryKey.databaseValue], destination,
            "Reading the relationship \(r.name) of \(id.uriString) from the store at"
        ).map(\.1)
    }
}
