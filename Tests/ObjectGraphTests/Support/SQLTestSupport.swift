import Foundation
import GRDB
import ObjectGraphPostgres
import TestSupport

@testable import ObjectGraph

/// The model the SQL translation tests share: publishers with many books (one-to-many, a
/// to-one back), books with many authors (many-to-many), and novels, a sub-entity of book
/// stored in the same table (Apple, "Core Data Programming Guide", entity inheritance).
func sqlTestModel() throws -> ManagedObjectModel {
    try ManagedObjectModel {
        EntityDescription("Publisher") {
            AttributeDescription("name", .string)
            AttributeDescription("rank", .integer32)
            AttributeDescription("founded", .date)
            AttributeDescription("revenue", .decimal)
            RelationshipDescription("books", toMany: "Book", inverse: "publisher")
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string)
            AttributeDescription("isbn", .string)
            AttributeDescription("salesRank", .integer32)
            AttributeDescription("price", .double)
            AttributeDescription("published", .date)
            AttributeDescription("inPrint", .boolean)
            AttributeDescription("code", .uuid)
            AttributeDescription("scratch", .string, transient: true)
            RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
            RelationshipDescription("authors", toMany: "Author", inverse: "books")
        }
        EntityDescription("Novel", parent: "Book") {
            AttributeDescription("genre", .string)
            AttributeDescription("pages", .integer16)
        }
        EntityDescription("Author") {
            AttributeDescription("name", .string)
            AttributeDescription("age", .integer64)
            RelationshipDescription("books", toMany: "Book", inverse: "authors")
        }
    }
}

/// An object as the in-memory evaluator sees it: values by key (nil for keys it lacks, as a
/// dictionary answers), relationships as objects and arrays of objects, compared in
/// predicates as its object ID, as managed objects are.
final class TestObject: KeyValueCoding, PredicateArgumentConvertible, @unchecked Sendable {
    let id: ManagedObjectID
    var values: [String: Any] = [:]

    init(entity: String, primaryKey: Int64) {
        id = ManagedObjectID(entityName: entity, storeIdentifier: SQLFixture.storeIdentifier, primaryKey: primaryKey)
    }

    func checkedValue(forKey key: String) throws -> Any? { values[key] }
    var predicateConstant: ConstantValue { id.predicateConstant }
}

/// A deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A PostgreSQL schema of its own on the test server, made for one fixture and dropped with it.
final class PostgresFixtureDatabase: @unchecked Sendable {
    // @unchecked Sendable: both properties are set once, in init.
    let wire: any PostgresWire
    let schemaName: String

    /// A fresh schema with the store's tables (PostgresSchema) and functions
    /// (PostgresFunctions); nil, having said why, when PostgreSQL is not installed.
    init?(schema: RelationalSchema, test: String = #function) throws {
        let name = PostgresTestServer.uniqueSchema("eq")
        guard let url = try PostgresTestServer.url(schema: name, for: test) else { return nil }
        PostgresStoreType.register()
        wire = try PostgresWires.connector()(url, 1, 30)
        schemaName = name
        try wire.withConnection { connection in
            _ = try connection.query("CREATE SCHEMA \(name)", [])
            for statement in PostgresSchema.creationStatements(for: schema) + PostgresFunctions.creationStatements {
                _ = try connection.query(statement, [])
            }
        }
    }

    /// Runs one statement written with `?` placeholders.
    func query(_ sql: String, _ arguments: [DatabaseValue]) throws -> PostgresWireResult {
        try wire.withConnection { try $0.query(PostgresStatements.numberingPlaceholders(sql), arguments) }
    }

    deinit {
        _ = try? wire.withConnection { try $0.query("DROP SCHEMA \(schemaName) CASCADE", []) }
        wire.close()
    }
}

/// A database laid out by ``RelationalSchema`` with random rows (in-memory SQLite, or a schema of
/// the PostgreSQL test server), and the same rows as ``TestObject``s for the evaluator.
struct SQLFixture {
    static let storeIdentifier = "5A1E0000-0000-0000-0000-000000000001"

    let model: ManagedObjectModel
    let schema: RelationalSchema
    /// The SQLite database (always made: the SQLite-only suites read it).
    let db: DatabaseQueue
    /// The PostgreSQL schema, when the fixture is PostgreSQL's.
    let postgres: PostgresFixtureDatabase?
    var dialect: SQLDialect { postgres == nil ? .sqlite : .postgres }
    /// Objects per entity name, sub-entities included, in primary-key order.
    private(set) var objects: [String: [TestObject]] = [:]

    static let strings: [String?] = [
        nil, "", "a", "A", "abc", "ABC", "Abc", "abd", "ábc", "a\u{301}bc", "àbç", "ÀBÇ", "x%y", "x_y", "xay",
        "a*b", "a?b", "a[b]c", "hello world", "Hello World", "HELLO", "ｈｅｌｌｏ", "straße", "STRASSE", "naïve",
        "Naive", "back\\slash", "日本語", "ﬁne", "10", "9", "é", "e", "E", "É", "x\ny", "Zoë", "zoe",
        // A NUL must not cut a string short, in SQL or in memory; control characters.
        "admin", "admin\0evil", "\0", "a\0", "\0bc", "A\0B\u{1}c", "\u{1B}0m\t\r\u{7F}", "\u{FFFE}",
    ]
    /// Integers at the edges of exact Double comparison and of 64 bits.
    static let bigIntegers: [Int] = [
        1 << 53, (1 << 53) + 1, (1 << 53) - 1, Int.max, Int.min, Int.max - 1, -(1 << 53) - 1,
    ]
    /// Doubles beyond every finite number.
    static let infinities: [Double] = [.infinity, -.infinity]
    static let dates: [Date?] = [
        nil, Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 86_400),
        Date(timeIntervalSinceReferenceDate: 1_000_000), Date(timeIntervalSinceReferenceDate: -500.5),
    ]
    static let uuids: [UUID?] = [
        nil, UUID(uuidString: "00000000-0000-0000-0000-0000000000AA")!,
        UUID(uuidString: "F0000000-0000-0000-0000-0000000000BB")!,
    ]

    /// PostgreSQL's text cannot hold a NUL: its fixture has each such string with U+2400
    /// (SYMBOL FOR NULL) in place of the NUL, at the same position of the pool, so the same
    /// seed picks the same rows.
    static let postgresStrings: [String?] = strings.map { $0?.replacingOccurrences(of: "\0", with: "\u{2400}") }

    /// The fixture of a store kind; nil, having said why, when PostgreSQL is not installed.
    static func make(_ kind: StoreKind, seed: UInt64, test: String = #function) throws -> SQLFixture? {
        switch kind {
        case .sqlite: return try SQLFixture(seed: seed)
        case .postgres:
            let schema = RelationalSchema(model: try sqlTestModel())
            guard let database = try PostgresFixtureDatabase(schema: schema, test: test) else { return nil }
            return try SQLFixture(seed: seed, postgres: database)
        }
    }

    /// The rows of a seed; with `textWithoutNUL` (always for PostgreSQL), strings from
    /// ``postgresStrings``.
    init(
        seed: UInt64, postgres: PostgresFixtureDatabase? = nil, textWithoutNUL: Bool = false, publishers: Int = 6,
        books: Int = 30, authors: Int = 8
    ) throws {
        model = try sqlTestModel()
        schema = RelationalSchema(model: model)
        self.postgres = postgres
        let strings = postgres == nil && !textWithoutNUL ? Self.strings : Self.postgresStrings
        var config = Configuration()
        config.prepareDatabase { SQLiteFunctions.register(on: $0) }
        db = try DatabaseQueue(configuration: config)
        var rng = SeededGenerator(seed: seed)
        func pick<T>(_ pool: [T]) -> T { pool[Int.random(in: 0..<pool.count, using: &rng)] }
        func maybe<T>(_ value: T, nilOneIn n: Int = 6) -> T? { Int.random(in: 0..<n, using: &rng) == 0 ? nil : value }

        var publisherObjects: [TestObject] = []
        for pk in 1...Int64(publishers) {
            let o = TestObject(entity: "Publisher", primaryKey: pk)
            o.values["name"] = pick(strings)
            o.values["rank"] = maybe(Int.random(in: -2...5, using: &rng))
            o.values["founded"] = pick(Self.dates)
            o.values["revenue"] = maybe(
                pick([
                    Decimal(string: "1.5")!, Decimal(2), Decimal(string: "-3.25")!, Decimal(0),
                    Decimal(string: "19.99")!, Decimal(string: "0.1")!, Decimal(string: "123456789012345678")!,
                ]))
            o.values["books"] = [TestObject]()
            publisherObjects.append(o)
        }
        var authorObjects: [TestObject] = []
        for pk in 1...Int64(authors) {
            let o = TestObject(entity: "Author", primaryKey: pk)
            o.values["name"] = pick(strings)
            o.values["age"] = maybe(
                Int.random(in: 0..<4, using: &rng) == 0 ? pick(Self.bigIntegers) : Int.random(in: 20...40, using: &rng))
            o.values["books"] = [TestObject]()
            authorObjects.append(o)
        }
        var bookObjects: [TestObject] = []
        for pk in 1...Int64(books) {
            let isNovel = Int.random(in: 0..<3, using: &rng) == 0
            let o = TestObject(entity: isNovel ? "Novel" : "Book", primaryKey: pk)
            o.values["title"] = pick(strings)
            o.values["isbn"] = pick(strings)
            o.values["salesRank"] = maybe(Int.random(in: -2...5, using: &rng))
            o.values["price"] = maybe(
                pick([0.5, 1.25, 2.0, -3.5, 4.75, 1.0, 19.99, 9007199254740992.0] + Self.infinities))
            o.values["published"] = pick(Self.dates)
            o.values["inPrint"] = maybe(Bool.random(using: &rng), nilOneIn: 4)
            o.values["code"] = pick(Self.uuids)
            if isNovel {
                o.values["genre"] = pick(strings)
                o.values["pages"] = maybe(Int.random(in: 0...3, using: &rng))
            }
            if let publisher = maybe(pick(publisherObjects), nilOneIn: 5) {
                o.values["publisher"] = publisher
                publisher.values["books"] = (publisher.values["books"] as! [TestObject]) + [o]
            }
            var mine: [TestObject] = []
            for author in authorObjects where Int.random(in: 0..<5, using: &rng) == 0 {
                mine.append(author)
                author.values["books"] = (author.values["books"] as! [TestObject]) + [o]
            }
            o.values["authors"] = mine
            bookObjects.append(o)
        }
        objects = [
            "Publisher": publisherObjects, "Author": authorObjects, "Book": bookObjects,
            "Novel": bookObjects.filter { $0.id.entityName == "Novel" },
        ]

        let model = self.model
        let schema = self.schema
        try db.write { db in
            for statement in schema.creationStatements { try db.execute(sql: statement) }
            for o in publisherObjects + authorObjects + bookObjects {
                try Self.insert(o, into: db, model: model, schema: schema)
            }
        }
        if let postgres {
            for o in publisherObjects + authorObjects + bookObjects {
                for (sql, values) in Self.insertStatements(o, model: model, schema: schema) {
                    _ = try postgres.query(sql, values)
                }
            }
        }
    }

    /// The INSERTs of an object's row and its many-to-many links (from the side that owns the
    /// table), with `?` placeholders.
    static func insertStatements(_ o: TestObject, model: ManagedObjectModel, schema: RelationalSchema) -> [(
        String, [DatabaseValue]
    )] {
        let entity = model.entitiesByName[o.id.entityName]!
        let mapping = schema.entities[entity.name]!
        var statements: [(String, [DatabaseValue])] = []
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values: [DatabaseValue] = [
            o.id.primaryKey.databaseValue, entity.entityNumber.databaseValue, 1.databaseValue,
        ]
        for attribute in entity.attributes where !attribute.isTransient {
            columns.append(mapping.attributeColumns[attribute.name]!)
            values.append(RelationalValues.databaseValue(o.values[attribute.name], type: attribute.attributeType))
        }
        for relationship in entity.relationships {
            if relationship.isToMany {
                guard let join = schema.joinTables["\(entity.rootEntityName).\(relationship.name)"],
                    join.ownerEntity == entity.rootEntityName, join.ownerRelationship == relationship.name
                else { continue }
                for other in o.values[relationship.name] as? [TestObject] ?? [] {
                    statements.append(
                        (
                            "INSERT INTO \(join.name) (\(join.ownerColumn), \(join.destinationColumn)) VALUES (?, ?)",
                            [o.id.primaryKey.databaseValue, other.id.primaryKey.databaseValue]
                        ))
                }
            } else {
                columns.append(mapping.toOneColumns[relationship.name]!)
                values.append(
                    (o.values[relationship.name] as? TestObject).map { $0.id.primaryKey.databaseValue } ?? .null)
            }
        }
        let row =
            "INSERT INTO \(mapping.tableName) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        return [(row, values)] + statements
    }

    /// Inserts an object's row, and its many-to-many links from the side that owns the table.
    static func insert(_ o: TestObject, into db: Database, model: ManagedObjectModel, schema: RelationalSchema) throws {
        for (sql, arguments) in insertStatements(o, model: model, schema: schema) {
            // GRDB binds text up to its first NUL: such a string goes as its bytes, made TEXT by CAST.
            var values = arguments
            var parts = sql.components(separatedBy: "?")
            for (i, value) in values.enumerated() {
                if case .string(let text) = value.storage, text.utf8.contains(0) {
                    parts[i] += "CAST("
                    parts[i + 1] = " AS TEXT)" + parts[i + 1]
                    values[i] = Data(text.utf8).databaseValue
                }
            }
            try db.execute(sql: parts.joined(separator: "?"), arguments: StatementArguments(values))
        }
    }

    /// The primary keys of the entity's rows (sub-entities included) for which the predicate
    /// holds in SQL, in key order.
    func sqlMatches(_ predicate: ObjectGraph.Predicate, entity: String) throws -> (
        keys: [Int64], sql: SQLFragment, joins: [String]
    ) {
        let description = model.entitiesByName[entity]!
        var translator = SQLFetchTranslator(model: model, schema: schema, entity: description)
        translator.dialect = dialect
        translator.storeIdentifier = Self.storeIdentifier
        let condition = try translator.condition(for: predicate)
        let joins = translator.joins
        let sql = Self.select(schema: schema, entity: description, model: model, joins: joins, condition: condition.sql)
        return (try keys(sql, condition.arguments), condition, joins)
    }

    static func select(
        schema: RelationalSchema, entity: EntityDescription, model: ManagedObjectModel, joins: [String],
        condition: String,
        orderBy: [String] = []
    ) -> String {
        let mapping = schema.entities[entity.name]!
        let entities = mapping.entityNumbersWithSubentities.map(String.init).joined(separator: ", ")
        let order = (orderBy + ["t0.Z_PK"]).joined(separator: ", ")
        return
            "SELECT t0.Z_PK FROM \(mapping.tableName) t0 \(joins.joined(separator: " ")) WHERE t0.Z_ENT IN (\(entities)) AND (\(condition)) ORDER BY \(order)"
    }

    /// The primary keys for which the evaluator says the predicate holds; rethrows its error.
    func memoryMatches(_ predicate: ObjectGraph.Predicate, entity: String) throws -> [Int64] {
        try objects[entity]!.filter { try predicate.checkedEvaluate(with: $0) }.map(\.id.primaryKey)
    }

    /// The first column of a statement's rows, as keys.
    func keys(_ sql: String, _ arguments: [DatabaseValue]) throws -> [Int64] {
        if let postgres {
            let result = try postgres.query(sql, arguments)
            return (0..<result.rowCount).map { Int64.fromDatabaseValue(result[$0, 0]) ?? -1 }
        }
        return try db.read { db in try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) }
    }

    /// The keys in the order SQL sorts them.
    func sqlOrder(_ descriptors: [ObjectGraph.SortDescriptor], entity: String) throws -> [Int64] {
        let description = model.entitiesByName[entity]!
        var translator = SQLFetchTranslator(model: model, schema: schema, entity: description)
        translator.dialect = dialect
        let terms = try translator.orderingTerms(for: descriptors)
        let sql = Self.select(
            schema: schema, entity: description, model: model, joins: translator.joins,
            condition: translator.truth(true).sql, orderBy: terms)
        return try keys(sql, [])
    }
}
