import Foundation
import GRDB
import ObjectGraphPostgres
import TestSupport
import Testing

@testable import ObjectGraph

/// Fetches through a whole store, on SQLite and on PostgreSQL with one body: objects with
/// predicates, sorts, limits and offsets, IDs, counts, dictionaries (properties, expressions,
/// group by, having), single rows, to-many relationships and the keyset read a migration uses.
/// The rows are the SQL fixture's, written straight into the store's tables; every answer is
/// checked against the in-memory evaluator over the same objects.
///
/// Apple, NSFetchRequest reference (predicate, sortDescriptors, fetchLimit, fetchOffset,
/// resultType, propertiesToFetch, propertiesToGroupBy, havingPredicate) and Core Data
/// Programming Guide, "Fetching Objects": a store answers a fetch as the evaluator would.
@Suite struct StoreFetchTests {
    /// A store of one kind holding the fixture's rows, and the same objects in memory.
    final class Loaded {
        let directory: TemporaryDirectory
        let fixture: SQLFixture
        let coordinator: PersistentStoreCoordinator
        let context: ManagedObjectContext
        let store: PersistentStore

        init(
            directory: TemporaryDirectory, fixture: SQLFixture, coordinator: PersistentStoreCoordinator,
            context: ManagedObjectContext, store: PersistentStore
        ) {
            (self.directory, self.fixture, self.coordinator, self.context, self.store) = (
                directory, fixture, coordinator, context, store
            )
        }

        // The store's connections close with it.
        deinit {
            try? coordinator.remove(store)
            try? store.backend.close()
        }
    }

    /// A new store of `kind` with the fixture's rows (text without NUL, which PostgreSQL cannot
    /// hold, so both stores hold the same rows); nil when PostgreSQL is not installed.
    static func load(_ kind: StoreKind, seed: UInt64 = 41, test: String = #function) throws -> Loaded? {
        let directory = try TemporaryDirectory()
        guard let description = try kind.newStore(in: directory, test: test) else { return nil }
        description.storeUUID = SQLFixture.storeIdentifier
        let fixture = try SQLFixture(seed: seed, textWithoutNUL: true)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: fixture.model)
        let store = try coordinator.addPersistentStore(with: description)
        let objects = ["Publisher", "Author", "Book"].flatMap { fixture.objects[$0]! }
        let statements = objects.flatMap {
            SQLFixture.insertStatements($0, model: fixture.model, schema: fixture.schema)
        }
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: description.url!.path)
            try queue.write { db in
                for (sql, values) in statements { try db.execute(sql: sql, arguments: StatementArguments(values)) }
            }
            try queue.close()
        case .postgres:
            PostgresStoreType.register()
            let wire = try PostgresWires.connector()(description.url!, 1, 30)
            defer { wire.close() }
            try wire.withConnection { connection in
                for (sql, values) in statements {
                    _ = try connection.query(PostgresStatements.numberingPlaceholders(sql), values)
                }
            }
        }
        return Loaded(
            directory: directory, fixture: fixture, coordinator: coordinator,
            context: ManagedObjectContext(coordinator: coordinator), store: store)
    }

    /// The keys the evaluator selects, sorted and windowed as the request says.
    static func expected(_ request: ObjectGraph.AnyFetchRequest, _ fixture: SQLFixture) throws -> [Int64] {
        var objects = try fixture.objects[request.entityName]!.filter {
            try request.predicate?.checkedEvaluate(with: $0) ?? true
        }
        objects = try ObjectGraph.SortDescriptor.sort(objects, by: request.sortDescriptors)
        var keys = objects.map(\.id.primaryKey)
        if request.fetchOffset > 0 { keys = Array(keys.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { keys = Array(keys.prefix(request.fetchLimit)) }
        return keys
    }

    // Predicates, sorts and windows of generated requests: objects, IDs and counts agree
    // with the evaluator, in order.
    @Test(arguments: StoreKind.allCases)
    func objectsIDsAndCountsAgreeWithTheEvaluator(kind: StoreKind) throws {
        guard let loaded = try Self.load(kind) else { return }
        var generator = PredicateGenerator(seed: 77, entity: "Book")
        var rng = SeededGenerator(seed: 3)
        var answered = 0
        for i in 0..<120 {
            let request = FetchRequest(entityName: "Book")
            request.predicate = generator.predicate()
            request.sortDescriptors = i % 2 == 0 ? generator.sortDescriptors() : []
            // Without sort descriptors the order is the store's (unspecified, as Core Data's):
            // compared as a set, and windows only over sorted requests.
            let sorted = !request.sortDescriptors.isEmpty
            request.fetchLimit = sorted && i % 3 == 0 ? Int.random(in: 1...6, using: &rng) : 0
            request.fetchOffset = sorted && i % 4 == 0 ? Int.random(in: 0...4, using: &rng) : 0
            guard let expected = try? Self.expected(request, loaded.fixture) else { continue }
            let objects: [ManagedObject]
            do { objects = try loaded.context.fetch(request) } catch let error as ObjectGraph.PredicateError {
                // The translator refuses operands the evaluator only skipped by short-circuiting.
                _ = error
                continue
            }
            answered += 1
            let format = request.predicate?.predicateFormat ?? "nil"
            func inOrder(_ keys: [Int64]) -> [Int64] { sorted ? keys : keys.sorted() }
            #expect(
                inOrder(objects.map(\.objectID.primaryKey)) == inOrder(expected),
                "\(kind): \(format) sorted by \(request.sortDescriptors) limit \(request.fetchLimit) offset \(request.fetchOffset)"
            )
            #expect(try loaded.context.count(for: request) == expected.count, "\(kind): count of \(format)")
            let ids = try loaded.context.fetchObjectIDs(request).map(\.primaryKey)
            #expect(
                inOrder(ids) == inOrder(expected),
                "\(kind): IDs of \(format) sorted by \(request.sortDescriptors) limit \(request.fetchLimit) offset \(request.fetchOffset)"
            )
        }
        #expect(answered > 80)
    }

    // Dictionaries: properties across a to-one, aggregates over the whole entity and by
    // group, a having predicate and a window over the groups; each value as the evaluator
    // computes it from the same objects.
    @Test(arguments: StoreKind.allCases)
    func dictionariesAgreeWithTheObjects(kind: StoreKind) throws {
        guard let loaded = try Self.load(kind) else { return }
        let books = loaded.fixture.objects["Book"]!
        func expression(_ name: String, _ format: String, _ type: AttributeType) throws
            -> ObjectGraph.AnyFetchRequest.Property
        {
            .expression(
                ExpressionDescription(name: name, expression: try Expression(checkedFormat: format), resultType: type))
        }
        let request = FetchRequest(entityName: "Book")
        request.resultType = .dictionary
        request.propertiesToFetch = [
            try expression("books", "count:(title)", .integer64), try expression("top", "max:(salesRank)", .integer32),
            try expression("total", "sum:(salesRank)", .integer64), try expression("low", "min:(price)", .double),
        ]
        let whole = try loaded.context.fetchDictionaries(request)
        #expect(whole.count == 1)
        let ranks = books.compactMap { $0.values["salesRank"] as? Int }
        #expect(whole.first?["books"] as? Int == books.filter { $0.values["title"] as? String != nil }.count)
        #expect(whole.first?["top"] as? Int == ranks.max())
        #expect(whole.first?["total"] as? Int == ranks.reduce(0, +))
        #expect(whole.first?["low"] as? Double == books.compactMap { $0.values["price"] as? Double }.min())

        let grouped = FetchRequest(entityName: "Book")
        grouped.resultType = .dictionary
        grouped.predicate = try ObjectGraph.Predicate(checkedFormat: "salesRank != nil")
        grouped.propertiesToFetch = [.named("salesRank"), try expression("count", "count:(SELF)", .integer64)]
        grouped.propertiesToGroupBy = [.named("salesRank")]
        grouped.sortDescriptors = [ObjectGraph.SortDescriptor(key: "salesRank", ascending: false)]
        let counts = Dictionary(grouping: ranks, by: { $0 }).mapValues(\.count)
        let expectedGroups = counts.keys.sorted(by: >)
        let rows = try loaded.context.fetchDictionaries(grouped)
        #expect(rows.map { $0["salesRank"] as? Int } == expectedGroups)
        #expect(rows.map { $0["count"] as? Int } == expectedGroups.map { counts[$0] })
        grouped.havingPredicate = try ObjectGraph.Predicate(checkedFormat: "count > 1")
        grouped.fetchLimit = 2
        let having = expectedGroups.filter { counts[$0]! > 1 }.prefix(2)
        #expect(try loaded.context.fetchDictionaries(grouped).map { $0["salesRank"] as? Int } == Array(having))

        let across = FetchRequest(entityName: "Book")
        across.resultType = .dictionary
        across.propertiesToFetch = [.named("title"), .named("publisher.name"), .named("publisher")]
        across.sortDescriptors = [ObjectGraph.SortDescriptor(key: "salesRank")]
        across.fetchOffset = 2
        across.fetchLimit = 5
        let sorted = try ObjectGraph.SortDescriptor.sort(books, by: across.sortDescriptors).dropFirst(2).prefix(5)
        let fetched = try loaded.context.fetchDictionaries(across)
        #expect(fetched.map { $0["title"] as? String } == sorted.map { $0.values["title"] as? String })
        #expect(
            fetched.map { $0["publisher.name"] as? String }
                == sorted.map { ($0.values["publisher"] as? TestObject)?.values["name"] as? String })
        #expect(
            fetched.map { ($0["publisher"] as? ManagedObjectID)?.primaryKey }
                == sorted.map { ($0.values["publisher"] as? TestObject)?.id.primaryKey })
    }

    // Rows by ID, to-many relationships both ways (one-to-many and many-to-many), and the
    // keyset read: the same objects and values as the fixture's.
    @Test(arguments: StoreKind.allCases)
    func rowsRelationshipsAndKeysetReads(kind: StoreKind) throws {
        guard let loaded = try Self.load(kind) else { return }
        let backend = loaded.store.backend
        let model = loaded.fixture.model
        let books = loaded.fixture.objects["Book"]!
        for book in books {
            let row = try #require(try backend.row(for: book.id, model: model))
            let entity = model.entitiesByName[book.id.entityName]!
            let title = entity.attributes.firstIndex { $0.name == "title" }!
            #expect(row.entityName == book.id.entityName)
            #expect(
                row.values[title].any as? String == book.values["title"] as? String,
                "\(kind): title of \(book.id.primaryKey)")
        }
        #expect(try backend.rows(for: books.map(\.id), model: model).count == books.count)

        let publishers = loaded.fixture.objects["Publisher"]!
        let booksOfPublisher = model.entitiesByName["Publisher"]!.relationship(named: "books")!
        let related = try backend.relatedIDs(of: publishers.map(\.id), relationship: booksOfPublisher, model: model)
        for publisher in publishers {
            let expected = Set((publisher.values["books"] as! [TestObject]).map(\.id))
            #expect(related[publisher.id] == expected, "\(kind): books of publisher \(publisher.id.primaryKey)")
        }
        let authorsOfBook = model.entitiesByName["Book"]!.relationship(named: "authors")!
        for book in books {
            let expected = Set((book.values["authors"] as! [TestObject]).map(\.id))
            #expect(
                try backend.relatedIDs(of: book.id, relationship: authorsOfBook, model: model) == expected,
                "\(kind): authors of \(book.id.primaryKey)")
        }

        let request = FetchRequest(entityName: "Book")
        request.predicate = try ObjectGraph.Predicate(checkedFormat: "salesRank >= 0")
        var keys: [Int64] = []
        var after: Int64 = 0
        while true {
            let batch = try backend.fetchRows(request, afterPrimaryKey: after, limit: 4, model: model)
            guard let last = batch.last else { break }
            keys += batch.map(\.primaryKey)
            after = last.primaryKey
        }
        #expect(keys == (try Self.expected(request, loaded.fixture)))
    }
}
