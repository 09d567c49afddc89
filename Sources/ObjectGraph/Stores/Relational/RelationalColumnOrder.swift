/// The columns of one root entity's table, named and ordered as Core Data writes them.
///
/// The order, read off every table of the stores Apple's Core Data wrote (the tests' AppleFixtures) and of other
/// Apple-written DDL: columns are grouped by kind, in this order: integers (Integer 16/32/64,
/// Boolean, then to-one keys with their `Z<n>_` and `Z_FOK_` columns), dates and floating
/// point numbers together (`ZCREATEDAT TIMESTAMP, ZHEIGHT FLOAT, ZUPDATEDAT TIMESTAMP`), decimals,
/// strings and URIs, binary data and UUIDs, transformable values. Within a group, the root
/// entity's columns come first, then each sub-entity's (pre-order); within an entity, attributes
/// in name order, then to-one relationships in name order. (The fixtures fix every rule but the
/// place of a Decimal, seen once: after `ZPUBLISHEDAT TIMESTAMP`, before `ZTITLE VARCHAR`.)
///
/// Core Data addresses columns by name, so the order matters only to a reader comparing
/// schemas; names matter to everything.
struct RelationalColumnOrder {
    /// The columns an entity declares (its own properties), by property name.
    struct Declared {
        var attributes: [String: String] = [:]
        var toOnes: [String: String] = [:]
        var entityColumns: [String: String] = [:]
        var orderColumns: [String: String] = [:]
    }

    /// The table's columns after Z_PK, Z_ENT, Z_OPT.
    private(set) var columns: [(name: String, type: String)] = []
    /// By entity name: the columns it declares.
    private(set) var declared: [String: Declared] = [:]
    /// The key-column and indexed-attribute indexes of the table.
    private(set) var indexes: [RelationalSchema.Index] = []

    /// The group a column sorts in (see the type's documentation).
    static func group(_ type: AttributeType) -> Int {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return 0
        case .date, .double, .float: return 1
        case .decimal: return 2
        case .string, .uri: return 3
        case .binaryData, .uuid: return 4
        case .transformable, .composite, .undefined, .objectID: return 5
        }
    }

    /// Lays out the table of `hierarchy` (a root and its sub-entities, pre-order). `existing`,
    /// the columns of the table in a store that already exists, leaves out an ordering column
    /// the store does not have (one an earlier ObjectGraph wrote without it).
    init(model: ManagedObjectModel, hierarchy: [EntityDescription], tableName: String, existing: Set<String>?) {
        var taken: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        func column(for name: String) -> String {
            let base = "Z" + name.uppercased()
            var candidate = base
            var n = 1
            while taken.contains(candidate) {
                candidate = base + String(n)
                n += 1
            }
            taken.insert(candidate)
            return candidate
        }
        // Names are given walking the hierarchy, parents first, each entity's properties in
        // the order they are declared (as ObjectGraph always named them, so a store it wrote
        // keeps its columns): a property whose name collides with a column already named gets
        // the suffix.
        var names: [String: [String: String]] = [:] // entity -> property -> column
        for entity in hierarchy {
            for property in entity.properties {
                switch property.kind {
                case .attribute(let a) where !a.isTransient:
                    names[entity.name, default: [:]][a.name] = column(for: a.name)
                case .relationship(let r) where !r.isToMany && !r.isTransient:
                    names[entity.name, default: [:]][r.name] = column(for: r.name)
                default: break
                }
            }
        }
        // Then the columns are listed in Core Data's order: by entity, attributes in name order
        // then to-ones in name order, and finally a stable sort by group.
        var unordered: [(group: Int, name: String, type: String)] = []
        for entity in hierarchy {
            var mine = Declared()
            let attributes = entity.properties.compactMap { p -> AttributeDescription? in
                if let a = p as? AttributeDescription, !a.isTransient { return a }
                return nil
            }.sorted { $0.name < $1.name }
            for a in attributes {
                guard let c = names[entity.name]?[a.name] else { continue }
                mine.attributes[a.name] = c
                unordered.append((Self.group(a.attributeType), c, RelationalSchema.sqlType(a.attributeType)))
                if a.isIndexed {
                    indexes.append(.init(name: "\(tableName)_\(c)_INDEX", table: tableName, columns: [c]))
                }
            }
            let toOnes = entity.properties.compactMap { p -> RelationshipDescription? in
                if let r = p as? RelationshipDescription, !r.isToMany, !r.isTransient { return r }
                return nil
            }.sorted { $0.name < $1.name }
            for r in toOnes {
                guard let c = names[entity.name]?[r.name] else { continue }
                mine.toOnes[r.name] = c
                unordered.append((0, c, "INTEGER"))
                indexes.append(.init(name: "\(tableName)_\(c)_INDEX", table: tableName, columns: [c]))
                if let destination = model.entitiesByName[r.destinationEntityName], !destination.subentityNames.isEmpty
                {
                    let ec = "Z\(destination.entityNumber)_\(r.name.uppercased())"
                    taken.insert(ec)
                    mine.entityColumns[r.name] = ec
                    unordered.append((0, ec, "INTEGER"))
                }
                // The position in the inverse's ordered set: named after the key column
                // (`ZPARENTLIST1` -> `Z_FOK_PARENTLIST1`).
                if let inverse = model.inverseRelationship(of: r), inverse.isToMany, inverse.isOrdered {
                    let oc = "Z_FOK_" + c.dropFirst()
                    if existing == nil || existing!.contains(oc) {
                        taken.insert(oc)
                        mine.orderColumns[r.name] = oc
                        unordered.append((0, oc, "INTEGER"))
                    }
                }
            }
            declared[entity.name] = mine
        }
        columns = unordered.enumerated().sorted { ($0.element.group, $0.offset) < ($1.element.group, $1.offset) }.map {
            ($0.element.name, $0.element.type)
        }
    }
}
