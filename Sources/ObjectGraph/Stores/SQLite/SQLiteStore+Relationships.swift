import Foundation
import GRDB

/// To-many relationships in the SQLite store: read through the destination's foreign key
/// (one-to-many) or a join table (many-to-many), in the order of their `Z_FOK_` column when
/// the relationship is ordered; links and orders written at save.
extension SQLiteStore {
    /// The shared SQL of to-many reads (``SQLRelatedQuery``).
    var relatedQuery: SQLRelatedQuery { SQLRelatedQuery(model: model, schema: schema) }

    /// The join table of a many-to-many relationship of `entity` and its columns for it (the
    /// source's keys, the destination's keys, the order of the destinations); nil for a
    /// relationship that has no join table.
    func joinColumns(of r: RelationshipDescription, entity: String) -> (
        table: RelationalSchema.JoinTable, columns: (mine: String, theirs: String, order: String?)
    )? {
        relatedQuery.joinColumns(of: r, entity: entity)
    }

    private func inverseColumns(
        of r: RelationshipDescription, source: String, destination: RelationalSchema.EntityMapping
    )
        throws -> (key: String, order: String?)
    {
        try relatedQuery.inverseColumns(of: r, source: source, destination: destination)
    }

    /// Runs a related-IDs query; returns (source key, destination ID) pairs in the query's order.
    private func related(_ sql: String, _ values: [DatabaseValue], destination: EntityDescription, what: String) throws
        -> [(Int64, ManagedObjectID)]
    {
        let rows = try CoreDataError.mappingSQLite(what, url) {
            try log.measure(sql: sql, arguments: values) {
                // One statement per relationship is cached; the batch forms vary with their size.
                try read { db in
                    try Row.fetchAll(
                        values.count == 1 ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql),
                        arguments: StatementArguments(values))
                }
            } rowCount: {
                $0.count
            }
        }
        return rows.compactMap { row in
            let number: Int = row[2]
            // A row of another entity of the destination's table is not a destination.
            guard let entity = model.entitiesByNumber[number], model.isEntity(entity.name, kindOf: destination.name)
            else { return nil }
            return (row[0], ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: row[1]))
        }
    }

    func relatedIDs(of ids: [ManagedObjectID], relationship r: RelationshipDescription, model: ManagedObjectModel)
        throws -> [ManagedObjectID: Set<ManagedObjectID>]
    {
        try relatedQuery.relatedIDs(of: ids, relationship: r, read: related)
    }

    func relatedIDs(of id: ManagedObjectID, relationship r: RelationshipDescription, model: ManagedObjectModel) throws
        -> Set<ManagedObjectID>
    {
        Set(try orderedRelatedIDs(of: id, relationship: r, model: model))
    }

    /// The destinations in the relationship's order: its `Z_FOK_` column, then keys (a row
    /// another writer left without a position comes after the ones that have one).
    func orderedRelatedIDs(of id: ManagedObjectID, relationship r: RelationshipDescription, model: ManagedObjectModel)
        throws -> [ManagedObjectID]
    {
        try relatedQuery.orderedRelatedIDs(of: id, relationship: r, read: related)
    }

    // MARK: Writing

    /// The save's link and order writes (``SQLRelationshipWrites``).
    var relationshipWrites: SQLRelationshipWrites {
        SQLRelationshipWrites(related: relatedQuery, dialect: .sqlite, storeName: url.path)
    }
}
