import Foundation
import GRDB

/// The statements a save writes for to-many relationships over Core Data's table layout, shared by
/// the SQLite and the PostgreSQL stores: many-to-many links added and removed in join tables,
/// and each changed ordered relationship's order in its `Z_FOK_` column (1, 2, 3...). Core
/// Data's own spacing of these values is not documented and no fixture store has rows in an
/// ordered relationship; only their order matters to a reader, Core Data's included.
struct SQLRelationshipWrites {
    let related: SQLRelatedQuery
    /// Whose SQL: adding a link that exists changes nothing, spelled per engine.
    let dialect: SQLDialect
    /// The store as messages name it (a file's path, a URL without its password).
    let storeName: String

    /// Adds and removes many-to-many links. A link comes from either side of its pair (its
    /// relationship names the side): the owner's keys go to the owner column either way.
    func applyLinks(_ changes: StoreChanges, statements: SQLStoreStatements) throws {
        func columns(_ link: (relationship: String, source: ManagedObjectID, destination: ManagedObjectID)) throws -> (
            RelationalSchema.JoinTable, [DatabaseValue]
        ) {
            guard let join = related.schema.joinTables[link.relationship] else {
                throw CoreDataError(
                    .persistentStoreIncompatibleSchema,
                    "The store at \(storeName) has no join table for \(link.relationship)")
            }
            let fromOwner = link.relationship == "\(join.ownerEntity).\(join.ownerRelationship)"
            let (owner, other) = fromOwner ? (link.source, link.destination) : (link.destination, link.source)
            return (join, [owner.primaryKey.databaseValue, other.primaryKey.databaseValue])
        }
        for link in changes.linksRemoved {
            let (join, values) = try columns(link)
            try statements.execute(
                "DELETE FROM \(join.name) WHERE \(join.ownerColumn) = ? AND \(join.destinationColumn) = ?", values)
        }
        for link in changes.linksAdded {
            let (join, values) = try columns(link)
            switch dialect {
            case .sqlite:
                try statements.execute(
                    "INSERT OR IGNORE INTO \(join.name) (\(join.ownerColumn), \(join.destinationColumn)) VALUES (?, ?)",
                    values)
            case .postgres:
                try statements.execute(
                    "INSERT INTO \(join.name) (\(join.ownerColumn), \(join.destinationColumn)) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    values)
            }
        }
    }

    /// Writes each changed ordered relationship's order: 1, 2, 3... in its `Z_FOK_` column
    /// (the destination table's, or the join table's).
    func applyOrderings(
        _ orderings: [(relationship: String, source: ManagedObjectID, order: [ManagedObjectID])],
        statements: SQLStoreStatements
    ) throws {
        let model = related.model
        let schema = related.schema
        for ordering in orderings {
            let parts = ordering.relationship.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let entity = model.entitiesByName[parts[0]],
                let r = entity.relationship(named: parts[1]),
                let destination = schema.entities[r.destinationEntityName]
            else { continue }
            if let (join, columns) = related.joinColumns(of: r, entity: entity.name) {
                guard let order = columns.order else { continue }
                for (position, id) in ordering.order.enumerated() {
                    try statements.execute(
                        "UPDATE \(join.name) SET \(order) = ? WHERE \(columns.mine) = ? AND \(columns.theirs) = ?",
                        [
                            (position + 1).databaseValue, ordering.source.primaryKey.databaseValue,
                            id.primaryKey.databaseValue,
                        ])
                }
            } else {
                let fk = try related.inverseColumns(of: r, source: entity.name, destination: destination)
                guard let order = fk.order else { continue }
                for (position, id) in ordering.order.enumerated() {
                    try statements.execute(
                        "UPDATE \(destination.tableName) SET \(order) = ? WHERE Z_PK = ? AND \(fk.key) = ?",
                        [
                            (position + 1).databaseValue, id.primaryKey.databaseValue,
                            ordering.source.primaryKey.databaseValue,
                        ])
                }
            }
        }
    }
}
