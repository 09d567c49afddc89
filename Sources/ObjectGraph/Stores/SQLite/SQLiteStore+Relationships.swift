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
    func joinColumns(of r: RelationshipDescription, entity: String) -> (table: SQLiteSchema.JoinTable, columns: (mine: String, theirs: String, order: String?))? {
        relatedQuery.joinColumns(of: r, entity: entity)
    }

    private func inverseColumns(of r: RelationshipDescription, source: String, destination: SQLiteSchema.EntityMapping) throws -> (key: String, order: String?) {
        try relatedQuery.inverseColumns(of: r, source: source, destination: destination)
    }

    /// Runs a related-IDs query; returns (source key, destination ID) pairs in the query's order.
    private func related(_ sql: String, _ values: [DatabaseValue], destination: EntityDescription, what: String) throws -> [(Int64, ManagedObjectID)] {
        let rows = try CoreDataError.mappingSQLite(what, url) {
            try log.measure(sql: sql, arguments: values) {
                // One statement per relationship is cached; the batch forms vary with their size.
                try database.read { db in
                    try Row.fetchAll(values.count == 1 ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql), arguments: StatementArguments(values))
                }
            } rowCount: { $0.count }
        }
        return rows.compactMap { row in
            let number: Int = row[2]
            // A row of another entity of the destination's table is not a destination.
            guard let entity = model.entitiesByNumber[number], model.isEntity(entity.name, kindOf: destination.name) else { return nil }
            return (row[0], ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: row[1]))
        }
    }

    func relatedIDs(of ids: [ManagedObjectID], relationship r: RelationshipDescription, model: ManagedObjectModel) throws -> [ManagedObjectID: Set<ManagedObjectID>] {
        try relatedQuery.relatedIDs(of: ids, relationship: r, read: related)
    }

    func relatedIDs(of id: ManagedObjectID, relationship r: RelationshipDescription, model: ManagedObjectModel) throws -> Set<ManagedObjectID> {
        Set(try orderedRelatedIDs(of: id, relationship: r, model: model))
    }

    /// The destinations in the relationship's order: its `Z_FOK_` column, then keys (a row
    /// another writer left without a position comes after the ones that have one).
    func orderedRelatedIDs(of id: ManagedObjectID, relationship r: RelationshipDescription, model: ManagedObjectModel) throws -> [ManagedObjectID] {
        try relatedQuery.orderedRelatedIDs(of: id, relationship: r, read: related)
    }

    // MARK: Writing

    /// Adds and removes many-to-many links. A link comes from either side of its pair (its
    /// relationship names the side): the owner's keys go to the owner column either way.
    func applyLinks(_ changes: StoreChanges, db: Database) throws {
        func columns(_ link: (relationship: String, source: ManagedObjectID, destination: ManagedObjectID)) throws -> (SQLiteSchema.JoinTable, [DatabaseValue]) {
            guard let join = schema.joinTables[link.relationship] else {
                throw CoreDataError(.persistentStoreIncompatibleSchema, "The store at \(url.path) has no join table for \(link.relationship)")
            }
            let fromOwner = link.relationship == "\(join.ownerEntity).\(join.ownerRelationship)"
            let (owner, other) = fromOwner ? (link.source, link.destination) : (link.destination, link.source)
            return (join, [owner.primaryKey.databaseValue, other.primaryKey.databaseValue])
        }
        for link in changes.linksRemoved {
            let (join, values) = try columns(link)
            try execute(db, "DELETE FROM \(join.name) WHERE \(join.ownerColumn) = ? AND \(join.destinationColumn) = ?", values)
        }
        for link in changes.linksAdded {
            let (join, values) = try columns(link)
            try execute(db, "INSERT OR IGNORE INTO \(join.name) (\(join.ownerColumn), \(join.destinationColumn)) VALUES (?, ?)", values)
        }
    }

    /// Writes each changed ordered relationship's order: 1, 2, 3... in its `Z_FOK_` column
    /// (the destination table's, or the join table's). Core Data's own spacing of these values
    /// is not documented and no fixture store has rows in an ordered relationship; only their
    /// order matters to a reader, Core Data's included.
    func applyOrderings(_ orderings: [(relationship: String, source: ManagedObjectID, order: [ManagedObjectID])], db: Database) throws {
        for ordering in orderings {
            let parts = ordering.relationship.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let entity = model.entitiesByName[parts[0]], let r = entity.relationship(named: parts[1]),
                  let destination = schema.entities[r.destinationEntityName] else { continue }
            if let (join, columns) = joinColumns(of: r, entity: entity.name) {
                guard let order = columns.order else { continue }
                for (position, id) in ordering.order.enumerated() {
                    try execute(db, "UPDATE \(join.name) SET \(order) = ? WHERE \(columns.mine) = ? AND \(columns.theirs) = ?",
                                [(position + 1).databaseValue, ordering.source.primaryKey.databaseValue, id.primaryKey.databaseValue])
                }
            } else {
                let fk = try inverseColumns(of: r, source: entity.name, destination: destination)
                guard let order = fk.order else { continue }
                for (position, id) in ordering.order.enumerated() {
                    try execute(db, "UPDATE \(destination.tableName) SET \(order) = ? WHERE Z_PK = ? AND \(fk.key) = ?",
                                [(position + 1).databaseValue, id.primaryKey.databaseValue, ordering.source.primaryKey.databaseValue])
                }
            }
        }
    }
}
