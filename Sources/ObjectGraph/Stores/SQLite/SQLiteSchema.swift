/// Where a model's entities live in a SQLite store, named as Core Data names them
/// (reference/coredata.md section 4).
///
/// - One table per inheritance root, `Z<ROOT>`, with `Z_PK`, `Z_ENT`, `Z_OPT`, then a column
///   `Z<NAME>` per stored attribute and to-one relationship of every entity in the hierarchy;
///   a name already taken in the table gets a numeric suffix (`ZTIMESTAMP1`).
/// - A to-one whose destination has sub-entities also records the destination's `Z_ENT`
///   in `Z<n>_<NAME>`, n being the destination entity's number.
/// - A many-to-many pair shares a join table `Z_<n><NAME>` named after the relationship of
///   the entity whose name sorts first; its columns are `Z_<n><INVERSE>` for that entity's
///   keys and `Z_<m><NAME>` for the destination's.
/// - One-to-many has its key on the to-one side only; one-to-one on both sides.
/// - An entity's fetch indexes become `Z_<Entity>_<index name>` indexes (Core Data's names, as
///   seen in Apple stores' DDL); indexes over transient attributes are left out.
struct SQLiteSchema: Sendable {
    /// A table for an inheritance root.
    struct Table: Sendable {
        let name: String
        /// Columns after Z_PK, Z_ENT, Z_OPT, in order, with their declared SQL types.
        var columns: [(name: String, type: String)]
    }

    /// Where one entity's properties are.
    struct EntityMapping: Sendable {
        let entityName: String
        let entityNumber: Int
        let tableName: String
        /// Column per stored attribute name.
        let attributeColumns: [String: String]
        /// Foreign-key column per to-one relationship name.
        let toOneColumns: [String: String]
        /// The `Z<n>_<NAME>` entity column of a to-one whose destination has sub-entities.
        let toOneEntityColumns: [String: String]
        /// The numbers of this entity and its sub-entities: the `Z_ENT` values a fetch with
        /// sub-entities accepts.
        let entityNumbersWithSubentities: [Int]
    }

    /// A join table for a many-to-many pair.
    struct JoinTable: Sendable {
        let name: String
        /// The entity whose relationship names the table, and that relationship.
        let ownerEntity: String
        let ownerRelationship: String
        /// Holds the owner's keys.
        let ownerColumn: String
        /// Holds the destination's keys.
        let destinationColumn: String
    }

    let tables: [Table]
    let entities: [String: EntityMapping]
    /// Join tables by "Entity.relationship", for both sides of each pair.
    let joinTables: [String: JoinTable]
    /// Indexes: name, table, columns.
    let indexes: [(name: String, table: String, columns: [String])]

    init(model: ManagedObjectModel) {
        var tables: [String: Table] = [:]
        var entityMappings: [String: EntityMapping] = [:]
        var joinTables: [String: JoinTable] = [:]
        var indexes: [(name: String, table: String, columns: [String])] = []

        for root in model.entities where root.parentEntityName == nil {
            let tableName = "Z" + root.name.uppercased()
            var table = Table(name: tableName, columns: [])
            var taken: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            func column(for name: String) -> String {
                let base = "Z" + name.uppercased()
                var candidate = base
                var n = 1
                while taken.contains(candidate) { candidate = base + String(n); n += 1 }
                taken.insert(candidate)
                return candidate
            }
            // Columns belong to the entity that declares the property, so a sub-entity reuses
            // its parent's; walk the tree parents first.
            var declaredColumns: [String: [String: String]] = [:]   // entity -> property -> column
            var declaredEntityColumns: [String: [String: String]] = [:]
            for entity in model.entityAndSubentities(of: root.name) {
                var own: [String: String] = [:]
                var ownEntityColumns: [String: String] = [:]
                for property in entity.properties {
                    switch property {
                    case .attribute(let a) where !a.isTransient:
                        let c = column(for: a.name)
                        own[a.name] = c
                        table.columns.append((c, Self.sqlType(a.attributeType)))
                        if a.isIndexed { indexes.append(("\(tableName)_\(c)_INDEX", tableName, [c])) }
                    case .relationship(let r) where !r.isToMany:
                        let c = column(for: r.name)
                        own[r.name] = c
                        table.columns.append((c, "INTEGER"))
                        indexes.append(("\(tableName)_\(c)_INDEX", tableName, [c]))
                        if let destination = model.entitiesByName[r.destinationEntityName], !destination.subentityNames.isEmpty {
                            let ec = "Z\(destination.entityNumber)_\(r.name.uppercased())"
                            taken.insert(ec)
                            ownEntityColumns[r.name] = ec
                            table.columns.append((ec, "INTEGER"))
                        }
                    default:
                        break
                    }
                }
                declaredColumns[entity.name] = own
                declaredEntityColumns[entity.name] = ownEntityColumns
            }
            tables[tableName] = table
            for entity in model.entityAndSubentities(of: root.name) {
                var attributes: [String: String] = [:]
                var toOnes: [String: String] = [:]
                var toOneEntities: [String: String] = [:]
                var ancestor: String? = entity.name
                while let a = ancestor {
                    for (property, c) in declaredColumns[a] ?? [:] {
                        if entity.attribute(named: property) != nil { attributes[property] = c } else { toOnes[property] = c }
                    }
                    for (property, c) in declaredEntityColumns[a] ?? [:] { toOneEntities[property] = c }
                    ancestor = model.entitiesByName[a]?.parentEntityName
                }
                entityMappings[entity.name] = EntityMapping(
                    entityName: entity.name, entityNumber: entity.entityNumber, tableName: tableName,
                    attributeColumns: attributes, toOneColumns: toOnes, toOneEntityColumns: toOneEntities,
                    entityNumbersWithSubentities: model.entityAndSubentities(of: entity.name).map(\.entityNumber))
                // Fetch indexes, named and spelled as Core Data writes them
                // (`Z_<Entity>_<index> ON ZTABLE (ZCOLUMN COLLATE BINARY ASC)`); R-tree ones are not made.
                for index in entity.indexes where index.elements.allSatisfy({ $0.indexType == .binary }) {
                    let columns = index.elements.compactMap { e in
                        (attributes[e.propertyName] ?? toOnes[e.propertyName]).map { "\($0) COLLATE BINARY \(e.isAscending ? "ASC" : "DESC")" }
                    }
                    if columns.count == index.elements.count { indexes.append(("Z_\(entity.name)_\(index.name)", tableName, columns)) }
                }
            }
        }
        // Many-to-many join tables, one per pair.
        for entity in model.entities {
            for r in entity.properties.compactMap({ p -> RelationshipDescription? in
                if case .relationship(let r) = p, r.isToMany { return r }
                return nil
            }) {
                guard let destination = model.entitiesByName[r.destinationEntityName],
                      let inverse = model.inverseRelationship(of: r), inverse.isToMany else { continue }
                let key = "\(entity.name).\(r.name)"
                guard joinTables[key] == nil else { continue }
                // The relationship of the entity whose name sorts first names the table.
                let ownerIsThis = entity.name < destination.name || (entity.name == destination.name && r.name <= inverse.name)
                let (owner, ownerRel, other, otherRel) = ownerIsThis
                    ? (entity, r, destination, inverse) : (destination, inverse, entity, r)
                let tableName = "Z_\(owner.entityNumber)\(ownerRel.name.uppercased())"
                var ownerColumn = "Z_\(owner.entityNumber)\(otherRel.name.uppercased())"
                let destinationColumn = "Z_\(other.entityNumber)\(ownerRel.name.uppercased())"
                if ownerColumn == destinationColumn { ownerColumn += "1" }
                let join = JoinTable(name: tableName, ownerEntity: owner.name, ownerRelationship: ownerRel.name,
                                     ownerColumn: ownerColumn, destinationColumn: destinationColumn)
                joinTables["\(owner.name).\(ownerRel.name)"] = join
                joinTables["\(other.name).\(otherRel.name)"] = join
                indexes.append(("\(tableName)_\(destinationColumn)_INDEX", tableName, [destinationColumn, ownerColumn]))
            }
        }
        self.tables = tables.values.sorted { $0.name < $1.name }
        self.entities = entityMappings
        self.joinTables = joinTables
        self.indexes = indexes.sorted { $0.name < $1.name }
    }

    /// The declared column type Core Data uses for an attribute type.
    static func sqlType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .decimal: return "DECIMAL"
        case .string, .uri: return "VARCHAR"
        case .date: return "TIMESTAMP"
        case .binaryData, .uuid: return "BLOB"
        // Core Data keeps a transformable value as its transformed data. The other types have
        // no column of their own (transient Undefined, composites' elements): BLOB is never used.
        case .transformable, .composite, .undefined, .objectID: return "BLOB"
        }
    }

    /// The statements that create the store's tables and indexes.
    var creationStatements: [String] {
        var statements = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
        for table in tables {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + table.columns.map { "\($0.name) \($0.type)" }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        var seenJoins: Set<String> = []
        for join in joinTables.values.sorted(by: { $0.name < $1.name }) where seenJoins.insert(join.name).inserted {
            statements.append("CREATE TABLE \(join.name) ( \(join.ownerColumn) INTEGER, \(join.destinationColumn) INTEGER, PRIMARY KEY (\(join.ownerColumn), \(join.destinationColumn)) )")
        }
        for index in indexes {
            statements.append("CREATE INDEX \(index.name) ON \(index.table) (\(index.columns.joined(separator: ", ")))")
        }
        return statements
    }
}
