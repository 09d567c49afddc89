import Foundation
import GRDB

/// The SQL that migrates an SQL store (SQLite, or PostgreSQL in its dialect) in place for an
/// inferred mapping model (Apple's "Lightweight Migration": "Core Data can perform the
/// migration in situ, solely by issuing SQL statements").
///
/// A table whose rows keep their entities and whose columns are kept, renamed or added is
/// altered where it is (`ALTER TABLE ... ADD COLUMN` runs in constant time, with the new
/// attribute's default as the column default); any other table is rebuilt with one
/// `INSERT ... SELECT`. Relationships whose storage changed (to-one to to-many, say) are
/// rewritten from the links the source stores. Objects keep their primary keys.
///
/// The plan is the same for the PostgreSQL store, whose layout is SQLite's
/// (``PostgresSchema``): only the words differ (column types, `ON CONFLICT DO NOTHING`, byte
/// literals, no triggers), chosen by ``dialect``; ``SQLiteInPlaceMigration`` and
/// ``PostgresMigration`` execute it.
struct RelationalMigrationPlan {
    /// The statements in order; each with a label for progress.
    var statements: [(label: String, sql: String)] = []

    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    let sourceSchema: RelationalSchema
    let destinationSchema: RelationalSchema
    /// The SQL the statements are written in.
    let dialect: SQLDialect

    /// Where each destination entity's rows and values come from.
    private var sourceEntityFor: [String: String] = [:]
    // destination entity -> destination property -> source key
    private var propertySource: [String: [String: String]] = [:]

    /// The plan, or nil when the mapping model is not one SQL can run (a policy, an
    /// expression other than a plain source key): such mappings run through a MigrationManager.
    init?(
        source: ManagedObjectModel, destination: ManagedObjectModel, mapping: MappingModel,
        dialect: SQLDialect = .sqlite
    ) {
        self.source = source
        self.destination = destination
        self.dialect = dialect
        sourceSchema = RelationalSchema(model: source)
        destinationSchema = RelationalSchema(model: destination)
        for m in mapping.entityMappings {
            guard m.entityMigrationPolicyType == nil,
                m.entityMigrationPolicyClassName == nil || m.entityMigrationPolicyClassName == ""
            else { return nil }
            switch m.mappingType {
            case .add, .remove: continue
            case .copy, .transform: break
            case .custom, .undefined: return nil
            }
            guard let s = m.sourceEntityName, let d = m.destinationEntityName, source.entitiesByName[s] != nil,
                destination.entitiesByName[d] != nil
            else { return nil }
            if let e = m.sourceExpression {
                guard case .function("FETCH", let args) = e, args.count == 3,
                    case .customFunction(_, "fetchRequestForSourceEntityNamed:predicateString:", let fargs) = args[0],
                    fargs.count == 2, case .constant(.string(let p)) = fargs[1], p == "TRUEPREDICATE"
                else { return nil }
            }
            sourceEntityFor[d] = s
            var properties: [String: String] = [:]
            for pm in m.attributeMappings + m.relationshipMappings {
                guard let e = pm.valueExpression else { continue }
                guard let key = Self.sourceKey(e) else { return nil }
                properties[pm.name] = key
            }
            propertySource[d] = properties
        }
        guard build() else { return nil }
    }

    /// The source entity whose rows become a destination entity's.
    func sourceEntity(for destinationEntity: String) -> String? { sourceEntityFor[destinationEntity] }

    /// The source key a plain value expression reads: `$source.k`, `FUNCTION($source,
    /// "valueForKey:", "k")`, or a manager lookup of `$source.k`.
    static func sourceKey(_ e: Expression) -> String? {
        switch e {
        case .member(.variable("source"), let k) where !k.contains("."): return k
        case .customFunction(.variable("source"), "valueForKey:", let a):
            if a.count == 1, case .constant(.string(let k)) = a[0] { return k }
            return nil
        case .customFunction(
            .variable("manager"), "destinationInstancesForSourceRelationshipNamed:sourceInstances:", let a):
            if a.count == 2, case .constant(.string(let k)) = a[0] { return k }
            return nil
        case .customFunction(.variable("manager"), "destinationInstancesForEntityMappingNamed:sourceInstances:", let a):
            return a.count == 2 ? sourceKey(a[1]) : nil
        default: return nil
        }
    }

    // MARK: Building

    private struct ColumnSource {
        var sql: String? // expression over source row `t`; nil: NULL
        var directColumn: String? // when the value is exactly a source column
        var defaultLiteral: String? // the new attribute's default, for ADD COLUMN
        var coalesce: String? // optional -> required with default
    }

    private mutating func build() -> Bool {
        var creates: [(String, String)] = []
        var inserts: [(String, String)] = []
        var adds: [(String, String)] = []
        var updates: [(String, String)] = []
        var renames: [(String, String)] = []
        var coalesces: [(String, String)] = []
        var drops: [(String, String)] = []
        var finalRenames: [(String, String)] = []
        var indexes: [(String, String)] = []
        var keptTables: Set<String> = []
        let creation =
            dialect == .sqlite
            ? destinationSchema.creationStatements : PostgresSchema.creationStatements(for: destinationSchema)

        for table in destinationSchema.tables {
            let entities = destinationSchema.entities.values.filter { $0.tableName == table.name }
            let mapped = entities.compactMap { e -> (d: RelationalSchema.EntityMapping, s: String)? in
                sourceEntityFor[e.entityName].map { (e, $0) }
            }
            let sourceTables = Set(mapped.compactMap { sourceSchema.entities[$0.s]?.tableName })
            guard sourceTables.count <= 1 else { return false }
            let createSQL = creation.first { $0.hasPrefix("CREATE TABLE \(table.name) (") }!
            guard let sourceTableName = sourceTables.first,
                let sourceTable = sourceSchema.tables.first(where: { $0.name == sourceTableName })
            else {
                creates.append(("create \(table.name)", createSQL))
                continue
            }
            // Each destination column's value, by the entities whose rows have it.
            var columns: [(name: String, type: String, source: ColumnSource)] = []
            for column in table.columns {
                guard let value = columnSource(column.name, table: table.name, mapped: mapped) else { return false }
                columns.append((column.name, column.type, value))
            }
            let entityCase = mapped.map {
                "WHEN \(source.entitiesByName[$0.s]!.entityNumber) THEN \($0.d.entityNumber)"
            }.joined(separator: " ")
            let sourceNumbers = mapped.map { source.entitiesByName[$0.s]!.entityNumber }
            let identityEntities = mapped.allSatisfy { source.entitiesByName[$0.s]!.entityNumber == $0.d.entityNumber }
            let sourceEntitiesInTable = Set(
                sourceSchema.entities.values.filter { $0.tableName == sourceTableName }.map(\.entityName))
            let allRowsKept = sourceEntitiesInTable == Set(mapped.map(\.s))
            // In place: same table, same rows, every source column kept (maybe renamed), and
            // the entity columns unchanged.
            let sourceColumnNames = Set(sourceTable.columns.map(\.name))
            var used: Set<String> = []
            var inPlace = sourceTableName == table.name && allRowsKept
            for c in columns {
                if let d = c.source.directColumn {
                    if used.contains(d) { inPlace = false }
                    used.insert(d)
                    if d != c.name && sourceColumnNames.contains(c.name) { inPlace = false }
                    if sourceTable.columns.first(where: { $0.name == d })?.type != c.type { inPlace = false }
                } else if sourceColumnNames.contains(c.name) {
                    inPlace = false
                }
            }
            if used != sourceColumnNames { inPlace = false }
            if inPlace {
                keptTables.insert(table.name)
                if !identityEntities {
                    updates.append(
                        (
                            "renumber \(table.name)",
                            "UPDATE \(table.name) SET Z_ENT = CASE Z_ENT \(entityCase) ELSE Z_ENT END"
                        ))
                }
                for c in columns {
                    if let d = c.source.directColumn {
                        if d != c.name {
                            renames.append(
                                (
                                    "rename \(table.name).\(d)",
                                    "ALTER TABLE \(table.name) RENAME COLUMN \(d) TO \(c.name)"
                                ))
                        }
                    } else {
                        let def = c.source.defaultLiteral.map { " DEFAULT \($0)" } ?? ""
                        adds.append(
                            (
                                "add \(table.name).\(c.name)",
                                "ALTER TABLE \(table.name) ADD COLUMN \(c.name) \(columnType(c.type))\(def)"
                            ))
                        if let sql = c.source.sql, c.source.defaultLiteral == nil {
                            updates.append(
                                ("fill \(table.name).\(c.name)", "UPDATE \(table.name) AS t SET \(c.name) = \(sql)"))
                        }
                    }
                    if let literal = c.source.coalesce {
                        coalesces.append(
                            (
                                "default \(table.name).\(c.name)",
                                "UPDATE \(table.name) SET \(c.name) = \(literal) WHERE \(c.name) IS NULL"
                            ))
                    }
                }
                for index in sourceSchema.indexes
                where index.table == table.name && !destinationSchema.indexes.contains(where: { $0.name == index.name })
                {
                    drops.append(("drop index \(index.name)", "DROP INDEX IF EXISTS \(index.name)"))
                }
                for index in destinationSchema.indexes
                where index.table == table.name
                    && !sourceSchema.indexes.contains(where: {
                        $0.name == index.name && $0.table == table.name && $0.columns == index.columns
                    })
                {
                    indexes.append(("index \(index.name)", creationSQL(of: index)))
                }
                continue
            }
            // Rebuild: a new table filled with one INSERT ... SELECT.
            let temporary = table.name + "_OGMIGRATE"
            creates.append(
                (
                    "create \(temporary)",
                    createSQL.replacingOccurrences(
                        of: "CREATE TABLE \(table.name) (", with: "CREATE TABLE \(temporary) (")
                ))
            var selectList = ["t.Z_PK", identityEntities ? "t.Z_ENT" : "CASE t.Z_ENT \(entityCase) END", "t.Z_OPT"]
            for c in columns {
                var value = c.source.sql ?? c.source.defaultLiteral ?? "NULL"
                if let literal = c.source.coalesce { value = "COALESCE(\(value), \(literal))" }
                selectList.append(value)
            }
            let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.name)
            inserts.append(
                (
                    "copy \(table.name)",
                    "INSERT INTO \(temporary) (\(names.joined(separator: ", "))) SELECT \(selectList.joined(separator: ", ")) FROM \(sourceTableName) t WHERE t.Z_ENT IN (\(sourceNumbers.map(String.init).joined(separator: ", ")))"
                ))
            finalRenames.append(("rename \(temporary)", "ALTER TABLE \(temporary) RENAME TO \(table.name)"))
            for index in destinationSchema.indexes where index.table == table.name {
                indexes.append(("index \(index.name)", creationSQL(of: index)))
            }
        }

        // Many-to-many join tables.
        var seenJoins: Set<String> = []
        var keptJoins: Set<String> = []
        for join in destinationSchema.joinTables.values.sorted(by: { $0.name < $1.name })
        where seenJoins.insert(join.name).inserted {
            let createSQL = creation.first { $0.hasPrefix("CREATE TABLE \(join.name) (") }!
            guard let ownerSource = sourceEntityFor[join.ownerEntity],
                let key = propertySource[join.ownerEntity]?[join.ownerRelationship],
                let links = linkSelect(entity: ownerSource, key: key)
            else {
                creates.append(("create \(join.name)", createSQL))
                continue
            }
            if let sourceJoin = sourceSchema.joinTables["\(source.declaringEntity(of: key, in: ownerSource)).\(key)"],
                sourceJoin.name == join.name,
                sourceJoin.ownerColumn == join.ownerColumn, sourceJoin.destinationColumn == join.destinationColumn,
                sourceJoin.ownerEntity == ownerSource, sourceJoin.ownerRelationship == key
            {
                keptJoins.insert(join.name)
                continue
            }
            let temporary = join.name + "_OGMIGRATE"
            creates.append(
                (
                    "create \(temporary)",
                    createSQL.replacingOccurrences(
                        of: "CREATE TABLE \(join.name) (", with: "CREATE TABLE \(temporary) (")
                ))
            let copy =
                "INTO \(temporary) (\(join.ownerColumn), \(join.destinationColumn)) SELECT l.a, l.b FROM (\(links)) l"
            inserts.append(
                (
                    "copy \(join.name)",
                    dialect == .sqlite ? "INSERT OR IGNORE \(copy)" : "INSERT \(copy) ON CONFLICT DO NOTHING"
                ))
            finalRenames.append(("rename \(temporary)", "ALTER TABLE \(temporary) RENAME TO \(join.name)"))
            for index in destinationSchema.indexes where index.table == join.name {
                indexes.append(("index \(index.name)", creationSQL(of: index)))
            }
        }
        // Source tables that were not kept go.
        let sourceJoinNames = Set(sourceSchema.joinTables.values.map(\.name))
        for name in sourceSchema.tables.map(\.name) + sourceJoinNames.sorted()
        where !keptTables.contains(name) && !keptJoins.contains(name) {
            drops.append(("drop \(name)", "DROP TABLE IF EXISTS \(name)"))
        }
        // Derived attributes: the source's count triggers go first (their tables and columns
        // may change), the destination's come last, and every derived value is computed
        // again over the migrated rows.
        guard let derived = try? RelationalDerivedAttributes(model: destination, schema: destinationSchema) else {
            return false
        }
        // The triggers are SQLite's syntax: a PostgreSQL store has none (PostgresSchema), and
        // its derived values in SQLite's SQL go through the migration manager instead.
        let hasTriggers = dialect == .sqlite
        if !hasTriggers, derived.computed.contains(where: { $0.value.arguments.isEmpty && !$0.isNow }) { return false }
        let dropTriggers =
            hasTriggers
            ? sourceSchema.triggers.map { ("drop trigger \($0.name)", "DROP TRIGGER IF EXISTS \($0.name)") } : []
        var derivedValues = hasTriggers ? destinationSchema.triggers.map { ("trigger \($0.name)", $0.sql) } : []
        for entity in destination.entities {
            for case let a as AttributeDescription in entity.properties where a.isDerived && !a.isTransient {
                guard
                    let (table, key) = RelationalDerivedAttributes.countedOneToMany(
                        a, of: entity, model: destination, schema: destinationSchema),
                    let mapping = destinationSchema.entities[entity.name], let c = mapping.attributeColumns[a.name]
                else { continue }
                derivedValues.append(
                    (
                        "count \(entity.name).\(a.name)",
                        "UPDATE \(mapping.tableName) SET \(c) = (SELECT COUNT(\(key)) FROM \(table) WHERE \(key) = \(mapping.tableName).Z_PK) WHERE Z_ENT IN (\(destination.entityAndSubentities(of: entity.name).map { String($0.entityNumber) }.joined(separator: ", ")))"
                    ))
            }
        }
        for c in derived.computed where c.value.arguments.isEmpty && !c.isNow {
            let from = (["\(c.table) t0"] + c.joins).joined(separator: " ")
            let numbers = destination.entityAndSubentities(of: c.entity.name).map { String($0.entityNumber) }.joined(
                separator: ", ")
            derivedValues.append(
                (
                    "derive \(c.entity.name).\(c.attribute.name)",
                    "UPDATE \(c.table) SET \(c.column) = (SELECT \(c.value.sql) FROM \(from) WHERE t0.Z_PK = \(c.table).Z_PK) WHERE Z_ENT IN (\(numbers))"
                ))
        }
        statements =
            dropTriggers + creates + inserts + adds + updates + renames + coalesces + drops + finalRenames + indexes
            + derivedValues
        return true
    }

    /// The value of one destination column for the rows of the mapped entities.
    private func columnSource(_ column: String, table: String, mapped: [(d: RelationalSchema.EntityMapping, s: String)])
        -> ColumnSource?
    {
        // Which destination property the column holds (attribute, to-one key, or entity number of a to-one).
        var perEntity: [(sourceNumber: Int, sql: String?, direct: String?)] = []
        var result = ColumnSource()
        for (d, s) in mapped {
            let entity = destination.entitiesByName[d.entityName]!
            let sourceEntity = source.entitiesByName[s]!
            let sourceMapping = sourceSchema.entities[s]!
            var sql: String?
            var direct: String?
            if let (name, _) = d.attributeColumns.first(where: { $0.value == column }) {
                let attribute = entity.attribute(named: name)!
                if let key = propertySource[d.entityName]?[name], let c = sourceMapping.attributeColumns[key] {
                    sql = "t.\(c)"
                    direct = c
                    if let sa = sourceEntity.attribute(named: key), sa.isOptional, !attribute.isOptional,
                        let def = attribute.defaultConstant
                    {
                        result.coalesce = Self.literal(
                            RelationalValues.databaseValue(def.runtimeValue, type: attribute.attributeType),
                            dialect: dialect)
                    }
                } else if propertySource[d.entityName]?[name] == nil, let def = attribute.defaultConstant {
                    result.defaultLiteral = Self.literal(
                        RelationalValues.databaseValue(def.runtimeValue, type: attribute.attributeType),
                        dialect: dialect)
                } else if propertySource[d.entityName]?[name] != nil {
                    return nil
                }
            } else if let (name, _) = d.toOneColumns.first(where: { $0.value == column }) {
                if let key = propertySource[d.entityName]?[name] {
                    if let c = sourceMapping.toOneColumns[key],
                        sourceEntity.relationship(named: key).map({ !$0.isToMany }) == true
                    {
                        sql = "t.\(c)"
                        direct = c
                    } else if let links = linkSelect(entity: s, key: key) {
                        sql = "(SELECT MIN(l.b) FROM (\(links)) l WHERE l.a = t.Z_PK)"
                    } else {
                        return nil
                    }
                }
            } else if let (name, _) = d.toOneEntityColumns.first(where: { $0.value == column }) {
                let r = entity.relationship(named: name)!
                if let key = propertySource[d.entityName]?[name], let sr = sourceEntity.relationship(named: key) {
                    let cases = source.entityAndSubentities(of: sr.destinationEntityName).compactMap { se -> String? in
                        guard let de = destination.entities.first(where: { sourceEntityFor[$0.name] == se.name }),
                            destination.isEntity(de.name, kindOf: r.destinationEntityName)
                        else { return nil }
                        return "WHEN \(se.entityNumber) THEN \(de.entityNumber)"
                    }.joined(separator: " ")
                    if let c = sourceMapping.toOneEntityColumns[key] {
                        let identity = source.entityAndSubentities(of: sr.destinationEntityName).allSatisfy { se in
                            destination.entities.first(where: { sourceEntityFor[$0.name] == se.name })?.entityNumber
                                == se.entityNumber
                        }
                        if identity && c == column {
                            sql = "t.\(c)"
                            direct = c
                        } else {
                            sql = "CASE t.\(c) \(cases) END"
                        }
                    } else if let se = source.entitiesByName[sr.destinationEntityName],
                        let de = destination.entities.first(where: { sourceEntityFor[$0.name] == se.name })
                    {
                        // The source knows the key's entity without a column: it has no sub-entities.
                        var keySQL = "NULL"
                        if !sr.isToMany, let c = sourceMapping.toOneColumns[key] {
                            keySQL = "t.\(c)"
                        } else if let links = linkSelect(entity: s, key: key) {
                            keySQL = "(SELECT MIN(l.b) FROM (\(links)) l WHERE l.a = t.Z_PK)"
                        }
                        sql = "CASE WHEN \(keySQL) IS NULL THEN NULL ELSE \(de.entityNumber) END"
                    }
                }
            } else if let (name, _) = d.toOneOrderColumns.first(where: { $0.value == column }) {
                // The position in an ordered to-many: kept where the source kept one.
                if let key = propertySource[d.entityName]?[name], let c = sourceMapping.toOneOrderColumns[key] {
                    sql = "t.\(c)"
                    direct = c
                }
            } else {
                continue // the column belongs to an entity of this table without mapped rows
            }
            perEntity.append((sourceEntity.entityNumber, sql, direct))
        }
        let distinctSQL = Set(perEntity.map { $0.sql ?? "NULL" })
        if distinctSQL.count <= 1 {
            result.sql = perEntity.first?.sql
            result.directColumn = perEntity.first?.direct
            // A direct column is only direct if every source entity that has the column is mapped to have it.
            if let direct = result.directColumn {
                let owners = sourceSchema.entities.values.filter {
                    $0.attributeColumns.values.contains(direct) || $0.toOneColumns.values.contains(direct)
                        || $0.toOneEntityColumns.values.contains(direct) || $0.toOneOrderColumns.values.contains(direct)
                }.map(\.entityNumber)
                if !Set(owners).isSubset(of: Set(perEntity.map(\.sourceNumber))) { result.directColumn = nil }
            }
        } else {
            let cases = perEntity.map { "WHEN \($0.sourceNumber) THEN \($0.sql ?? "NULL")" }.joined(separator: " ")
            result.sql = "CASE t.Z_ENT \(cases) END"
        }
        return result
    }

    /// `SELECT a, b` pairs linking objects of source `entity` (a) to the objects its
    /// relationship `key` leads to (b), whatever the source stores it as.
    private func linkSelect(entity: String, key: String) -> String? {
        guard let e = source.entitiesByName[entity], let r = e.relationship(named: key),
            let mapping = sourceSchema.entities[entity]
        else { return nil }
        if !r.isToMany, let c = mapping.toOneColumns[key] {
            return "SELECT Z_PK AS a, \(c) AS b FROM \(mapping.tableName) WHERE \(c) IS NOT NULL"
        }
        guard let target = source.entitiesByName[r.destinationEntityName],
            let inverse = source.inverseRelationship(of: r),
            let targetMapping = sourceSchema.entities[target.name]
        else { return nil }
        if !inverse.isToMany, let c = targetMapping.toOneColumns[inverse.name] {
            return "SELECT \(c) AS a, Z_PK AS b FROM \(targetMapping.tableName) WHERE \(c) IS NOT NULL"
        }
        guard let join = sourceSchema.joinTables["\(source.declaringEntity(of: key, in: entity)).\(key)"] else {
            return nil
        }
        let isOwner = source.isEntity(entity, kindOf: join.ownerEntity) && join.ownerRelationship == key
        let (mine, theirs) =
            isOwner ? (join.ownerColumn, join.destinationColumn) : (join.destinationColumn, join.ownerColumn)
        return "SELECT \(mine) AS a, \(theirs) AS b FROM \(join.name)"
    }

    /// A database value written as an SQL literal: bytes as `X'...'` in SQLite, `'\x...'::bytea`
    /// in PostgreSQL (where `X'...'` is a bit string).
    static func literal(_ value: DatabaseValue, dialect: SQLDialect = .sqlite) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : "NULL"
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            let hex = data.map { String(format: "%02X", $0) }.joined()
            return dialect == .sqlite ? "X'\(hex)'" : "'\\x\(hex)'::bytea"
        }
    }

    /// A column's type as the dialect declares it (SQLite's declared type, or its PostgreSQL
    /// counterpart).
    private func columnType(_ declared: String) -> String {
        dialect == .sqlite ? declared : PostgresSchema.columnType(declared)
    }

    /// The statement that creates an index the destination has and the source lacks.
    private func creationSQL(of index: RelationalSchema.Index) -> String {
        // PostgreSQL's text columns already compare as SQLite's BINARY does.
        let columns =
            dialect == .sqlite
            ? index.columns : index.columns.map { $0.replacingOccurrences(of: " COLLATE BINARY", with: "") }
        return
            "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(index.name) ON \(index.table) (\(columns.joined(separator: ", ")))"
    }
}

// MARK: What every execution writes after the statements

extension RelationalMigrationPlan {
    /// One row of the destination's Z_PRIMARYKEY.
    struct PrimaryKeyRow {
        let entityNumber: Int
        let name: String
        let superNumber: Int
        let maximum: Int64
    }

    /// The destination's Z_PRIMARYKEY, given the source's rows and each table's highest Z_PK
    /// after the statements: each root keeps the highest key ever used, so keys are never reused.
    func primaryKeyRows(old: [(name: String, maximum: Int64)], highestKey: (_ table: String) throws -> Int64?) rethrows
        -> [PrimaryKeyRow]
    {
        let oldMax = Dictionary(old.map { ($0.name, $0.maximum) }, uniquingKeysWith: { a, b in max(a, b) })
        let oldNames = Set(old.map(\.name))
        var rows: [PrimaryKeyRow] = []
        for entity in destination.entities {
            var maximum: Int64 = 0
            if entity.parentEntityName == nil, let table = destinationSchema.entities[entity.name]?.tableName {
                maximum = max(try highestKey(table) ?? 0, oldMax[entity.name] ?? 0)
            }
            let parent = entity.parentEntityName.flatMap { destination.entitiesByName[$0]?.entityNumber } ?? 0
            // A renamed entity keeps its old name in Z_PRIMARYKEY where it keeps its
            // number, as Core Data's migration left SampleModel_V2's LuxuryCar
            // under ExpensiveSportCar (Tests/ObjectGraphTests/AppleFixtures reads that store); nothing
            // reads the name.
            var name = entity.name
            if let source = sourceEntity(for: entity.name), source != entity.name, oldNames.contains(source),
                self.source.entitiesByName[source]?.entityNumber == entity.entityNumber
            {
                name = source
            }
            rows.append(
                PrimaryKeyRow(entityNumber: entity.entityNumber, name: name, superNumber: parent, maximum: maximum))
        }
        return rows
    }

    /// The Z_PLIST of the migrated store: the source's metadata with the destination's version
    /// keys, as Core Data writes them (hashes, digest, checksum...).
    func migratedMetadata(_ plist: [String: Any]) throws -> Data {
        var metadata = destination.metadata(replacingVersionKeysOf: plist)
        metadata["NSStoreUUID"] = nil
        return try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
    }
}
