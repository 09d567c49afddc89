import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSFetchRequest reference (resultType, propertiesToFetch, propertiesToGroupBy,
// havingPredicate, returnsDistinctResults, includesPendingChanges) and Core Data Programming
// Guide, "Fetching Specific Values" with NSExpressionDescription.
@Suite struct DictionaryResultTests {
    static let storeTypes: [StoreType] = [.inMemory, .sqlite, .postgres]

    /// Five books of two publishers; nil when PostgreSQL is not installed.
    func fixture(_ type: StoreType, test: String = #function) throws -> StackFixture? {
        guard let fixture = try StackFixture.ifAvailable(type, test: test) else { return nil }
        try fixture.seedBooks(["A", "B", "C"], publisher: "BookCo") // ranks 1, 2, 3
        try fixture.seedBooks(["D", "E"], publisher: "Tomes") // ranks 1, 2
        return fixture
    }

    func expression(_ name: String, _ format: String, _ type: AttributeType) throws -> AnyFetchRequest.Property {
        .expression(
            ExpressionDescription(name: name, expression: try Expression(checkedFormat: format), resultType: type))
    }

    @Test(arguments: storeTypes)
    func aggregatesWithoutGroupingGiveOneRow(_ type: StoreType) throws {
        guard let fixture = try fixture(type) else { return }
        let request = FetchRequest(entityName: "Book")
        request.resultType = .dictionary
        request.propertiesToFetch = [
            try expression("highest", "max:(salesRank)", .integer32),
            try expression("books", "count:(title)", .integer64),
            try expression("mean", "average:(salesRank)", .double),
            try expression("first", "min:(title)", .string),
        ]
        let rows = try fixture.context.fetchDictionaries(request)
        #expect(rows.count == 1)
        #expect(rows[0]["highest"] as? Int == 3)
        #expect(rows[0]["books"] as? Int == 5)
        #expect(rows[0]["mean"] as? Double == 1.8)
        #expect(rows[0]["first"] as? String == "A")
    }

    @Test(
        "propertiesToFetch takes names, property descriptions and expression descriptions mixed, as Apple's [Any]; an expression description set up property by property, and one left without an expression is an error naming it (NSExpressionDescription)",
        arguments: storeTypes)
    func propertiesOfEveryKindAndAnIncompleteDescription(_ type: StoreType) throws {
        guard let fixture = try fixture(type) else { return }
        let count = ExpressionDescription()
        count.name = "count"
        count.expression = try Expression(checkedFormat: "count:(title)")
        count.expressionResultType = .integer64
        let rank = try #require(
            fixture.coordinator.managedObjectModel.entitiesByName["Book"]?
                .attribute(named: "salesRank"))
        let request = FetchRequest(entityName: "Book")
        request.resultType = .dictionary
        request.propertiesToFetch = [rank, count]
        request.propertiesToGroupBy = ["salesRank"]
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        let rows = try fixture.context.fetchDictionaries(request)
        #expect(rows.map { $0["salesRank"] as? Int } == [1, 2, 3])
        #expect(rows.map { $0["count"] as? Int } == [2, 2, 1])
        // A class, as Apple's: the request holds the description itself.
        count.name = "titles"
        #expect(try fixture.context.fetchDictionaries(request).first?["titles"] as? Int == 2)

        let empty = ExpressionDescription()
        empty.name = "unfinished"
        request.propertiesToFetch = ["salesRank", empty]
        let error = #expect(throws: CoreDataError.self) { try fixture.context.fetchDictionaries(request) }
        #expect(error?.message.contains("\"unfinished\" has no expression") == true)
    }

    @Test(arguments: storeTypes)
    func groupsWithHaving(_ type: StoreType) throws {
        guard let fixture = try fixture(type) else { return }
        let request = FetchRequest(entityName: "Book")
        request.resultType = .dictionary
        request.propertiesToFetch = [.named("salesRank"), try expression("count", "count:(title)", .integer64)]
        request.propertiesToGroupBy = [.named("salesRank")]
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        let rows = try fixture.context.fetchDictionaries(request)
        #expect(rows.map { $0["salesRank"] as? Int } == [1, 2, 3])
        #expect(rows.map { $0["count"] as? Int } == [2, 2, 1])
        request.havingPredicate = try Predicate(checkedFormat: "count > 1")
        #expect(try fixture.context.fetchDictionaries(request).count == 2)
    }

    @Test(arguments: storeTypes)
    func propertiesDistinctAndToOneIDs(_ type: StoreType) throws {
        guard let fixture = try fixture(type) else { return }
        let request = FetchRequest(entityName: "Book")
        request.resultType = .dictionary
        request.propertiesToFetch = [.named("salesRank")]
        request.returnsDistinctResults = true
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        #expect(try fixture.context.fetchDictionaries(request).map { $0["salesRank"] as? Int } == [1, 2, 3])
        request.propertiesToFetch = [.named("title"), .named("publisher")]
        request.returnsDistinctResults = false
        request.sortDescriptors = [SortDescriptor(key: "title")]
        let rows = try fixture.context.fetchDictionaries(request)
        // A to-one relationship column yields the related object's ID.
        #expect((rows[0]["publisher"] as? ManagedObjectID)?.entityName == "Publisher")
        #expect(rows[0]["isbn"] == nil)
    }

    // "For dictionaries, the array returned from the fetch reflects the current state in the
    // persistent store, and does not take into account any pending changes".
    @Test(arguments: storeTypes)
    func dictionaryResultsIgnorePendingChanges(_ type: StoreType) throws {
        guard let fixture = try fixture(type) else { return }
        let extra = try fixture.context.insertNewObject(forEntityName: "Book")
        try extra.checkedSetValue("Z", forKey: "title")
        let request = FetchRequest(entityName: "Book")
        request.resultType = .dictionary
        request.propertiesToFetch = [.named("title")]
        #expect(try fixture.context.fetchDictionaries(request).count == 5)
        request.resultType = .count
        guard case .count(let n) = try fixture.context.execute(request) else {
            Issue.record("not a count")
            return
        }
        #expect(n == 6)
    }

    @Test(arguments: storeTypes)
    func toManyPropertiesAreRefused(_ type: StoreType) throws {
        guard let fixture = try fixture(type) else { return }
        let request = FetchRequest(entityName: "Publisher")
        request.resultType = .dictionary
        request.propertiesToFetch = [.named("books")]
        let error = #expect(throws: CoreDataError.self) { _ = try fixture.context.fetchDictionaries(request) }
        #expect(error?.message.contains("Invalid to-many relationship books") == true)
    }
}
