import Foundation

@testable import ObjectGraph

/// Random predicates over the SQL test model (``sqlTestModel()``), covering every operator,
/// the `[c]`, `[d]`, `[n]`, `[l]` options, ANY/ALL/NONE, `@count` and the other collection
/// operators, IN, BETWEEN, nil, object IDs, SUBQUERY and AND/OR/NOT. Deterministic for a seed.
struct PredicateGenerator {
    enum Kind: CaseIterable { case string, number, date, bool, uuid }
    struct Key {
        let path: String
        let kind: Kind
    }

    var rng: SeededGenerator
    let entity: String

    init(seed: UInt64, entity: String) {
        rng = SeededGenerator(seed: seed)
        self.entity = entity
    }

    static let bookKeys: [Key] = [
        Key(path: "title", kind: .string), Key(path: "isbn", kind: .string), Key(path: "salesRank", kind: .number),
        Key(path: "price", kind: .number), Key(path: "published", kind: .date), Key(path: "inPrint", kind: .bool),
        Key(path: "code", kind: .uuid), Key(path: "genre", kind: .string), Key(path: "pages", kind: .number),
        Key(path: "publisher.name", kind: .string), Key(path: "publisher.rank", kind: .number),
        Key(path: "publisher.founded", kind: .date), Key(path: "publisher.revenue", kind: .number),
    ]
    static let keys: [String: [Key]] = [
        "Book": bookKeys, "Novel": bookKeys,
        "Publisher": [
            Key(path: "name", kind: .string), Key(path: "rank", kind: .number), Key(path: "founded", kind: .date),
            Key(path: "revenue", kind: .number),
        ],
        "Author": [Key(path: "name", kind: .string), Key(path: "age", kind: .number)],
    ]
    /// To-many relationships and the key paths of their destination.
    static let toMany: [String: (relationship: String, destination: String, keys: [Key])] = [
        "Book": ("authors", "Author", [Key(path: "name", kind: .string), Key(path: "age", kind: .number)]),
        "Novel": ("authors", "Author", [Key(path: "name", kind: .string), Key(path: "age", kind: .number)]),
        "Publisher": (
            "books", "Book",
            [
                Key(path: "title", kind: .string), Key(path: "salesRank", kind: .number),
                Key(path: "price", kind: .number), Key(path: "published", kind: .date),
                Key(path: "genre", kind: .string), Key(path: "publisher.name", kind: .string),
                Key(path: "inPrint", kind: .bool),
            ]
        ),
        "Author": (
            "books", "Book",
            [
                Key(path: "title", kind: .string), Key(path: "salesRank", kind: .number),
                Key(path: "publisher.name", kind: .string), Key(path: "publisher.rank", kind: .number),
                Key(path: "price", kind: .number), Key(path: "publisher.revenue", kind: .number),
            ]
        ),
    ]

    static let likePatterns = [
        "admin*", "*evil", "*\0*", "a\0*", "?\0?", "\0", "*b*c", "A?B*",
        "a*", "*c", "?bc", "a?c", "*", "?", "", "x%y", "x_y", "x*y", "a\\*b", "a\\?b", "*b*", "A*",
        "á*", "*ß*", "*[b]*", "a[b]c", "back\\\\slash", "abc\\", "ｈ*", "*o w*", "e", "É", "??", "x?y", "*l*o*",
    ]
    static let regexes = [
        "a.*", ".*c", "[aA]bc", "(", "a+", "h.*o w.*", "", ".*", "\\w+", "x.y", "[[:upper:]]+", "ab?c",
    ]
    static let affixes = [
        "a", "ab", "A", "Ab", "é", "É", "e", "x%", "_y", "*", "?", "c", "bc", "BÇ", "o", "", "ｈ", "ss", "ß", "\\",
        "[b]", "日本",
        "\0", "admin", "admin\0", "\0evil", "\0b", "a\0", "\u{1B}",
    ]

    mutating func int(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ pool: [T]) -> T { pool[int(pool.count)] }

    mutating func options() -> ComparisonPredicate.Options {
        pick([
            [], [], [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
            [.normalized], [.caseInsensitive, .normalized], [.localeSensitive],
        ])
    }

    mutating func constant(_ kind: Kind) -> ConstantValue {
        switch kind {
        case .string: return .string(pick(SQLFixture.strings.compactMap { $0 } + Self.affixes))
        case .number:
            if chance(12) { return edgeNumber() }
            return pick([
                .int(int(10) - 3), .int(int(10) - 3), .double(pick([0.5, 1.25, 2.0, -3.5, 4.75, 1.0])),
                .bool(chance(50)), .decimal(Decimal(2)),
            ])
        case .date:
            if chance(15) { return .date(Date(timeIntervalSinceReferenceDate: 12345)) }
            return .date(pick(SQLFixture.dates.compactMap { $0 }))
        case .bool: return pick([.bool(true), .bool(false), .int(0), .int(1), .int(2)])
        case .uuid:
            return chance(20)
                ? .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
                : .uuid(pick(SQLFixture.uuids.compactMap { $0 }))
        }
    }

    /// Numbers where exactness shows: integers beyond 2^53 and at 64 bits, the Doubles next to
    /// them, the infinities and NaN, decimals a REAL holds (19.99) and does not.
    mutating func edgeNumber() -> ConstantValue {
        pick([
            .int(1 << 53), .int((1 << 53) + 1), .int(Int.max), .int(Int.min), .int(Int.max - 1),
            .double(9007199254740992.0), .double(9007199254740994.0), .double(9.223372036854775807e18),
            .double(-9.223372036854775808e18),
            .double(.infinity), .double(-.infinity), .double(.nan), .double(19.99),
            .decimal(Decimal(string: "19.99")!), .decimal(Decimal(string: "0.1")!),
            .decimal(Decimal(string: "9007199254740993")!),
            .decimal(Decimal(string: "19.990000000000000000001")!), .decimal(Decimal(string: "123456789012345678")!),
            .decimal(.nan),
        ])
    }

    /// A constant of the kind most of the time, of another kind or nil sometimes.
    mutating func operandConstant(_ kind: Kind, for op: ComparisonPredicate.Operator) -> ConstantValue {
        if chance(7) { return pick([.null, .nsNull, .null]) }
        if chance(8) { return constant(pick(Kind.allCases)) }
        if kind == .string {
            switch op {
            case .like: return .string(pick(Self.likePatterns))
            case .matches: return .string(pick(Self.regexes))
            case .beginsWith, .endsWith, .contains, .in:
                return .string(pick(Self.affixes + ["hello world", "abc", "straße"]))
            default: break
            }
        }
        return constant(kind)
    }

    mutating func scalarOperator(_ kind: Kind) -> ComparisonPredicate.Operator {
        switch kind {
        case .string:
            return pick([
                .equalTo, .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
                .beginsWith, .beginsWith, .endsWith, .contains, .contains, .like, .like, .matches, .in,
            ])
        case .number, .date, .bool:
            if chance(4) { return pick([.beginsWith, .like, .contains, .matches]) }
            return pick([.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo])
        case .uuid:
            return chance(10) ? .lessThan : pick([.equalTo, .notEqualTo])
        }
    }

    func keyPath(_ key: Key) -> ObjectGraph.Expression { .keyPath(key.path) }

    mutating func comparison() -> ObjectGraph.Predicate {
        let keys = Self.keys[entity]!
        let roll = int(100)
        switch roll {
        case 0..<38:
            let key = pick(keys)
            let op = scalarOperator(key.kind)
            return .comparison(
                ComparisonPredicate(keyPath(key), op, .constant(operandConstant(key.kind, for: op)), options: options())
            )
        case 38..<45:
            // The constant on the left.
            let key = pick(keys)
            let op = scalarOperator(key.kind)
            return .comparison(
                ComparisonPredicate(.constant(operandConstant(key.kind, for: op)), op, keyPath(key), options: options())
            )
        case 45..<53:
            // Two key paths, usually of one kind.
            let a = pick(keys)
            let sameKind = keys.filter { $0.kind == a.kind }
            let b = chance(80) ? pick(sameKind) : pick(keys)
            var op = scalarOperator(a.kind)
            if op == .in && chance(50) { op = .contains }
            return .comparison(ComparisonPredicate(keyPath(a), op, keyPath(b), options: options()))
        case 53..<67:
            return quantified()
        case 67..<73:
            return collectionOperator()
        case 73..<79:
            let key = pick(keys)
            var elements: [ConstantValue] = []
            for _ in 0..<int(5) {
                elements.append(chance(75) ? constant(key.kind) : (chance(50) ? .null : constant(pick(Kind.allCases))))
            }
            let collection: ConstantValue = chance(20) ? .set(Set(elements)) : .array(elements)
            if chance(25) {
                return .comparison(
                    ComparisonPredicate(.constant(collection), .contains, keyPath(key), options: options()))
            }
            return .comparison(ComparisonPredicate(keyPath(key), .in, .constant(collection), options: options()))
        case 79..<84:
            let key = pick(keys.filter { $0.kind != .uuid })
            let bounds: ConstantValue
            switch int(10) {
            case 0: bounds = .array([constant(key.kind)])
            case 1: bounds = .array([constant(key.kind), .null])
            case 2: bounds = constant(key.kind)
            case 3: bounds = .array([constant(key.kind), constant(pick(Kind.allCases))])
            default: bounds = .array([constant(key.kind), constant(key.kind)])
            }
            return .comparison(ComparisonPredicate(keyPath(key), .between, .constant(bounds), options: options()))
        case 84..<89:
            return objectComparison()
        case 89..<93:
            return subquery()
        case 93..<95:
            let kind = pick(Kind.allCases)
            let op = scalarOperator(kind)
            return .comparison(
                ComparisonPredicate(
                    .constant(constant(kind)), op, .constant(operandConstant(kind, for: op)), options: options()))
        default:
            let key = pick(keys.filter { $0.kind == .string })
            let text = ConstantValue.string(pick(["hello world", "abc", "ABC", "straße", "x_y", "ｈｅｌｌｏ", ""]))
            return chance(50)
                ? .comparison(ComparisonPredicate(keyPath(key), .in, .constant(text), options: options()))
                : .comparison(ComparisonPredicate(.constant(text), .contains, keyPath(key), options: options()))
        }
    }

    /// ANY/ALL/NONE over the entity's to-many relationship (or, rarely, a constant array).
    mutating func quantified() -> ObjectGraph.Predicate {
        if chance(6) {
            let elements: [ConstantValue] = (0..<int(4)).map { _ in constant(.number) }
            let key = pick(Self.keys[entity]!.filter { $0.kind == .number })
            let modifier: ComparisonPredicate.Modifier = chance(50) ? .any : .all
            return .comparison(
                ComparisonPredicate(
                    .constant(.array(elements)), scalarOperator(.number), keyPath(key), modifier: modifier))
        }
        let many = throughToOne()
        let key = pick(many.keys)
        var op = scalarOperator(key.kind)
        if key.kind == .number && chance(15) { op = .between }
        let right: ConstantValue
        if op == .between {
            right = .array([constant(key.kind), constant(key.kind)])
        } else if op == .in {
            right = chance(50) ? .array((0..<3).map { _ in constant(key.kind) }) : operandConstant(key.kind, for: op)
        } else {
            right = operandConstant(key.kind, for: op)
        }
        let comparison = ComparisonPredicate(
            .keyPath("\(many.relationship).\(key.path)"), op, .constant(right),
            modifier: chance(55) ? .any : .all, options: options())
        if comparison.modifier == .any && chance(30) { return .not(.comparison(comparison)) } // NONE
        return .comparison(comparison)
    }

    /// The entity's to-many relationship, or for books sometimes `publisher.books`: a to-many
    /// reached through a to-one (a LEFT JOIN before the subquery; nil when there is no
    /// publisher).
    mutating func throughToOne() -> (relationship: String, destination: String, keys: [Key]) {
        if (entity == "Book" || entity == "Novel") && chance(25) {
            return ("publisher.books", "Book", Self.toMany["Publisher"]!.keys)
        }
        return Self.toMany[entity]!
    }

    mutating func collectionOperator() -> ObjectGraph.Predicate {
        let many = throughToOne()
        let numbers = many.keys.filter { $0.kind == .number }
        let left: String
        let kind: Kind
        switch int(6) {
        case 0, 1:
            left = "\(many.relationship).@count"
            kind = .number
        case 2:
            left = "\(many.relationship).@sum.\(pick(numbers).path)"
            kind = .number
        case 3:
            left = "\(many.relationship).@avg.\(pick(numbers).path)"
            kind = .number
        default:
            let key = pick(many.keys.filter { $0.kind != .bool })
            left = "\(many.relationship).\(chance(50) ? "@min" : "@max").\(key.path)"
            kind = key.kind
        }
        let op = pick([
            ComparisonPredicate.Operator.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan,
            .greaterThanOrEqualTo,
        ])
        var right = operandConstant(kind, for: op)
        if kind == .number && chance(50) { right = .int(int(4)) }
        if chance(15) && (entity == "Book" || entity == "Novel") {
            // Through a to-one first: nil when the book has no publisher.
            return .comparison(ComparisonPredicate(.keyPath("publisher.books.@count"), op, .constant(.int(int(4)))))
        }
        return .comparison(ComparisonPredicate(.keyPath(left), op, .constant(right)))
    }

    mutating func objectID(_ entity: String, _ pk: Int64) -> ConstantValue {
        ManagedObjectID(entityName: entity, storeIdentifier: SQLFixture.storeIdentifier, primaryKey: pk)
            .predicateConstant
    }

    /// `self == %@`, `self IN %@`, `publisher == %@`, `ANY authors == %@`, `%@ IN books`, with
    /// IDs of the right entity, a sibling entity, another store, or temporary.
    mutating func someID(_ entity: String) -> ConstantValue {
        switch int(12) {
        case 0:
            return ManagedObjectID(entityName: entity, storeIdentifier: "OTHER", primaryKey: Int64(1 + int(8)))
                .predicateConstant
        case 1: return ManagedObjectID(temporaryFor: entity, number: 1).predicateConstant
        case 2: return objectID(pick(["Book", "Novel", "Author", "Publisher"]), Int64(1 + int(30)))
        case 3: return .string("x")
        default:
            let family = entity == "Book" ? ["Book", "Novel"] : [entity]
            return objectID(pick(family), Int64(1 + int(entity == "Book" || entity == "Novel" ? 30 : 8)))
        }
    }

    mutating func objectComparison() -> ObjectGraph.Predicate {
        let own = entity == "Novel" ? "Book" : entity
        switch int(6) {
        case 0:
            return .comparison(
                ComparisonPredicate(.evaluatedObject, chance(70) ? .equalTo : .notEqualTo, .constant(someID(own))))
        case 1:
            let ids: [ConstantValue] = (0..<int(5)).map { _ in someID(own) }
            return .comparison(ComparisonPredicate(.evaluatedObject, .in, .constant(.array(ids))))
        case 2 where entity == "Book" || entity == "Novel":
            let right: ConstantValue = chance(25) ? .null : someID("Publisher")
            return .comparison(
                ComparisonPredicate(.keyPath("publisher"), chance(70) ? .equalTo : .notEqualTo, .constant(right)))
        case 3:
            let many = Self.toMany[entity]!
            let ids: [ConstantValue] = (0..<int(4)).map { _ in someID(many.destination) }
            return .comparison(
                ComparisonPredicate(.keyPath(many.relationship), .in, .constant(.array(ids)), modifier: .any))
        case 4:
            let many = Self.toMany[entity]!
            return .comparison(
                ComparisonPredicate(.constant(someID(many.destination)), .in, .keyPath(many.relationship)))
        default:
            let many = Self.toMany[entity]!
            return .comparison(
                ComparisonPredicate(.keyPath(many.relationship), .contains, .constant(someID(many.destination))))
        }
    }

    mutating func subquery() -> ObjectGraph.Predicate {
        let many = Self.toMany[entity]!
        var inner: [ObjectGraph.Predicate] = []
        for _ in 0..<(1 + int(2)) {
            let key = pick(many.keys)
            let op = scalarOperator(key.kind)
            let left: ObjectGraph.Expression = chance(70) ? .member(.variable("x"), key.path) : .keyPath(key.path)
            inner.append(
                .comparison(
                    ComparisonPredicate(left, op, .constant(operandConstant(key.kind, for: op)), options: options())))
        }
        let body: ObjectGraph.Predicate = inner.count == 1 ? inner[0] : (chance(50) ? .and(inner) : .or(inner))
        let count = ObjectGraph.Expression.member(
            .subquery(collection: .keyPath(many.relationship), variable: "x", predicate: body), "@count")
        let op = pick([ComparisonPredicate.Operator.equalTo, .greaterThan, .lessThan, .greaterThanOrEqualTo])
        return .comparison(ComparisonPredicate(count, op, .constant(.int(int(3)))))
    }

    mutating func predicate(depth: Int = 3) -> ObjectGraph.Predicate {
        if depth == 0 || chance(45) { return comparison() }
        switch int(10) {
        case 0..<4: return .and((0..<(2 + int(2))).map { _ in predicate(depth: depth - 1) })
        case 4..<8: return .or((0..<(2 + int(2))).map { _ in predicate(depth: depth - 1) })
        case 8: return .not(predicate(depth: depth - 1))
        default: return chance(50) ? .constant(chance(50)) : .and([])
        }
    }

    /// Random sort descriptors over the entity's ordered keys.
    mutating func sortDescriptors() -> [ObjectGraph.SortDescriptor] {
        let keys = Self.keys[entity]!.filter { $0.kind != .uuid }
        return (0..<(1 + int(3))).map { _ in
            ObjectGraph.SortDescriptor(
                key: pick(keys).path, ascending: chance(50),
                comparator: pick(ObjectGraph.SortDescriptor.Comparator.allCases))
        }
    }
}
