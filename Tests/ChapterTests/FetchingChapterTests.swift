import Testing
import Foundation
import ObjectGraph
import WorkbookSupport
@testable import FetchingChapter

// Every behaviour the fetching chapter states, asserted through the API (the book test checks
// the printed outputs). Each test names the text it comes from.
@Suite struct FetchingChapterTests {
    let bench = Workbench { _ in }

    // LaMarche, "Fetch Requests": a request with only an entity returns every object.
    @Test func aRequestWithOnlyAnEntityReturnsEveryObject() throws {
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        #expect(try context.fetch(FetchRequest(entityName: "Book")).count == SampleData.books.count)
        #expect(try FetchUtilities.objects(forEntityNamed: "Book", in: context).count == SampleData.books.count)
        let error = #expect(throws: CoreDataError.self) { _ = try FetchUtilities.objects(forEntityNamed: "Magazine", in: context) }
        #expect(error?.message.contains("no entity named Magazine") == true)
    }

    // Apple, "Fetching Managed Objects", Listing 1.
    @Test func listingOneMatchesWorsleyInAnyCaseAboveTheSalary() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(format: "(lastName LIKE[c] 'Worsley') AND (salary > %@)", 70_000)
        request.sortDescriptors = [SortDescriptor(key: "firstName", ascending: true)]
        let names = try context.fetch(request).map { try $0.value(forKey: "firstName") as? String }
        #expect(names == ["Anne", "Mary"])
        #expect(request.predicate?.predicateFormat == #"lastName LIKE[c] "Worsley" AND salary > 70000"#)
        // Without [c] the comparison is case-sensitive: Anne "worsley" drops out.
        request.predicate = try Predicate(format: "(lastName LIKE 'Worsley') AND (salary > %@)", 70_000)
        #expect(try context.fetch(request).count == 1)
    }

    // Apple, "Retrieving Specific Objects": self == %@ with an object or an object ID, and a
    // count of 0 once another context has deleted the object.
    @Test func selfEqualsWorksWithObjectsAndIDsAndSeesDeletions() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let mary = try SampleData.insertEmployees(into: context)[0]
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(format: "self == %@", mary)
        #expect(try context.count(for: request) == 1)
        request.predicate = try Predicate(format: "self == %@", mary.objectID)
        #expect(try context.count(for: request) == 1)
        let elsewhere = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        try elsewhere.delete(try elsewhere.existingObject(with: mary.objectID))
        try elsewhere.save()
        #expect(try context.count(for: request) == 0)
    }

    // Apple, "Retrieving Specific Objects": self IN %@ for several object IDs.
    @Test func selfInFindsTheObjectsStillThere() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        let elsewhere = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        try elsewhere.delete(try elsewhere.existingObject(with: employees[1].objectID))
        try elsewhere.save()
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(format: "self IN %@", employees.prefix(3).map(\.objectID))
        #expect(Set(try context.fetchObjectIDs(request)) == [employees[0].objectID, employees[2].objectID])
    }

    // Apple, "Fetching Specific Values": the maximum salary and the earliest creation date,
    // computed by the store.
    @Test func expressionDescriptionsComputeValuesInTheStore() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        for days in [-30.0, -2, 5] {
            let event = try context.insertNewObject(forEntityName: "Event")
            try event.setValue(Workbench.date(days: days), forKey: "creationDate")
        }
        try context.save()
        let request = FetchRequest(entityName: "Employee")
        request.resultType = .dictionary
        request.propertiesToFetch = [.expression(ExpressionDescription(name: "maxSalary", expression: try Expression(format: "max:(salary)"), resultType: .decimal))]
        #expect(try context.fetchDictionaries(request).first?["maxSalary"] as? Decimal == 130_000)
        let events = FetchRequest(entityName: "Event")
        events.resultType = .dictionary
        events.propertiesToFetch = [.expression(ExpressionDescription(name: "minDate", expression: try Expression(format: "min:(creationDate)"), resultType: .date))]
        #expect(try context.fetchDictionaries(events).first?["minDate"] as? Date == Workbench.date(days: -30))
    }

    // Apple, "Fetching and Entity Inheritance": a fetch for the abstract Graphic returns
    // Circles, TextAreas and Lines.
    @Test func aFetchForTheParentEntityReturnsEverySubentity() throws {
        let context = try bench.makeContext(model: FetchingModels.drawing())
        for entity in ["Circle", "TextArea", "Line"] { try context.insertNewObject(forEntityName: entity) }
        try context.save()
        #expect(Set(try context.fetch(FetchRequest(entityName: "Graphic")).map(\.entity.name)) == ["Circle", "TextArea", "Line"])
        let own = FetchRequest(entityName: "Graphic")
        own.includesSubentities = false
        #expect(try context.count(for: own) == 0)
        #expect(throws: CoreDataError.self) { try context.insertNewObject(forEntityName: "Graphic") }
    }

    // Apple, "Fetching Managed Objects": "You cannot fetch using a predicate based on transient
    // properties (although you can use transient properties to filter in memory yourself)."
    @Test func aTransientPropertyCannotBeFetchedByButFiltersInMemory() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        try employees[0].setValue("MW", forKey: "initials")
        let predicate = try Predicate(format: "initials == %@", "MW")
        let request = FetchRequest(entityName: "Employee")
        request.predicate = predicate
        let error = #expect(throws: CoreDataError.self) { _ = try context.fetch(request) }
        #expect(error?.message.contains("keypath initials not found in entity") == true)
        #expect(try employees.filter { try predicate.evaluate(with: $0) } == [employees[0]])
    }

    // The chapter's output is the same bytes on every run.
    @Test func theChapterPrintsTheSameOnEveryRun() throws {
        var first: [String] = [], second: [String] = []
        try ChapterRunner.run(FetchingChapter.self, sections: ["self-in", "specific-values"], showingSQL: true) { first.append($0) }
        try ChapterRunner.run(FetchingChapter.self, sections: ["self-in", "specific-values"], showingSQL: true) { second.append($0) }
        #expect(first == second)
        #expect(first.contains { $0.contains("CoreData: sql: SELECT") })
    }

    @Test func anUnknownSectionSaysWhichThereAre() throws {
        let error = #expect(throws: ChapterRunner.UnknownSection.self) {
            try ChapterRunner.run(FetchingChapter.self, sections: ["nope"], showingSQL: false) { _ in }
        }
        #expect(error?.description.contains("all-books, fetch-utilities, listing-1") == true)
    }
}
