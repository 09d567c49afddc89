import Foundation
import GRDB

/// One FROM clause being built: the fetched table, or the destination table of a correlated
/// subquery over a to-many relationship.
struct TranslationScope {
    /// The alias of the scope's own row: `t0`, or the subquery's destination row.
    let alias: String
    /// The entity of that row.
    let entityName: String
    /// The SUBQUERY variable (`$x`) that names that row, if any.
    let variable: String?
    /// The aliases whose joins belong to this FROM clause.
    var aliases: Set<String>
    /// LEFT OUTER JOINs across to-one relationships, in order.
    var joins: [String] = []
    /// The alias joined for each "alias.relationship".
    var joinAliases: [String: String] = [:]

    init(alias: String, entityName: String, variable: String?) {
        self.alias = alias
        self.entityName = entityName
        self.variable = variable
        self.aliases = [alias]
    }
}

/// What a SQL value holds, for the evaluator's typing rules: `==` between different kinds is
/// false, and only numbers, strings and dates have an order.
enum SQLValueKind: Hashable {
    case number, string, date, data, uuid, url
    /// A row of an entity stored in the root table named here (compared by primary key).
    case object(root: String)

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: self = .number
        case .string: self = .string
        case .date: self = .date
        case .binaryData: self = .data
        case .uuid: self = .uuid
        case .uri: self = .url
        case .transformable, .composite, .undefined, .objectID: self = .data
        }
    }

    /// The kind of a constant; nil for nil, objects and collections.
    init?(_ constant: ConstantValue) {
        switch constant {
        case .bool, .int, .double, .decimal: self = .number
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .uuid: self = .uuid
        case .url: self = .url
        default: return nil
        }
    }

    var isOrdered: Bool { self == .number || self == .string || self == .date }
}

/// A scalar SQL expression standing for the value of a key path or function.
struct SQLValue {
    var fragment: SQLFragment
    var kind: SQLValueKind
    /// The attribute's type, to bind constants compared with it.
    var attributeType: AttributeType?
    /// Whether the expression can be NULL.
    var nullable: Bool
    /// A bare column reference, which is cheap to repeat (`x < ? AND x IS NOT NULL`).
    var isColumn: Bool
    /// For objects: the column holding the row's `Z_ENT`, if the row's entity can vary.
    var entityColumn: String? = nil
    /// For objects: the entities the row can be.
    var possibleEntities: [String] = []
    /// How the value reads in messages: its key path.
    var label: String
}

/// One side of a comparison.
enum SQLOperand {
    case constant(ConstantValue)
    case value(SQLValue)
    /// A key path through a to-many relationship, usable only with ANY/ALL, IN/CONTAINS and
    /// collection operators.
    case toMany(ToManyPath)
}

/// A key path that reaches a to-many relationship: its owner row, the relationship, and the
/// components after it.
struct ToManyPath {
    var ownerAlias: String
    /// Whether the owner row comes from a LEFT JOIN and may be missing.
    var ownerNullable: Bool
    var relationship: RelationshipDescription
    /// The entity (the scope's entity or one of its sub-entities) that has the relationship.
    var ownerEntity: String
    var rest: [String]
    var keyPath: String
}

/// The FROM clause and correlation of a subquery over a to-many relationship.
struct CorrelatedSource {
    /// `ZBOOK t2`, or `Z_1AUTHORS t2 JOIN ZAUTHOR t3 ON t3.Z_PK = t2.Z_3AUTHORS`.
    var from: String
    /// `t2.ZPUBLISHER = t0.Z_PK`.
    var correlation: String
    /// FROM and correlation for a bare count: the join table alone for many-to-many.
    var countFrom: String
    var countCorrelation: String
    /// The destination row's alias and entity.
    var alias: String
    var entityName: String
}

extension SQLFetchTranslator {
    // MARK: Operands

    /// The SQL operand an expression stands for, in the innermost scope.
    mutating func operand(for expression: Expression) throws -> SQLOperand {
        switch expression {
        case .constant(let value):
            return .constant(Self.normalized(value))
        case .evaluatedObject:
            return .value(selfValue(in: scopes[scopes.count - 1]))
        case .keyPath(let path):
            return try resolve(path, fromScope: scopes.count - 1)
        case .variable(let name):
            guard let i = scopes.lastIndex(where: { $0.variable == name }) else { throw unimplemented() }
            return .value(selfValue(in: scopes[i]))
        case .member(.evaluatedObject, let path):
            return try resolve(path, fromScope: scopes.count - 1)
        case .member(.variable(let name), let path):
            guard let i = scopes.lastIndex(where: { $0.variable == name }) else { throw unimplemented() }
            return try resolve(path, fromScope: i, label: "$\(name).\(path)")
        case .member(.subquery(let collection, let variable, let predicate), "@count"),
            .index(.subquery(let collection, let variable, let predicate), .size):
            return .value(try subqueryCount(collection, variable, predicate))
        case .function("noindex:", let arguments) where arguments.count == 1:
            // Apple's SQL hint; it changes nothing in meaning.
            return try operand(for: arguments[0])
        default:
            break
        }
        if Self.isConstant(expression) {
            // Functions of constants (now(), 1 + 2, CAST(...)) are evaluated once, as the
            // evaluator would for each object.
            let value = try expression.expressionValue(with: nil)
            guard let constant = try? ConstantValue(argument: value) else { throw unimplemented() }
            return .constant(Self.normalized(constant))
        }
        switch expression {
        case .function, .customFunction:
            throw CoreDataError(
                exception: .invalidArgument, "Unsupported function expression \(expression.description)")
        default:
            throw unimplemented()
        }
    }

    /// NSNull compares as nil.
    static func normalized(_ constant: ConstantValue) -> ConstantValue {
        if case .nsNull = constant { return .null }
        return constant
    }

    /// Whether an expression depends on nothing but constants.
    static func isConstant(_ expression: Expression) -> Bool {
        switch expression {
        case .constant: return true
        case .evaluatedObject, .variable, .keyPath, .subquery, .assignment, .customFunction: return false
        case .member(let base, _): return isConstant(base)
        case .function(_, let arguments): return arguments.allSatisfy(isConstant)
        case .index(let base, let selector):
            if case .expression(let e) = selector, !isConstant(e) { return false }
            return isConstant(base)
        case .aggregate(let elements): return elements.allSatisfy(isConstant)
        case .cast(let value, let type): return isConstant(value) && isConstant(type)
        case .conditional(let predicate, let a, let b): return isConstant(predicate) && isConstant(a) && isConstant(b)
        }
    }

    static func isConstant(_ predicate: Predicate) -> Bool {
        switch predicate {
        case .constant: return true
        case .block: return false
        case .compound(let c): return c.chainTerms.allSatisfy(isConstant)
        case .comparison(let c): return isConstant(c.leftExpression) && isConstant(c.rightExpression)
        }
    }

    // MARK: Key paths

    /// Resolves a key path from the row of a scope: attributes (of the entity or of a
    /// sub-entity sharing its table), to-one relationships (joined when the path goes on),
    /// and to-many relationships (left to the caller, or reduced by `@count`, `@sum`...).
    mutating func resolve(_ keyPath: String, fromScope index: Int, label: String? = nil, allowToMany: Bool = true)
        throws -> SQLOperand
    {
        let label = label ?? keyPath
        var alias = scopes[index].alias
        var entityName = scopes[index].entityName
        var nullable = false
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (i, key) in components.enumerated() {
            let isLast = i == components.count - 1
            if let value = try attributeValue(key, in: entityName, alias: alias, label: label) {
                guard isLast else { throw keyPathNotFound(label) }
                return .value(value)
            }
            guard let (owner, relationship) = self.relationship(key, in: entityName) else {
                throw keyPathNotFound(label)
            }
            if relationship.isToMany {
                guard allowToMany else { throw toManyNotAllowed }
                let path = ToManyPath(
                    ownerAlias: alias, ownerNullable: nullable, relationship: relationship,
                    ownerEntity: owner, rest: Array(components[(i + 1)...]), keyPath: label)
                if let first = path.rest.first, first.hasPrefix("@") {
                    return .value(try collectionOperator(path))
                }
                return .toMany(path)
            }
            guard let foreignKey = schema.entities[owner]?.toOneColumns[key] else { throw keyPathNotFound(label) }
            let destination = relationship.destinationEntityName
            if isLast {
                return .value(
                    SQLValue(
                        fragment: "\(raw: alias).\(raw: foreignKey)", kind: .object(root: rootName(of: destination)),
                        attributeType: nil, nullable: true, isColumn: true,
                        entityColumn: schema.entities[owner]?.toOneEntityColumns[key].map { "\(alias).\($0)" },
                        possibleEntities: model.entityAndSubentities(of: destination).map(\.name), label: label))
            }
            alias = join(from: alias, foreignKey: foreignKey, relationship: key, destination: destination)
            entityName = destination
            nullable = true
        }
        throw keyPathNotFound(label)
    }

    /// The row of a scope itself (`SELF`, `$variable`): its primary key.
    func selfValue(in scope: TranslationScope) -> SQLValue {
        SQLValue(
            fragment: "\(raw: scope.alias).Z_PK", kind: .object(root: rootName(of: scope.entityName)),
            attributeType: nil, nullable: false, isColumn: true, entityColumn: "\(scope.alias).Z_ENT",
            possibleEntities: model.entityAndSubentities(of: scope.entityName).map(\.name),
            label: scope.variable.map { "$" + $0 } ?? "SELF")
    }

    /// The column of a stored attribute of the entity, or of its sub-entities (which share the
    /// table: rows of other entities hold NULL there). A transient attribute is not stored and
    /// is "not found", as Core Data says.
    func attributeValue(_ name: String, in entityName: String, alias: String, label: String) throws -> SQLValue? {
        var found: [(attribute: AttributeDescription, column: String)] = []
        for candidate in model.entityAndSubentities(of: entityName) {
            guard let attribute = candidate.attribute(named: name) else { continue }
            guard !attribute.isTransient else { throw keyPathNotFound(label) }
            guard let column = schema.entities[candidate.name]?.attributeColumns[name] else { continue }
            if !found.contains(where: { $0.column == column }) { found.append((attribute, column)) }
            // The entity's own attribute: its sub-entities share the column.
            if candidate.name == entityName { break }
        }
        guard let first = found.first else { return nil }
        let type = first.attribute.attributeType
        // Sibling sub-entities declaring the same name have columns of their own; a row has a
        // value in at most one of them.
        guard found.allSatisfy({ $0.attribute.attributeType == type }) else { throw unimplemented() }
        let fragment: SQLFragment =
            found.count == 1
            ? "\(raw: alias).\(raw: first.column)"
            : "coalesce(\(raw: found.map { "\(alias).\($0.column)" }.joined(separator: ", ")))"
        return SQLValue(
            fragment: fragment, kind: SQLValueKind(type), attributeType: type,
            nullable: true, isColumn: found.count == 1, label: label)
    }

    /// The relationship with this name on the entity or one of its sub-entities, with the
    /// entity that has it.
    func relationship(_ name: String, in entityName: String) -> (String, RelationshipDescription)? {
        for candidate in model.entityAndSubentities(of: entityName) {
            if let r = candidate.relationship(named: name) { return (candidate.name, r) }
        }
        return nil
    }

    func rootName(of entityName: String) -> String {
        var name = entityName
        while let parent = model.entitiesByName[name]?.parentEntityName { name = parent }
        return name
    }

    mutating func nextAlias() -> String {
        aliasCounter += 1
        return "t\(aliasCounter)"
    }

    /// The alias of the row a to-one relationship points at, adding a LEFT OUTER JOIN to the
    /// FROM clause that owns `alias` the first time.
    mutating func join(from alias: String, foreignKey: String, relationship: String, destination: String) -> String {
        let i = scopes.lastIndex { $0.aliases.contains(alias) } ?? 0
        let key = "\(alias).\(relationship)"
        if let existing = scopes[i].joinAliases[key] { return existing }
        let joined = nextAlias()
        let table = schema.entities[destination]?.tableName ?? "Z" + destination.uppercased()
        scopes[i].joins.append("LEFT OUTER JOIN \(table) \(joined) ON \(joined).Z_PK = \(alias).\(foreignKey)")
        scopes[i].joinAliases[key] = joined
        scopes[i].aliases.insert(joined)
        return joined
    }

    // MARK: To-many relationships

    /// Where the destination rows of a to-many relationship are: the destination table with
    /// its foreign key (one-to-many), or the join table and the destination (many-to-many).
    mutating func correlatedSource(for path: ToManyPath) throws -> CorrelatedSource {
        let r = path.relationship
        let destination = r.destinationEntityName
        guard let destinationTable = schema.entities[destination]?.tableName,
            let inverseName = r.inverseName, let (inverseOwner, inverse) = relationship(inverseName, in: destination)
        else {
            // A to-many without an inverse has no storage Core Data could query.
            throw unimplemented()
        }
        if !inverse.isToMany {
            let alias = nextAlias()
            guard let foreignKey = schema.entities[inverseOwner]?.toOneColumns[inverse.name] else {
                throw unimplemented()
            }
            let from = "\(destinationTable) \(alias)"
            let correlation = "\(alias).\(foreignKey) = \(path.ownerAlias).Z_PK"
            return CorrelatedSource(
                from: from, correlation: correlation, countFrom: from, countCorrelation: correlation,
                alias: alias, entityName: destination)
        }
        // The join table is filed under the entity that declares the relationship.
        var declaring: String? = path.ownerEntity
        var joinTable: RelationalSchema.JoinTable?
        var declaringName = path.ownerEntity
        while let name = declaring {
            if let table = schema.joinTables["\(name).\(r.name)"] {
                joinTable = table
                declaringName = name
                break
            }
            declaring = model.entitiesByName[name]?.parentEntityName
        }
        guard let table = joinTable else { throw unimplemented() }
        let isOwner = table.ownerEntity == declaringName && table.ownerRelationship == r.name
        let sourceColumn = isOwner ? table.ownerColumn : table.destinationColumn
        let destinationColumn = isOwner ? table.destinationColumn : table.ownerColumn
        let link = nextAlias()
        let alias = nextAlias()
        let correlation = "\(link).\(sourceColumn) = \(path.ownerAlias).Z_PK"
        return CorrelatedSource(
            from:
                "\(table.name) \(link) JOIN \(destinationTable) \(alias) ON \(alias).Z_PK = \(link).\(destinationColumn)",
            correlation: correlation, countFrom: "\(table.name) \(link)", countCorrelation: correlation,
            alias: alias, entityName: destination)
    }

    /// Runs `body` with a new scope for the destination rows of a to-many relationship; returns
    /// the source, the joins the body needed inside the subquery, and the body's result.
    mutating func inSubquery<T>(
        _ path: ToManyPath, variable: String?,
        _ body: (inout SQLFetchTranslator) throws -> T
    ) throws -> (CorrelatedSource, [String], T) {
        let source = try correlatedSource(for: path)
        scopes.append(TranslationScope(alias: source.alias, entityName: source.entityName, variable: variable))
        do {
            let result = try body(&self)
            let scope = scopes.removeLast()
            return (source, scope.joins, result)
        } catch {
            scopes.removeLast()
            throw error
        }
    }

    /// `(SELECT <select> FROM <source> <joins> WHERE <correlation> AND (<condition>))`.
    func subquery(select: String, _ source: CorrelatedSource, joins: [String], condition: SQLFragment?) -> SQLFragment {
        let from = ([source.from] + joins).joined(separator: " ")
        guard let condition else {
            return "(SELECT \(raw: select) FROM \(raw: from) WHERE \(raw: source.correlation))"
        }
        return "(SELECT \(raw: select) FROM \(raw: from) WHERE \(raw: source.correlation) AND (\(condition)))"
    }

    /// A scalar subquery for a to-many reached through a LEFT JOIN: NULL when the joined row
    /// is missing, as the evaluator's key path gives nil there (not 0).
    func guardingOwner(_ fragment: SQLFragment, _ path: ToManyPath) -> SQLFragment {
        guard path.ownerNullable else { return fragment }
        return "(CASE WHEN \(raw: path.ownerAlias).Z_PK IS NULL THEN NULL ELSE \(fragment) END)"
    }

    /// The value of the rest of a to-many key path for one destination row, inside its scope.
    mutating func elementValue(_ path: ToManyPath) throws -> SQLValue {
        guard !path.rest.isEmpty else { return selfValue(in: scopes[scopes.count - 1]) }
        switch try resolve(
            path.rest.joined(separator: "."), fromScope: scopes.count - 1, label: path.keyPath, allowToMany: false)
        {
        case .value(let value): return value
        case .toMany: throw toManyNotAllowed
        case .constant: throw unimplemented()
        }
    }

    /// `books.@count`, `books.@sum.price`, `@avg`, `@min`, `@max` as scalar subqueries.
    mutating func collectionOperator(_ path: ToManyPath) throws -> SQLValue {
        let op = path.rest[0]
        let inner = ToManyPath(
            ownerAlias: path.ownerAlias, ownerNullable: path.ownerNullable, relationship: path.relationship,
            ownerEntity: path.ownerEntity, rest: Array(path.rest.dropFirst()), keyPath: path.keyPath)
        switch op {
        case "@count":
            guard inner.rest.isEmpty else { throw keyPathNotFound(path.keyPath) }
            let source = try correlatedSource(for: path)
            let count: SQLFragment =
                "(SELECT COUNT(*) FROM \(raw: source.countFrom) WHERE \(raw: source.countCorrelation))"
            return SQLValue(
                fragment: guardingOwner(count, path), kind: .number, attributeType: .integer64,
                nullable: path.ownerNullable, isColumn: false, label: path.keyPath)
        case "@sum", "@avg", "@min", "@max":
            guard !inner.rest.isEmpty else { throw unimplemented() }
            let (source, joins, element) = try inSubquery(inner, variable: nil) { try $0.elementValue(inner) }
            switch op {
            case "@sum", "@avg":
                guard element.kind == .number else {
                    throw PredicateError(
                        .invalidOperand,
                        "Invoked mathematical function \(op) with non-numeric object(s) in collection: \(path.keyPath)")
                }
            default:
                guard element.kind.isOrdered else { throw unimplemented() }
            }
            let select: SQLFragment
            switch op {
            case "@sum":
                if let type = element.attributeType, type.isInteger || type == .boolean {
                    select = "\(raw: ifNullFunction)(\(integerSum(element.fragment)), 0)"
                } else {
                    // 0 for no rows; NULL for a sum that is not a number (SQLite has no NaN).
                    // OG_FSUM: rounded once, so the order of the rows does not matter (ExactSum).
                    select = "(CASE WHEN COUNT(\(element.fragment)) = 0 THEN 0 ELSE \(exactSum(element.fragment)) END)"
                }
            case "@avg":
                if let type = element.attributeType, type.isInteger || type == .boolean {
                    select = "(CAST(\(integerSum(element.fragment)) AS \(raw: realType)) / COUNT(\(element.fragment)))"
                } else {
                    select = "(\(exactSum(element.fragment)) / COUNT(\(element.fragment)))"
                }
            case "@min": select = "MIN(\(element.fragment))"
            default: select = "MAX(\(element.fragment))"
            }
            let from = ([source.from] + joins).joined(separator: " ")
            let fragment: SQLFragment = "(SELECT \(select) FROM \(raw: from) WHERE \(raw: source.correlation))"
            let type: AttributeType? = op == "@avg" ? .double : element.attributeType
            return SQLValue(
                fragment: guardingOwner(fragment, path), kind: element.kind, attributeType: type,
                nullable: op == "@sum" && element.attributeType.map { $0.isInteger || $0 == .boolean } == true
                    ? path.ownerNullable : true,
                isColumn: false, label: path.keyPath)
        default:
            throw keyPathNotFound(path.keyPath)
        }
    }

    /// The sum of an integer column as ``IntegerSum`` computes it in memory: exact whatever
    /// the order of the rows, an INTEGER when it fits in 64 bits, else the REAL nearest to it.
    /// SQLite's SUM() would fail with "integer overflow" and TOTAL() would round every
    /// partial sum; here the high and the low 32 bits of the values are summed apart (neither
    /// sum can overflow below 2^31 rows) and put together once. SQLite computes each
    /// repeated aggregate once.
    ///
    /// PostgreSQL's SUM of a bigint is already exact (a numeric), and its result reads back as
    /// an integer when whole and within 64 bits, else as the nearest double (PostgresValues).
    func integerSum(_ e: SQLFragment) -> SQLFragment {
        if dialect == .postgres { return "SUM(\(e))" }
        let high: SQLFragment = "(SUM(\(e) >> 32) + (SUM(\(e) & 4294967295) >> 32))"
        let low: SQLFragment = "(SUM(\(e) & 4294967295) & 4294967295)"
        return
            "(CASE WHEN \(high) BETWEEN -2147483648 AND 2147483647 THEN (\(high) << 32) + \(low) ELSE \(high) * 4294967296.0 + \(low) END)"
    }

    /// The sum of floating-point values: SQLite's OG_FSUM (rounded once, see ``ExactSum``);
    /// PostgreSQL's SUM of float8 (added in row order, so its last bits can differ), with NaN
    /// (+inf plus -inf) made NULL as SQLite makes it.
    func exactSum(_ e: SQLFragment) -> SQLFragment {
        switch dialect {
        case .sqlite: return "\(raw: SQLiteFunctions.exactSum)(\(e))"
        case .postgres: return "NULLIF(SUM(\(e)), \(bind: Double.nan.databaseValue))"
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count`: the predicate runs on each destination
    /// row, which `$x`, `SELF` and bare key paths name.
    mutating func subqueryCount(_ collection: Expression, _ variable: String, _ predicate: Predicate) throws -> SQLValue
    {
        guard case .toMany(let path) = try operand(for: collection), path.rest.isEmpty else { throw unimplemented() }
        let (source, joins, condition) = try inSubquery(path, variable: variable) { try $0.condition(for: predicate) }
        let count = subquery(select: "COUNT(*)", source, joins: joins, condition: condition)
        return SQLValue(
            fragment: guardingOwner(count, path), kind: .number, attributeType: .integer64,
            nullable: path.ownerNullable, isColumn: false, label: "SUBQUERY(...).@count")
    }
}
