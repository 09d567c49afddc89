import Foundation

/// The SELECT list of a table in Core Data's layout (``RelationalSchema``) and how to turn a
/// row into values for each entity in it: every SQL store reads its rows by one.
struct RelationalRowPlan {
    let table: RelationalSchema.Table
    /// `t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.<column>...`
    let selectList: String
    /// Decoders by entity number (nil for numbers of other tables): an array, so a row's
    /// decoder is found without hashing and without copying an EntityDescription.
    let decoders: [EntityDecoder?]

    enum Kind {
        case attribute(AttributeType)
        case toOne(destination: String, entityColumn: Int?)
    }

    /// How the rows of one entity decode: one slot per property index, in order.
    final class EntityDecoder {
        let entityName: String
        /// nil for a to-many slot (loaded on use); else the column position and how to read it.
        let slots: [(position: Int32, kind: Kind)?]
        /// The attribute slots (the first ones) as plain values, for the loop that runs per
        /// row: reading them costs no reference counting. Position -1: not stored; -2 or
        /// less: a transformable attribute, whose column is at -2 - position (the one
        /// negative test of the loop sends it down the slow path).
        let attributeColumns: [(position: Int32, type: AttributeType)]
        /// The transformable attributes by index, whose data their value transformer reads.
        let transformables: [Int: AttributeDescription]

        init(
            entityName: String, slots: [(position: Int32, kind: Kind)?], attributeCount: Int,
            transformables: [Int: AttributeDescription] = [:]
        ) {
            self.entityName = entityName
            self.slots = slots
            self.transformables = transformables
            attributeColumns = slots.prefix(attributeCount).enumerated().map { i, slot in
                guard let slot, case .attribute(let type) = slot.kind else { return (-1, .string) }
                if transformables[i] != nil { return (-2 - slot.position, type) }
                return (slot.position, type)
            }
        }
    }
}

extension RelationalRowPlan {
    /// The plan of the table `tableName` of `schema`, with a decoder for each entity stored in it.
    init(table tableName: String, schema: RelationalSchema, model: ManagedObjectModel) {
        let table = schema.tables.first { $0.name == tableName }!
        let position = Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($1.name, Int32($0 + 3)) })
        var decoders: [EntityDecoder?] = Array(
            repeating: nil, count: (model.entities.map(\.entityNumber).max() ?? 0) + 1)
        for mapping in schema.entities.values where mapping.tableName == tableName {
            let entity = model.entitiesByName[mapping.entityName]!
            var slots: [(position: Int32, kind: Kind)?] = Array(
                repeating: nil, count: entity.attributes.count + entity.relationships.count)
            var transformables: [Int: AttributeDescription] = [:]
            for (i, a) in entity.attributes.enumerated() {
                guard let c = mapping.attributeColumns[a.name] else { continue }
                slots[i] = (position[c]!, .attribute(a.attributeType))
                if a.attributeType == .transformable { transformables[i] = a }
            }
            for (n, r) in entity.relationships.enumerated() where !r.isToMany {
                guard let c = mapping.toOneColumns[r.name] else { continue }
                let entityColumn = mapping.toOneEntityColumns[r.name].flatMap { position[$0] }.map(Int.init)
                slots[entity.attributes.count + n] = (
                    position[c]!, .toOne(destination: r.destinationEntityName, entityColumn: entityColumn)
                )
            }
            decoders[entity.entityNumber] = EntityDecoder(
                entityName: entity.name, slots: slots, attributeCount: entity.attributes.count,
                transformables: transformables)
        }
        let select = (["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"] + table.columns.map { "t0.\($0.name)" }).joined(
            separator: ", ")
        self.init(table: table, selectList: select, decoders: decoders)
    }
}
