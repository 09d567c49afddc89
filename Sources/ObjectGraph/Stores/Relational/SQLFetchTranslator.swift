import Foundation
import GRDB

/// Translates the predicate and sort descriptors of one fetch into SQL over the store's
/// tables. The fetched entity's table is aliased `t0`; key paths across to-one relationships
/// add joins (`t1`, `t2`, ...), which ``joins`` collects for the FROM clause.
///
/// What runs in SQL (Apple, "Predicate Programming Guide" and "Core Data Programming Guide",
/// with the semantics <doc:PredicateFormatStringReference> gives):
/// - comparisons with Apple's nil rules (`x != 5` holds for nil `x`, `nil <= nil` holds);
/// - string operators with `[c]`, `[d]`, `[n]`: plain SQL when case- and diacritic-sensitive,
///   registered functions (``SQLiteFunctions``) otherwise, MATCHES always through one;
/// - key paths across to-one relationships (LEFT OUTER JOIN), to attributes of sub-entities
///   sharing the table, `self`;
/// - ANY, ALL, NONE, `@count`, `@sum`, `@avg`, `@min`, `@max`, IN/CONTAINS over to-many
///   relationships and `SUBQUERY(...).@count`, as correlated subqueries;
/// - IN with constant collections or strings, BETWEEN (bounds swapped when descending).
///
/// Values are always bound parameters. Every condition is two-valued (never NULL), so NOT
/// and ALL mean what they mean in memory.
///
/// What SQL cannot express fails with the error Core Data's SQLite store raises
/// (<doc:FetchingAndPredicates>, "When a fetch fails"), never with a silent in-memory fallback:
/// `CoreDataError(exception: .invalidArgument)` with `keypath … not found in entity …`,
/// `unimplemented SQL generation for predicate : (…)`, `to-many key not allowed here`,
/// `Unsupported function expression …` or `Unknown predicate type for predicate: BLOCKPREDICATE(…)`.
/// Operands that the evaluator would reject (ordering a number against a string, a LIKE
/// pattern ending in `\`, a regex that does not compile) throw the evaluator's
/// ``PredicateError`` at translation time.
struct SQLFetchTranslator {
    /// Whose SQL to write: SQLite's, or PostgreSQL's for the PostgreSQL store.
    var dialect: SQLDialect = .sqlite
    let model: ManagedObjectModel
    let schema: RelationalSchema
    let entity: EntityDescription
    /// The store's UUID. When set, `self == %@` with an object ID of another store matches
    /// nothing, as object IDs of different stores are never equal.
    var storeIdentifier: String?

    /// The FROM-clause scopes: the fetched table first, then one per correlated subquery
    /// being translated.
    var scopes: [TranslationScope]
    /// The last alias number handed out.
    var aliasCounter = 0
    /// The comparison being translated, for error messages.
    var currentComparison: ComparisonPredicate?

    /// JOIN clauses needed by the key paths translated so far, in order.
    var joins: [String] { scopes[0].joins }

    init(model: ManagedObjectModel, schema: RelationalSchema, entity: EntityDescription) {
        self.model = model
        self.schema = schema
        self.entity = entity
        self.scopes = [TranslationScope(alias: "t0", entityName: entity.name, variable: nil)]
    }

    /// A boolean SQL expression that is never NULL and is true exactly when the in-memory
    /// evaluator says the predicate holds.
    mutating func condition(for predicate: Predicate) throws -> SQLFragment {
        switch predicate {
        case .constant(let value):
            return truth(value)
        case .block(let block):
            throw CoreDataError(
                exception: .invalidArgument, "Unknown predicate type for predicate: BLOCKPREDICATE(\(block.identifier))"
            )
        case .compound(let compound):
            switch compound.compoundPredicateType {
            case .not:
                // Foundation looks only at the first subpredicate of a NOT.
                guard let first = compound.subpredicates.first else { return truth(true) }
                return "NOT (\(try condition(for: first)))"
            case .and, .or:
                // AND of ANDs is one AND: flattening keeps SQLite's parser stack shallow for
                // predicates folded one term at a time.
                let terms = Array(compound.chainTerms)
                guard !terms.isEmpty else { return truth(compound.compoundPredicateType == .and) }
                let parts = try terms.map { try condition(for: $0) }
                if parts.count == 1 { return parts[0] }
                let separator = compound.compoundPredicateType == .and ? " AND " : " OR "
                return Self.balanced(parts[...], separator: separator)
            }
        case .comparison(let comparison):
            let saved = currentComparison
            currentComparison = comparison
            defer { currentComparison = saved }
            return try translate(comparison)
        }
    }

    /// Terms joined in groups of at most eight, nested as a balanced tree: SQLite parses a
    /// flat chain of N terms into an expression N deep and refuses one over 1,000 deep.
    static func balanced(_ parts: ArraySlice<SQLFragment>, separator: String) -> SQLFragment {
        if parts.count <= 8 {
            return "(\(SQLFragment.joined(parts.map { "(\($0))" }, separator: separator)))"
        }
        let groupSize = max(8, Int((Double(parts.count) / 8).rounded(.up)))
        let groups = stride(from: parts.startIndex, to: parts.endIndex, by: groupSize).map {
            balanced(parts[$0..<min($0 + groupSize, parts.endIndex)], separator: separator)
        }
        return balanced(groups[...], separator: separator)
    }

    /// ORDER BY terms for sort descriptors, joining across to-one relationships as needed.
    ///
    /// String keys use the descriptor's comparator: `compare:` is SQLite's BINARY order (by
    /// scalar, like ``StringComparison/compare(_:_:_:)``), `caseInsensitiveCompare:` orders by
    /// the folded string, the localized ones use registered collations calling
    /// ``SortDescriptor/compareStrings(_:_:_:)``. NULL sorts first ascending, as in
    /// SortDescriptor. Numbers and dates ignore the comparator, as SortDescriptor does.
    mutating func orderingTerms(for sortDescriptors: [SortDescriptor]) throws -> [String] {
        try sortDescriptors.map { descriptor in
            let value = try sortValue(forKeyPath: descriptor.key)
            var term = value.fragment.sql
            if value.kind == .string {
                switch descriptor.comparator {
                case .compare:
                    break
                case .caseInsensitiveCompare:
                    term = "\(SQLiteFunctions.fold)(\(term), \(ComparisonPredicate.Options.caseInsensitive.rawValue))"
                default:
                    term += " COLLATE \(SQLiteFunctions.collation(for: descriptor.comparator)!)"
                }
            }
            // nil first ascending: SQLite's order of NULL, which PostgreSQL reverses.
            if dialect == .postgres { return term + (descriptor.ascending ? " NULLS FIRST" : " DESC NULLS LAST") }
            return term + (descriptor.ascending ? "" : " DESC")
        }
    }

    /// The SQL value at a key path, with the attribute type when it ends at an attribute:
    /// for dictionary fetches (propertiesToFetch, propertiesToGroupBy). Joins across to-one
    /// relationships go to ``joins``; a to-one relationship gives its foreign key.
    mutating func resolvedColumn(forKeyPath keyPath: String) throws -> (
        fragment: SQLFragment, attributeType: AttributeType?
    ) {
        let value = try scalarValue(forKeyPath: keyPath)
        return (value.fragment, value.attributeType)
    }

    /// The SQL value at a key path (see ``resolvedColumn(forKeyPath:)``).
    mutating func column(forKeyPath keyPath: String) throws -> SQLFragment {
        try resolvedColumn(forKeyPath: keyPath).fragment
    }

    /// SQL for an aggregate function expression of an NSExpressionDescription:
    /// `count:(x)` → `COUNT(x)` (non-NULL values), `sum:` → `SUM`, `min:` → `MIN`,
    /// `max:` → `MAX`, `average:` → `AVG`, over a key path (`count:` also over `SELF`).
    /// A plain key path gives its column. The result type is the attribute's for min/max
    /// (and sum of integers), `.double` for average and `.integer64` for count.
    mutating func aggregate(for expression: Expression) throws -> (fragment: SQLFragment, resultType: AttributeType?) {
        let unsupported = CoreDataError(
            exception: .invalidArgument, "Unsupported function expression \(expression.description)")
        switch expression {
        case .keyPath(let path):
            let column = try resolvedColumn(forKeyPath: path)
            return (column.fragment, column.attributeType)
        case .function(let selector, let arguments) where arguments.count == 1:
            let functions = ["count:": "COUNT", "sum:": "SUM", "min:": "MIN", "max:": "MAX", "average:": "AVG"]
            guard let sqlFunction = functions[selector] else { throw unsupported }
            let value: SQLValue
            switch arguments[0] {
            case .keyPath(let path): value = try scalarValue(forKeyPath: path)
            case .evaluatedObject where selector == "count:": value = selfValue(in: scopes[0])
            default: throw unsupported
            }
            var fragment: SQLFragment = "\(raw: sqlFunction)(\(value.fragment))"
            if let type = value.attributeType, type.isInteger || type == .boolean {
                // Exact, and promoted to the nearest REAL beyond 64 bits, as Aggregates.sum
                // and Aggregates.average compute them.
                if selector == "sum:" { fragment = integerSum(value.fragment) }
                if selector == "average:" {
                    fragment = "(CAST(\(integerSum(value.fragment)) AS \(raw: realType)) / COUNT(\(value.fragment)))"
                }
            }
            switch selector {
            case "count:":
                return (fragment, .integer64)
            case "average:":
                guard value.kind == .number else { throw unsupported }
                return (fragment, .double)
            case "sum:":
                guard value.kind == .number, let type = value.attributeType else { throw unsupported }
                return (fragment, type.isInteger || type == .boolean ? .integer64 : type)
            default:
                guard [.number, .string, .date].contains(value.kind) else { throw unsupported }
                return (fragment, value.attributeType)
            }
        default:
            throw unsupported
        }
    }

    // MARK: The dialect's spelling

    /// A condition that always holds, or never: SQLite's 1 and 0, PostgreSQL's booleans.
    func truth(_ holds: Bool) -> SQLFragment {
        switch dialect {
        case .sqlite: return holds ? "1" : "0"
        case .postgres: return holds ? "TRUE" : "FALSE"
        }
    }

    /// `test`, false where it is NULL: a two-valued condition.
    func orFalse(_ test: SQLFragment) -> SQLFragment {
        dialect == .sqlite ? "ifnull(\(test), 0)" : "coalesce(\(test), FALSE)"
    }

    /// The function giving its second argument where the first is NULL.
    var ifNullFunction: String { dialect == .sqlite ? "ifnull" : "coalesce" }

    /// Null-safe equality (`IS`, `IS NOT`): PostgreSQL's `IS` takes only NULL, TRUE, FALSE.
    func nullSafeEquality(negated: Bool) -> String {
        switch dialect {
        case .sqlite: return negated ? "IS NOT" : "IS"
        case .postgres: return negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM"
        }
    }

    /// The type a CAST to a floating-point number names.
    var realType: String { dialect == .sqlite ? "REAL" : "double precision" }

    /// Whether a constant is a string PostgreSQL cannot take: its text holds no NUL, so such
    /// a string equals, begins, ends or is contained in nothing stored there.
    func isUnstorableText(_ c: ConstantValue) -> Bool {
        guard dialect == .postgres, case .string(let s) = c else { return false }
        return s.utf8.contains(0)
    }

    // MARK: Errors in Core Data's words

    func keyPathNotFound(_ keyPath: String) -> CoreDataError {
        CoreDataError(exception: .invalidArgument, "keypath \(keyPath) not found in entity \(entity.name)")
    }

    func unimplemented() -> CoreDataError {
        let text = currentComparison.map { Predicate.comparison($0).predicateFormat } ?? ""
        return CoreDataError(exception: .invalidArgument, "unimplemented SQL generation for predicate : (\(text))")
    }

    var toManyNotAllowed: CoreDataError {
        CoreDataError(exception: .invalidArgument, "to-many key not allowed here")
    }

    // MARK: Helpers for the public entry points

    private mutating func scalarValue(forKeyPath keyPath: String) throws -> SQLValue {
        switch try operand(for: .keyPath(keyPath)) {
        case .value(let value): return value
        case .toMany: throw toManyNotAllowed
        case .constant: throw keyPathNotFound(keyPath)
        }
    }

    private mutating func sortValue(forKeyPath keyPath: String) throws -> SQLValue {
        let value = try scalarValue(forKeyPath: keyPath)
        guard [.number, .string, .date].contains(value.kind) else {
            // Objects, data, UUIDs and URLs have no order (SortDescriptor throws for them).
            throw CoreDataError(
                exception: .invalidArgument, "unimplemented SQL generation for sort descriptor : (\(keyPath))")
        }
        return value
    }
}
