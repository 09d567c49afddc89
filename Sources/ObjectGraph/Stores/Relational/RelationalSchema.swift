/// Core Data's table layout: where a model's entities live in an SQL store (SQLite's file, or
/// PostgreSQL's schema through ``PostgresSchema``), named and laid out as Core Data lays them
/// out (<doc:OpeningStoresThatCoreDataWrote>; the stores Apple's Core Data wrote that
/// Tests/ObjectGraphTests/AppleFixtures reads decide the details).
///
/// - One table per inheritance root, `Z<ROOT>`, with `Z_PK`, `Z_ENT`, `Z_OPT`, then a column
///   `Z<NAME>` per stored attribute and to-one relationship of every entity in the hierarchy;
///   a name already taken in the table gets a numeric suffix (`ZTIMESTAMP1`). Columns come in
///   Core Data's order (``RelationalColumnOrder``).
/// - A to-one whose destination has sub-entities also records the destination's `Z_ENT`
///   in `Z<n>_<NAME>`, n being the destination entity's number.
/// - A to-one whose inverse is an ordered to-many also records its position in that ordered
///   set in `Z_FOK_<NAME>`, right after it (`ZWORKOUT, Z_FOK_WORKOUT`).
/// - A many-to-many pair shares a join table (``RelationalJoinTables``), with a `Z_FOK_` column
///   for each side that is ordered.
/// - One-to-many has its key on the to-one side only; one-to-one on both sides.
/// - Indexes: each to-one's key column and each indexed attribute (`<TABLE>_<COLUMN>_INDEX`),
///   `Z_ENT` of a table that holds several entities (`<TABLE>_Z_ENT_INDEX`), each fetch index
///   (`Z_<Entity>_<index>`), each uniqueness constraint (a UNIQUE `Z_<Entity>_UNIQUE_<a>_<b>`),
///   each join table's second column; indexes over transient attributes are left out.
/// - Triggers: Core Data's, for a derived attribute that counts a one-to-many.
struct RelationalSchema: Sendable {
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
        /// The `Z_FOK_<NAME>` column of a to-one whose inverse is an ordered to-many: the
        /// row's position in its owner's ordered set.
        let toOneOrderColumns: [String: String]
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
        /// Holds the owner's keys (the values of the other side's relationship).
        let ownerColumn: String
        /// Holds the destination's keys (the values of the owner's relationship).
        let destinationColumn: String
        /// `Z_FOK_` + the owner column's name: the owner's position in the other side's
        /// relationship, when that one is ordered.
        let ownerOrderColumn: String?
        /// The destination's position in the owner's relationship, when that one is ordered.
        let destinationOrderColumn: String?

        /// The columns of this table for a relationship `relationship` of `entity` (one of
        /// the pair): the source's keys, the destination's keys, and the column that orders
        /// the destinations, if any.
        func columns(isOwnerSide: Bool) -> (mine: String, theirs: String, order: String?) {
            isOwnerSide
                ? (ownerColumn, destinationColumn, destinationOrderColumn)
                : (destinationColumn, ownerColumn, ownerOrderColumn)
        }
    }

    /// An index: its name, table, columns (with collation and order where Core Data writes them)
    /// and whether it is UNIQUE.
    struct Index: Sendable {
        let name: String
        let table: String
        let columns: [String]
        var isUnique = false
    }

    /// The names of an existing store's tables and their columns, so that a store Core Data
    /// wrote is read as it is where the rules here guess (which side of a relationship between
    /// an entity and itself names the join table), and an older store without ordering columns
    /// is read without them.
    typealias Layout = [String: Set<String>]

    let tables: [Table]
    /// The triggers Core Data creates to keep derived counts (``RelationalDerivedAttributes``).
    private(set) var triggers: [(name: String, sql: String)]
    let entities: [String: EntityMapping]
    /// Join tables by "Entity.relationship", for both sides of each pair.
    let joinTables: [String: JoinTable]
    let indexes: [Index]

    init(model: ManagedObjectModel, existing: Layout? = nil) {
        var tables: [Table] = []
        var entityMappings: [String: EntityMapping] = [:]
        var indexes: [Index] = []
        let joins = RelationalJoinTables(model: model, existing: existing)

        for root in model.entities where root.parentEntityName == nil {
            let tableName = "Z" + root.name.uppercased()
            let hierarchy = model.entityAndSubentities(of: root.name)
            let order = RelationalColumnOrder(
                model: model, hierarchy: hierarchy, tableName: tableName, existing: existing?[tableName])
            tables.append(Table(name: tableName, columns: order.columns))
            indexes += order.indexes
            if hierarchy.count > 1 {
                indexes.append(Index(name: "\(tableName)_Z_ENT_INDEX", table: tableName, columns: ["Z_ENT"]))
            }
            for entity in hierarchy {
                // An entity sees its own columns and its ancestors'.
                var attributes: [String: String] = [:]
                var toOnes: [String: String] = [:]
                var entityColumns: [String: String] = [:]
                var orderColumns: [String: String] = [:]
                var ancestor: String? = entity.name
                while let a = ancestor {
                    let declared = order.declared[a] ?? RelationalColumnOrder.Declared()
                    attributes.merge(declared.attributes) { mine, _ in mine }
                    toOnes.merge(declared.toOnes) { mine, _ in mine }
                    entityColumns.merge(declared.entityColumns) { mine, _ in mine }
                    orderColumns.merge(declared.orderColumns) { mine, _ in mine }
                    ancestor = model.entitiesByName[a]?.parentEntityName
                }
                entityMappings[entity.name] = EntityMapping(
                    entityName: entity.name, entityNumber: entity.entityNumber, tableName: tableName,
                    attributeColumns: attributes, toOneColumns: toOnes, toOneEntityColumns: entityColumns,
                    toOneOrderColumns: orderColumns,
                    entityNumbersWithSubentities: model.entityAndSubentities(of: entity.name).map(\.entityNumber))
                indexes += Self.declaredIndexes(
                    of: entity, tableName: tableName, attributes: attributes, toOnes: toOnes)
            }
        }
        indexes += joins.indexes
        self.tables = tables.sorted { $0.name < $1.name }
        self.entities = entityMappings
        self.joinTables = joins.byRelationship
        self.indexes = indexes.sorted { $0.name < $1.name }
        self.triggers = []
        self.triggers = RelationalDerivedAttributes.countTriggers(model: model, schema: self)
    }

    /// An entity's fetch indexes and uniqueness constraints, named and spelled as Core Data
    /// writes them (`Z_<Entity>_<index> ON ZTABLE (ZCOLUMN COLLATE BINARY ASC)`); R-tree
    /// indexes and ones over a property without a column are not made.
    static func declaredIndexes(
        of entity: EntityDescription, tableName: String, attributes: [String: String], toOnes: [String: String]
    ) -> [Index] {
        var result: [Index] = []
        for index in entity.indexes where index.elements.allSatisfy({ $0.indexType == .binary }) {
            let columns = index.elements.compactMap { e in
                (attributes[e.propertyName] ?? toOnes[e.propertyName]).map {
                    "\($0) COLLATE BINARY \(e.isAscending ? "ASC" : "DESC")"
                }
            }
            if columns.count == index.elements.count {
                result.append(Index(name: "Z_\(entity.name)_\(index.name)", table: tableName, columns: columns))
            }
        }
        // Only the constraints the entity declares: its parent's are the parent's indexes.
        for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
            let columns = constraint.compactMap { (attributes[$0] ?? toOnes[$0]).map { "\($0) COLLATE BINARY ASC" } }
            guard columns.count == constraint.count else { continue }
            result.append(
                Index(
                    name: "Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))", table: tableName,
                    columns: columns, isUnique: true))
        }
        return result
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

    /// The join tables, each once, in name order.
    var distinctJoinTables: [JoinTable] {
        var seen: Set<String> = []
        return joinTables.values.sorted { $0.name < $1.name }.filter { seen.insert($0.name).inserted }
    }

    /// The statements that create the store's tables and indexes.
    var creationStatements: [String] {
        var statements = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
        for table in tables {
            let columns =
                ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + table.columns.map { "\($0.name) \($0.type)" }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        for join in distinctJoinTables {
            let columns = [
                join.ownerColumn, join.destinationColumn, join.ownerOrderColumn, join.destinationOrderColumn,
            ].compactMap { $0 }
            statements.append(
                "CREATE TABLE \(join.name) ( \(columns.map { "\($0) INTEGER" }.joined(separator: ", ")), PRIMARY KEY (\(join.ownerColumn), \(join.destinationColumn)) )"
            )
        }
        for index in indexes {
            statements.append(
                "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(index.columns.joined(separator: ", ")))"
            )
        }
        return statements + triggers.map(\.sql)
    }
}
