import Foundation
import GRDB

/// The comparison operators in SQL, each two-valued and agreeing with
/// `PredicateEvaluator.compare` (<doc:PredicateFormatStringReference>).
extension SQLFetchTranslator {
    typealias Operator = ComparisonPredicate.Operator
    typealias Options = ComparisonPredicate.Options

    /// A comparison predicate, with its ANY/ALL modifier.
    mutating func translate(_ c: ComparisonPredicate) throws -> SQLFragment {
        if c.modifier != .direct { return try quantified(c) }
        let left = try operand(for: c.leftExpression)
        let right = try operand(for: c.rightExpression)
        return try compare(left, c.operatorType, right, c.options)
    }

    /// One comparison of two operands.
    mutating func compare(_ left: SQLOperand, _ op: Operator, _ right: SQLOperand, _ options: Options) throws
        -> SQLFragment
    {
        if case .constant(let l) = left, case .constant(let r) = right {
            // Nothing depends on the row: the evaluator's own answer (or error).
            return truth(try PredicateEvaluator.compare(l.runtimeValue, op, r.runtimeValue, options))
        }
        switch op {
        case .equalTo: return try equality(left, right, options, negated: false)
        case .notEqualTo: return try equality(left, right, options, negated: true)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return try ordering(left, op, right, options)
        case .beginsWith, .endsWith: return try substring(left, op, right, options)
        case .contains: return try membership(collection: left, element: right, options)
        case .in: return try membership(collection: right, element: left, options)
        case .like, .matches: return try pattern(left, op, right, options)
        case .between: return try between(left, right)
        }
    }

    // MARK: ANY, ALL, NONE

    /// ANY/ALL over a to-many key path as EXISTS / NOT EXISTS NOT of a correlated subquery
    /// (an empty collection: ANY false, ALL true); over a constant collection, OR / AND of
    /// the element comparisons. NONE arrives as NOT ANY.
    mutating func quantified(_ c: ComparisonPredicate) throws -> SQLFragment {
        let any = c.modifier == .any
        switch try operand(for: c.leftExpression) {
        case .constant(let value):
            if value == .null { return truth(!any) }
            guard let elements = Self.elements(of: value, includingDictionaryValues: false) else {
                throw PredicateError(
                    .invalidOperand,
                    "The left hand side for an ALL or ANY operator must be either an NSArray or an NSSet, but \(c.leftExpression.description) is \(describeArgument(value.runtimeValue))"
                )
            }
            let right = try operand(for: c.rightExpression)
            let parts = try elements.map {
                try compare(.constant(Self.normalized($0)), c.operatorType, right, c.options)
            }
            guard !parts.isEmpty else { return truth(!any) }
            return "(\(SQLFragment.joined(parts.map { "(\($0))" }, separator: any ? " OR " : " AND ")))"
        case .value:
            // Not a collection: the evaluator raises for any value but nil.
            throw unimplemented()
        case .toMany(let path):
            let right = try operand(for: c.rightExpression)
            if case .toMany = right { throw toManyNotAllowed }
            let (source, joins, condition) = try inSubquery(path, variable: nil) { t in
                try t.compare(.value(try t.elementValue(path)), c.operatorType, right, c.options)
            }
            if any { return "EXISTS \(subquery(select: "1", source, joins: joins, condition: condition))" }
            return "NOT EXISTS \(subquery(select: "1", source, joins: joins, condition: "NOT (\(condition))"))"
        }
    }

    /// The elements of a constant collection (arrays and sets; dictionaries' values for IN).
    static func elements(of constant: ConstantValue, includingDictionaryValues: Bool) -> [ConstantValue]? {
        switch constant {
        case .array(let a): return a
        case .set(let s): return Array(s)
        case .dictionary(let d) where includingDictionaryValues: return Array(d.values)
        default: return nil
        }
    }

    // MARK: == and !=

    /// `==` (or `!=` when negated): nil equals only nil, values of different kinds are never
    /// equal, strings compare by scalar (`IS`, BINARY) or folded for `[c]`/`[d]`.
    mutating func equality(_ left: SQLOperand, _ right: SQLOperand, _ options: Options, negated: Bool) throws
        -> SQLFragment
    {
        var (a, b) = (left, right)
        if case .constant = a { swap(&a, &b) }
        guard case .value(let x) = a else { throw toManyNotAllowed }
        let (yes, no) = (self.truth(true), self.truth(false))
        let truth: (Bool) -> SQLFragment = { $0 != negated ? yes : no }
        let isOp = nullSafeEquality(negated: negated)
        switch b {
        case .toMany:
            throw toManyNotAllowed
        case .constant(let c):
            if c == .null { return x.nullable ? "\(x.fragment) \(raw: negated ? "IS NOT" : "IS") NULL" : truth(false) }
            if case .reference(let reference) = c {
                let match = objectMatch(x, [reference])
                return negated ? "NOT (\(match))" : match
            }
            guard SQLValueKind(c) == x.kind else { return truth(false) }
            // PostgreSQL's text holds no NUL: such a string equals nothing stored there.
            if isUnstorableText(c) { return truth(false) }
            // NaN equals nothing; a decimal no stored INTEGER or REAL can be equals nothing
            // stored (see RelationalValues).
            if x.kind == .number,
                Self.isNaN(c) || Self.inexactDecimal(c) != nil || unrepresentableInteger(c, for: x) != nil
                    || fractionForIntegerList(c, for: x)
            {
                return truth(false)
            }
            if x.kind == .string, Self.folds(options), case .string(let s) = c {
                return "\(fold(x, options)) \(raw: isOp) \(bind: StringComparison.fold(s, options).databaseValue)"
            }
            return "\(x.fragment) \(raw: isOp) \(bind: bindValue(c, for: x))"
        case .value(let y):
            guard x.kind == y.kind else {
                // Only nil equals across kinds.
                guard x.nullable && y.nullable else { return truth(false) }
                let bothNil: SQLFragment = "(\(x.fragment) IS NULL AND \(y.fragment) IS NULL)"
                return negated ? "NOT \(bothNil)" : bothNil
            }
            if x.kind == .string, Self.folds(options) {
                return "\(fold(x, options)) \(raw: isOp) \(fold(y, options))"
            }
            return "\(x.fragment) \(raw: isOp) \(y.fragment)"
        }
    }

    /// Whether a row (primary key) is one of the objects referenced: the IDs of this store
    /// whose entity the row can be; with the entity checked when the table holds several.
    func objectMatch(_ x: SQLValue, _ references: [ObjectReference]) -> SQLFragment {
        guard case .object = x.kind else { return truth(false) }
        var keysByEntity: [(entity: String, keys: [Int64])] = []
        for reference in references {
            guard let id = reference.base as? ManagedObjectID, !id.isTemporaryID,
                x.possibleEntities.contains(id.entityName),
                storeIdentifier == nil || storeIdentifier == id.storeIdentifier
            else { continue }
            if let i = keysByEntity.firstIndex(where: { $0.entity == id.entityName }) {
                keysByEntity[i].keys.append(id.primaryKey)
            } else {
                keysByEntity.append((id.entityName, [id.primaryKey]))
            }
        }
        guard !keysByEntity.isEmpty else { return truth(false) }
        let checkEntity = x.possibleEntities.count > 1 && x.entityColumn != nil
        var parts: [SQLFragment] = []
        if !checkEntity {
            parts.append(inList(x.fragment, keysByEntity.flatMap(\.keys).map { $0.databaseValue }))
        } else {
            for (entity, keys) in keysByEntity {
                let number = model.entitiesByName[entity]?.entityNumber ?? -1
                parts.append(
                    "(\(inList(x.fragment, keys.map { $0.databaseValue })) AND \(raw: x.entityColumn!) = \(bind: number.databaseValue))"
                )
            }
        }
        let any = parts.count == 1 ? parts[0] : "(\(SQLFragment.joined(parts, separator: " OR ")))"
        return x.nullable ? orFalse(any) : any
    }

    /// `x = ?` or `x IN (?, ?, ...)`.
    func inList(_ x: SQLFragment, _ values: [DatabaseValue]) -> SQLFragment {
        if values.count == 1 { return "\(x) = \(bind: values[0])" }
        return "\(x) IN (\(SQLFragment.joined(values.map { "\(bind: $0)" }, separator: ", ")))"
    }

    // MARK: <, <=, >, >=

    /// Ordering: numbers with numbers, strings with strings (by scalar, or folded), dates with
    /// dates; anything else is the evaluator's error. nil is ordered with nothing but nil, and
    /// `nil <= nil`, `nil >= nil` hold.
    mutating func ordering(_ left: SQLOperand, _ op: Operator, _ right: SQLOperand, _ options: Options) throws
        -> SQLFragment
    {
        var (a, b, op) = (left, right, op)
        if case .constant = a {
            swap(&a, &b)
            op = Self.flipped(op)
        }
        guard case .value(let x) = a else { throw toManyNotAllowed }
        let symbol = Self.sqlSymbol(op)
        let orEqual = op == .lessThanOrEqualTo || op == .greaterThanOrEqualTo
        switch b {
        case .toMany:
            throw toManyNotAllowed
        case .constant(let c):
            if c == .null { return orEqual && x.nullable ? "\(x.fragment) IS NULL" : truth(false) }
            guard x.kind.isOrdered, SQLValueKind(c) == x.kind else {
                throw orderError(x.label, describeArgument(c.runtimeValue), op)
            }
            if x.kind == .string, case .string(let s) = c, isUnstorableText(c) {
                // PostgreSQL binds no text with a NUL: ordered as UTF-8 bytes, which is
                // the order of scalars.
                let subject = Self.folds(options) ? fold(x, options) : x.fragment
                return guarded(
                    "textsend(\(subject)) \(raw: symbol) \(bind: Data(StringComparison.fold(s, options).utf8).databaseValue)",
                    x)
            }
            if x.kind == .string, Self.folds(options), case .string(let s) = c {
                return guarded(
                    "\(fold(x, options)) \(raw: symbol) \(bind: StringComparison.fold(s, options).databaseValue)", x)
            }
            if x.kind == .number {
                // NaN is unordered: every ordering with it is false, as in the evaluator.
                if Self.isNaN(c) { return truth(false) }
                if let d = Self.inexactDecimal(c) ?? unrepresentableInteger(c, for: x) {
                    return inexactOrdering(x, op, d)
                }
                if let d = beyondIntegers(c, for: x) {
                    // Every stored integer is below (or above) it.
                    let below = op == .lessThan || op == .lessThanOrEqualTo
                    return below == (d > 0) ? (x.nullable ? "\(x.fragment) IS NOT NULL" : truth(true)) : truth(false)
                }
            }
            return guarded("\(x.fragment) \(raw: symbol) \(bind: bindValue(c, for: x))", x)
        case .value(let y):
            guard x.kind.isOrdered, x.kind == y.kind else { throw orderError(x.label, y.label, op) }
            let (p, q) =
                x.kind == .string && Self.folds(options)
                ? (fold(x, options), fold(y, options)) : (x.fragment, y.fragment)
            let test: SQLFragment = "\(p) \(raw: symbol) \(q)"
            if !x.nullable && !y.nullable { return test }
            if orEqual && x.nullable && y.nullable {
                return "\(raw: ifNullFunction)(\(test), \(x.fragment) IS NULL AND \(y.fragment) IS NULL)"
            }
            return orFalse(test)
        }
    }

    func orderError(_ lhs: String, _ rhs: String, _ op: Operator) -> PredicateError {
        PredicateError(
            .invalidOperand,
            "Can't compare \(lhs) with \(rhs) using \(op.symbol): only numbers with numbers, strings with strings and dates with dates have an order"
        )
    }

    static func flipped(_ op: Operator) -> Operator {
        switch op {
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return op
        }
    }

    static func sqlSymbol(_ op: Operator) -> String {
        switch op {
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        default: return ">="
        }
    }

    // MARK: BEGINSWITH, ENDSWITH

    /// BEGINSWITH/ENDSWITH: `substr(x, 1, n) IS ?` on the (folded) text against a constant,
    /// a registered function otherwise. nil gives false; an empty prefix matches nothing.
    mutating func substring(_ left: SQLOperand, _ op: Operator, _ right: SQLOperand, _ options: Options) throws
        -> SQLFragment
    {
        if Self.isNull(left) || Self.isNull(right) { return truth(false) }
        try requireStrings(left, right) {
            "Can't do a substring operation with something that isn't a string (lhs = \($0) rhs = \($1))"
        }
        if case .value(let x) = left, case .constant(.string(let s)) = right {
            // Compared as bytes: substr() of TEXT stops at a NUL, substr() of a BLOB does not,
            // and a UTF-8 prefix of bytes is a prefix of scalars.
            let affix = StringComparison.fold(s, options)
            let length = affix.utf8.count
            guard length > 0 else { return truth(false) }
            let subject = Self.folds(options) ? fold(x, options) : x.fragment
            if dialect == .postgres {
                // No text there holds a NUL; the rest compares by character, which is by scalar.
                if affix.utf8.contains(0) { return truth(false) }
                if op == .beginsWith { return orFalse("starts_with(\(subject), \(bind: affix.databaseValue))") }
                return orFalse(
                    "right(\(subject), CAST(\(bind: affix.unicodeScalars.count.databaseValue) AS integer)) = \(bind: affix.databaseValue)"
                )
            }
            if op == .beginsWith {
                return
                    "substr(CAST(\(subject) AS BLOB), 1, \(bind: length.databaseValue)) IS CAST(\(bind: affix.databaseValue) AS BLOB)"
            }
            return
                "substr(CAST(\(subject) AS BLOB), \(bind: (-length).databaseValue)) IS CAST(\(bind: affix.databaseValue) AS BLOB)"
        }
        let function = op == .beginsWith ? SQLiteFunctions.beginsWith : SQLiteFunctions.endsWith
        return "\(raw: function)(\(stringArgument(left)), \(stringArgument(right)), \(raw: String(options.rawValue)))"
    }

    // MARK: CONTAINS, IN

    /// CONTAINS and IN: membership in a to-many relationship (EXISTS) or a constant
    /// collection (`IN (...)`, options ignored as `containsObject:` ignores them); substring
    /// search when the collection is a string.
    mutating func membership(collection: SQLOperand, element: SQLOperand, _ options: Options) throws -> SQLFragment {
        if Self.isNull(collection) || Self.isNull(element) { return truth(false) }
        switch collection {
        case .toMany(let path):
            if case .toMany = element { throw toManyNotAllowed }
            let (source, joins, condition) = try inSubquery(path, variable: nil) { t -> SQLFragment in
                let match = try t.equality(.value(try t.elementValue(path)), element, [], negated: false)
                if case .value(let v) = element, v.nullable { return "\(v.fragment) IS NOT NULL AND \(match)" }
                return match
            }
            return "EXISTS \(subquery(select: "1", source, joins: joins, condition: condition))"
        case .constant(let c):
            if case .string(let s) = c {
                guard case .value(let y) = element else { throw toManyNotAllowed }
                guard y.kind == .string else {
                    throw PredicateError(
                        .invalidOperand,
                        "Can't look for value (\(y.label)) in string (\(PredicatePrinter.quote(s))); value is not a string"
                    )
                }
                if dialect == .postgres, s.utf8.contains(0) {
                    // PostgreSQL binds no text with a NUL, and a value there has none: it is
                    // in the string when it is in one of the pieces between the NULs.
                    let pieces = s.split(separator: "\0", omittingEmptySubsequences: true).map(String.init)
                    guard !pieces.isEmpty else { return truth(false) }
                    return
                        "(\(SQLFragment.joined(pieces.map { "\(raw: SQLiteFunctions.contains)(\(bind: $0.databaseValue), \(y.fragment), \(raw: String(options.rawValue)))" }, separator: " OR ")))"
                }
                return
                    "\(raw: SQLiteFunctions.contains)(\(bind: s.databaseValue), \(y.fragment), \(raw: String(options.rawValue)))"
            }
            guard let elements = Self.elements(of: c, includingDictionaryValues: true) else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't use in/contains operator with collection \(describeArgument(c.runtimeValue)) (not a collection)"
                )
            }
            guard case .value(let x) = element else { throw toManyNotAllowed }
            return listMembership(x, elements.map(Self.normalized))
        case .value(let x):
            guard x.kind == .string else {
                throw PredicateError(
                    .invalidOperand, "Can't use in/contains operator with collection \(x.label) (not a collection)")
            }
            switch element {
            case .toMany:
                throw toManyNotAllowed
            case .constant(let c):
                guard case .string(let s) = c else {
                    throw PredicateError(
                        .invalidOperand,
                        "Can't look for value (\(describeArgument(c.runtimeValue))) in string (\(x.label)); value is not a string"
                    )
                }
                let needle = StringComparison.fold(s, options)
                guard !needle.unicodeScalars.isEmpty else { return truth(false) }
                let haystack = Self.folds(options) ? fold(x, options) : x.fragment
                if dialect == .postgres {
                    if needle.utf8.contains(0) { return truth(false) }
                    return "coalesce(strpos(\(haystack), \(bind: needle.databaseValue)), 0) > 0"
                }
                return "ifnull(instr(\(haystack), \(bind: needle.databaseValue)), 0) > 0"
            case .value(let y):
                guard y.kind == .string else {
                    throw PredicateError(
                        .invalidOperand,
                        "Can't look for value (\(y.label)) in string (\(x.label)); value is not a string")
                }
                return
                    "\(raw: SQLiteFunctions.contains)(\(x.fragment), \(y.fragment), \(raw: String(options.rawValue)))"
            }
        }
    }

    /// `x IN (constants)`: nil never matches; only constants of the value's kind can.
    func listMembership(_ x: SQLValue, _ elements: [ConstantValue]) -> SQLFragment {
        if case .object = x.kind {
            return objectMatch(
                x,
                elements.compactMap {
                    if case .reference(let r) = $0 { return r }
                    return nil
                })
        }
        var seen: Set<ConstantValue> = []
        // NaN and decimals no stored value can be are equal to nothing stored.
        let values = elements.filter {
            SQLValueKind($0) == x.kind
                && !(x.kind == .number
                    && (Self.isNaN($0) || Self.inexactDecimal($0) != nil || unrepresentableInteger($0, for: x) != nil
                        || fractionForIntegerList($0, for: x)))
                && !isUnstorableText($0) && seen.insert($0).inserted
        }.map { bindValue($0, for: x) }
        guard !values.isEmpty else { return truth(false) }
        return guarded(inList(x.fragment, values), x)
    }

    // MARK: LIKE, MATCHES

    /// LIKE as GLOB over the (folded) text with the pattern's wildcards translated and every
    /// other character literal; MATCHES and non-constant patterns through registered functions.
    mutating func pattern(_ left: SQLOperand, _ op: Operator, _ right: SQLOperand, _ options: Options) throws
        -> SQLFragment
    {
        if Self.isNull(left) || Self.isNull(right) { return truth(false) }
        if case .toMany = left { throw toManyNotAllowed }
        if case .toMany = right { throw toManyNotAllowed }
        // The evaluator checks the pattern first, then the string.
        switch right {
        case .constant(let c):
            guard case .string = c else {
                throw PredicateError(
                    .invalidOperand, "Can't create a regex expression from object \(describeArgument(c.runtimeValue)).")
            }
        case .value(let y):
            guard y.kind == .string else {
                throw PredicateError(.invalidOperand, "Can't create a regex expression from object \(y.label).")
            }
        case .toMany: break
        }
        switch left {
        case .constant(let c):
            guard case .string = c else {
                throw PredicateError(
                    .invalidOperand, "Can't do regex matching on object \(describeArgument(c.runtimeValue)).")
            }
        case .value(let x):
            guard x.kind == .string else {
                throw PredicateError(.invalidOperand, "Can't do regex matching on object \(x.label).")
            }
        case .toMany: break
        }
        if case .value(let x) = left, case .constant(.string(let p)) = right {
            if op == .matches {
                // Compiles the pattern now, failing as the evaluator would.
                _ = try StringComparison.matches("", p, options)
                return
                    "\(raw: SQLiteFunctions.matches)(\(x.fragment), \(bind: p.databaseValue), \(raw: String(options.rawValue)))"
            }
            _ = try StringComparison.like("", p, options)
            let folded = StringComparison.fold(p, options)
            guard !folded.isEmpty else { return truth(false) }
            if dialect == .postgres {
                // A NUL in the pattern is a character no text there has.
                if folded.utf8.contains(0) { return truth(false) }
                let like = Self.postgresLikePattern(likePattern: folded)
                return Self.folds(options)
                    ? orFalse("\(fold(x, options)) LIKE \(bind: like.databaseValue)")
                    : guarded("\(x.fragment) LIKE \(bind: like.databaseValue)", x)
            }
            let function: SQLFragment =
                "\(raw: SQLiteFunctions.like)(\(x.fragment), \(bind: p.databaseValue), \(raw: String(options.rawValue)))"
            // GLOB reads text up to its first NUL: a pattern or a value with a NUL goes
            // through the registered function, which reads every byte.
            if folded.utf8.contains(0) { return function }
            let glob = Self.globPattern(likePattern: folded)
            let test: SQLFragment =
                Self.folds(options)
                ? "ifnull(\(fold(x, options)) GLOB \(bind: glob.databaseValue), 0)"
                : guarded("\(x.fragment) GLOB \(bind: glob.databaseValue)", x)
            return "(CASE WHEN instr(\(x.fragment), char(0)) > 0 THEN \(function) ELSE \(test) END)"
        }
        let function = op == .like ? SQLiteFunctions.like : SQLiteFunctions.matches
        return "\(raw: function)(\(stringArgument(left)), \(stringArgument(right)), \(raw: String(options.rawValue)))"
    }

    /// A LIKE pattern (already folded) as PostgreSQL's LIKE pattern: `*` is `%`, `?` is `_`,
    /// `\x` a literal `x`, and the characters PostgreSQL's LIKE treats specially (`%`, `_`,
    /// `\`) are escaped with `\` when literal. Over text COLLATE "C", `_` is one scalar.
    static func postgresLikePattern(likePattern pattern: String) -> String {
        translated(likePattern: pattern, anyRun: "%", anyOne: "_") { c in
            c == "%" || c == "_" || c == "\\" ? "\\" + String(c) : String(c)
        }
    }

    /// A LIKE pattern (already folded) as a GLOB pattern: `*` and `?` stay wildcards, `\x`
    /// is a literal `x`, and the characters GLOB treats specially (`*`, `?`, `[`) are
    /// bracketed when literal.
    static func globPattern(likePattern pattern: String) -> String {
        translated(likePattern: pattern, anyRun: "*", anyOne: "?") { c in
            c == "*" || c == "?" || c == "[" ? "[" + String(c) + "]" : String(c)
        }
    }

    /// A LIKE pattern in another engine's syntax: its `*` and `?` wildcards spelled `anyRun`
    /// and `anyOne`, every other character (and each `\x`) through `literal`.
    static func translated(
        likePattern pattern: String, anyRun: String, anyOne: String, literal: (Unicode.Scalar) -> String
    ) -> String {
        let scalars = Array(pattern.unicodeScalars)
        var result = ""
        var i = 0
        while i < scalars.count {
            switch scalars[i] {
            case "\\" where i + 1 < scalars.count:
                result += literal(scalars[i + 1])
                i += 2
                continue
            case "*": result += anyRun
            case "?": result += anyOne
            default: result += literal(scalars[i])
            }
            i += 1
        }
        return result
    }

    // MARK: BETWEEN

    /// BETWEEN a two-element constant collection, both bounds inclusive, swapped when given
    /// in descending order; options are ignored, as `compare:` is used.
    mutating func between(_ left: SQLOperand, _ right: SQLOperand) throws -> SQLFragment {
        guard case .constant(let bounds) = right else { throw unimplemented() }
        if bounds == .null { return truth(false) }
        guard let elements = Self.elements(of: bounds, includingDictionaryValues: false) else {
            throw PredicateError(
                .invalidOperand,
                "Can't use between operator with rhs \(describeArgument(bounds.runtimeValue)) (not an array)")
        }
        guard elements.count == 2 else {
            throw PredicateError(
                .invalidOperand,
                "Can't use between operator with rhs \(describeArgument(bounds.runtimeValue)) (wrong number of elements: BETWEEN takes {lower, upper})"
            )
        }
        guard case .value(let x) = left else { throw toManyNotAllowed }
        var (low, high) = (Self.normalized(elements[0]), Self.normalized(elements[1]))
        if low == .null || high == .null { return truth(false) }
        guard x.kind.isOrdered, SQLValueKind(low) == x.kind, SQLValueKind(high) == x.kind,
            let order = ValueComparison.order(low.runtimeValue!, high.runtimeValue!, [])
        else {
            throw PredicateError(
                .invalidOperand,
                "Can't compare \(x.label) with the BETWEEN bounds \(describeArgument(bounds.runtimeValue))")
        }
        if x.kind == .number {
            if Self.isNaN(low) || Self.isNaN(high) { return truth(false) }
            if order == .orderedDescending { swap(&low, &high) }
            if Self.inexactDecimal(low) != nil || Self.inexactDecimal(high) != nil
                || unrepresentableInteger(low, for: x) != nil || unrepresentableInteger(high, for: x) != nil
                || beyondIntegers(low, for: x) != nil || beyondIntegers(high, for: x) != nil
            {
                // Each bound on its own, as ordering compares with such a decimal.
                let lower = try ordering(.value(x), .greaterThanOrEqualTo, .constant(low), [])
                let upper = try ordering(.value(x), .lessThanOrEqualTo, .constant(high), [])
                return "(\(lower) AND \(upper))"
            }
        } else if order == .orderedDescending {
            swap(&low, &high)
        }
        if isUnstorableText(low) || isUnstorableText(high) {
            // Each bound on its own, as ordering compares with such a string.
            let lower = try ordering(.value(x), .greaterThanOrEqualTo, .constant(low), [])
            let upper = try ordering(.value(x), .lessThanOrEqualTo, .constant(high), [])
            return "(\(lower) AND \(upper))"
        }
        return guarded("\(x.fragment) BETWEEN \(bind: bindValue(low, for: x)) AND \(bind: bindValue(high, for: x))", x)
    }

    // MARK: Helpers

    static func isNull(_ operand: SQLOperand) -> Bool {
        if case .constant(.null) = operand { return true }
        return false
    }

    /// Whether options fold strings: `[c]` or `[d]` without `[n]`.
    static func folds(_ options: Options) -> Bool {
        !options.contains(.normalized) && !options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
    }

    /// `OG_FOLD(x, options)`.
    func fold(_ x: SQLValue, _ options: Options) -> SQLFragment {
        "\(raw: SQLiteFunctions.fold)(\(x.fragment), \(raw: String(options.rawValue)))"
    }

    /// A test that is NULL only when `x` is NULL, made two-valued.
    func guarded(_ test: SQLFragment, _ x: SQLValue) -> SQLFragment {
        guard x.nullable else { return test }
        if x.isColumn { return "(\(test) AND \(x.fragment) IS NOT NULL)" }
        return orFalse(test)
    }

    /// A constant as the database value compared with `x`: a number as itself (an Int as an
    /// INTEGER, a Double as a REAL: SQLite compares an INTEGER with a REAL exactly, as the
    /// evaluator does, so 2^53 + 1 is not turned into 2^53), anything else through the
    /// attribute type (RelationalValues).
    func bindValue(_ c: ConstantValue, for x: SQLValue) -> DatabaseValue {
        if dialect == .postgres, let type = x.attributeType, type.isInteger || type == .boolean,
            case .double(let d) = c, let whole = Int64(exactly: d)
        {
            // PostgreSQL compares a bigint with a float8 as two float8s, rounding the integer
            // beyond 2^53: a whole double is compared as the integer it is, exactly.
            return whole.databaseValue
        }
        if x.kind == .number, let n = c.runtimeValue.flatMap(Number.init) { return RelationalValues.numberValue(n) }
        if let type = x.attributeType, type != .decimal {
            return RelationalValues.databaseValue(c.runtimeValue, type: type)
        }
        return RelationalValues.genericDatabaseValue(c.runtimeValue)
    }

    /// An integer constant compared with a floating-point column that no double can be,
    /// for PostgreSQL, which would round it to a double first (SQLite compares them exactly):
    /// equal to nothing stored, and ordered as ``inexactOrdering(_:_:_:)`` orders a decimal.
    func unrepresentableInteger(_ c: ConstantValue, for x: SQLValue) -> Decimal? {
        guard dialect == .postgres, x.attributeType == .double || x.attributeType == .float else { return nil }
        let integer: Int?
        switch c {
        case .int(let n): integer = n
        case .decimal(let d): integer = DecimalConversion.int(d)
        default: integer = nil
        }
        guard let n = integer, Double(exactly: n) == nil else { return nil }
        return Decimal(n)
    }

    /// Whether a constant can equal no integer column's value (it is not whole):
    /// PostgreSQL gives an IN list one type, and one double among integers would make them all
    /// doubles, rounded beyond 2^53. Left out, as it equals nothing stored.
    func fractionForIntegerList(_ c: ConstantValue, for x: SQLValue) -> Bool {
        guard dialect == .postgres, let type = x.attributeType, type.isInteger || type == .boolean else { return false }
        switch c {
        case .double(let d): return Int64(exactly: d) == nil
        case .decimal(let d): return DecimalConversion.int(d) == nil
        default: return false
        }
    }

    /// A double constant beyond the 64-bit integers (or infinite) compared with an integer
    /// column, for PostgreSQL, which would round the column's value to a double first and
    /// make Int64.max equal to 2^63.
    func beyondIntegers(_ c: ConstantValue, for x: SQLValue) -> Double? {
        guard dialect == .postgres, let type = x.attributeType, type.isInteger || type == .boolean,
            case .double(let d) = c, !d.isNaN, d >= 0x1p63 || d < -0x1p63
        else { return nil }
        return d
    }

    /// Whether a constant is a NaN number.
    static func isNaN(_ c: ConstantValue) -> Bool {
        switch c {
        case .double(let d): return d.isNaN
        case .decimal(let d): return d.isNaN
        default: return false
        }
    }

    /// A decimal constant that no stored value can be: neither a whole 64-bit number (an
    /// INTEGER) nor the shortest representation of a REAL (a decimal with more digits than
    /// a REAL holds).
    static func inexactDecimal(_ c: ConstantValue) -> Decimal? {
        guard case .decimal(let d) = c, !d.isNaN, DecimalConversion.int(d) == nil, !DecimalConversion.survivesDouble(d)
        else { return nil }
        return d
    }

    /// `x < d` (and the other orderings) for a decimal `d` no REAL holds: a REAL `r` is below
    /// `d` when it is below the REAL nearest to `d`, or equal to it while that REAL's
    /// shortest representation is below `d`, which is how the evaluator orders them. (An
    /// INTEGER beyond 2^54 between `d` and its nearest REAL would be misplaced; such decimals
    /// have 18 or more digits.)
    func inexactOrdering(_ x: SQLValue, _ op: Operator, _ d: Decimal) -> SQLFragment {
        let r = DecimalConversion.double(d)
        let nearestIsBelow = (DecimalConversion.decimal(r) ?? d) < d
        let symbol: String
        switch op {
        case .lessThan, .lessThanOrEqualTo: symbol = nearestIsBelow ? "<=" : "<"
        default: symbol = nearestIsBelow ? ">" : ">="
        }
        return guarded("\(x.fragment) \(raw: symbol) \(bind: r.databaseValue)", x)
    }

    /// Both operands must be strings (string constants or string values).
    func requireStrings(_ left: SQLOperand, _ right: SQLOperand, message: (String, String) -> String) throws {
        func check(_ o: SQLOperand) throws -> (ok: Bool, text: String) {
            switch o {
            case .constant(let c):
                if case .string = c { return (true, describeArgument(c.runtimeValue)) }
                return (false, describeArgument(c.runtimeValue))
            case .value(let v): return (v.kind == .string, v.label)
            case .toMany: throw toManyNotAllowed
            }
        }
        let (l, r) = (try check(left), try check(right))
        guard l.ok && r.ok else { throw PredicateError(.invalidOperand, message(l.text, r.text)) }
    }

    /// A string operand as a function argument.
    func stringArgument(_ o: SQLOperand) -> SQLFragment {
        switch o {
        case .constant(let c): return "\(bind: RelationalValues.genericDatabaseValue(c.runtimeValue))"
        case .value(let v): return v.fragment
        case .toMany: return "NULL"
        }
    }
}
