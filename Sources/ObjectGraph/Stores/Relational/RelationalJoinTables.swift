/// The join tables of a model's many-to-many relationships, named as Core Data names them.
///
/// A pair of to-many relationships that are each other's inverse shares one table,
/// `Z_<n><NAME>`, named after one relationship of the pair (the owner's) and the number of the
/// entity that declares it. Its first column, `Z_<n><INVERSE>`, holds the owner entity's keys
/// (the values of the inverse relationship); its second, `Z_<m><NAME>`, the destination's
/// keys; then `Z_FOK_<column>` for each column whose relationship is ordered: the position of
/// that column's object in the other object's ordered set. The second column is indexed
/// (`<TABLE>_<SECOND>_INDEX` on (second, first)). As in contentful's fixture:
/// `Z_2CREATEDENTRIES ( Z_2AUTHORS, Z_4CREATEDENTRIES, Z_FOK_2AUTHORS, Z_FOK_4CREATEDENTRIES )`.
///
/// Which relationship owns the table:
/// - between two entities, the one declared by the entity whose name sorts first (every Apple
///   store seen: Author before Post, Configuration before Repository, Device before Integration);
/// - between an entity and itself, the one whose name sorts last: EasyLife's TodoItem has
///   `blockedBy` and `blocking`, and Core Data made `Z_2BLOCKING ( Z_2BLOCKEDBY, Z_2BLOCKING )`.
///   Other Apple stores seen in forensic tools do not all follow this (Core Data seems to
///   pick by the order of its own property table), so a store that exists is read with the
///   table it has, whichever side names it.
struct RelationalJoinTables {
    /// Join tables by "Entity.relationship" (the declaring entity), both sides of each pair.
    private(set) var byRelationship: [String: RelationalSchema.JoinTable] = [:]
    /// The index of each table's second column.
    private(set) var indexes: [RelationalSchema.Index] = []

    init(model: ManagedObjectModel, existing: RelationalSchema.Layout?) {
        for entity in model.entities {
            for case let r as RelationshipDescription in entity.properties where r.isToMany && !r.isTransient {
                guard let inverse = model.inverseRelationship(of: r), inverse.isToMany,
                    let inverseOwner = model.inverseEntityName(of: r).flatMap({ model.entitiesByName[$0] })
                else { continue }
                let key = "\(entity.name).\(r.name)"
                guard byRelationship[key] == nil else { continue }
                let mineFirst: Bool
                if entity.name == inverseOwner.name {
                    mineFirst = r.name > inverse.name
                } else {
                    mineFirst = entity.name < inverseOwner.name
                }
                var join = Self.table(
                    owner: mineFirst ? entity : inverseOwner, ownerRelationship: mineFirst ? r : inverse,
                    other: mineFirst ? inverseOwner : entity, otherRelationship: mineFirst ? inverse : r)
                // A store that has the other side's table, and not this one, was named the
                // other way: read it as it is.
                if let existing, existing[join.name] == nil {
                    let flipped = Self.table(
                        owner: mineFirst ? inverseOwner : entity, ownerRelationship: mineFirst ? inverse : r,
                        other: mineFirst ? entity : inverseOwner, otherRelationship: mineFirst ? r : inverse)
                    if existing[flipped.name] != nil { join = flipped }
                }
                if let columns = existing?[join.name] {
                    // Ordering columns only where the store has them (an older store may not).
                    join = RelationalSchema.JoinTable(
                        name: join.name, ownerEntity: join.ownerEntity, ownerRelationship: join.ownerRelationship,
                        ownerColumn: join.ownerColumn, destinationColumn: join.destinationColumn,
                        ownerOrderColumn: join.ownerOrderColumn.flatMap { columns.contains($0) ? $0 : nil },
                        destinationOrderColumn: join.destinationOrderColumn.flatMap { columns.contains($0) ? $0 : nil })
                }
                byRelationship["\(join.ownerEntity).\(join.ownerRelationship)"] = join
                let otherKey =
                    join.ownerEntity == entity.name && join.ownerRelationship == r.name
                    ? "\(inverseOwner.name).\(inverse.name)" : key
                byRelationship[otherKey] = join
                indexes.append(
                    .init(
                        name: "\(join.name)_\(join.destinationColumn)_INDEX", table: join.name,
                        columns: [join.destinationColumn, join.ownerColumn]))
            }
        }
    }

    /// The table owned by `ownerRelationship` of `owner`, whose inverse `otherRelationship` is
    /// declared by `other`. Each key column is numbered after the entity that declares the
    /// relationship at the other end: the entity whose keys it holds.
    private static func table(
        owner: EntityDescription, ownerRelationship: RelationshipDescription, other: EntityDescription,
        otherRelationship: RelationshipDescription
    ) -> RelationalSchema.JoinTable {
        let name = "Z_\(owner.entityNumber)\(ownerRelationship.name.uppercased())"
        var ownerColumn = "Z_\(owner.entityNumber)\(otherRelationship.name.uppercased())"
        let destinationColumn = "Z_\(other.entityNumber)\(ownerRelationship.name.uppercased())"
        // Core Data adds a `1` on a collision (`Z_19PARENTGROUPS1`).
        if ownerColumn == destinationColumn { ownerColumn += "1" }
        return RelationalSchema.JoinTable(
            name: name, ownerEntity: owner.name, ownerRelationship: ownerRelationship.name,
            ownerColumn: ownerColumn, destinationColumn: destinationColumn,
            ownerOrderColumn: otherRelationship.isOrdered ? "Z_FOK_" + ownerColumn.dropFirst(2) : nil,
            destinationOrderColumn: ownerRelationship.isOrdered ? "Z_FOK_" + destinationColumn.dropFirst(2) : nil)
    }
}
