import Foundation
import ObjectGraph
import Testing
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
        let error = #expect(throws: CoreDataError.self) {
            _ = try FetchUtilities.objects(forEntityNamed: "Magazine", in: context)
        }
        #expect(error?.message.contains("no entity named Magazine") == true)
    }

    // Apple, "Fetching Managed Objects", Listing 1.
    @Test func listingOneMatchesWorsleyInAnyCaseAboveTheSalary() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(checkedFormat: "(lastName LIKE[c] 'Worsley') AND (salary > %@)", 70_000)
        request.sortDescriptors = [SortDescriptor(key: "firstName", ascending: true)]
        let names = try context.fetch(request).map { try $0.checkedValue(forKey: "firstName") as? String }
        #expect(names == ["Anne", "Mary"])
        #expect(request.predicate?.predicateFormat == #"lastName LIKE[c] "Worsley" AND salary > 70000"#)
        // Without [c] the comparison is case-sensitive: Anne "worsley" drops out.
        request.predicate = try Predicate(checkedFormat: "(lastName LIKE 'Worsley') AND (salary > %@)", 70_000)
        #expect(try context.fetch(request).count == 1)
    }

    // The sort-case section: compare: puts every upper-case letter first; a comparator of
    // caseInsensitiveCompare sorts "worsley" among the Worsleys, in SQLite and in memory alike.
    @Test func aCaseInsensitiveComparatorSortsLowerCaseAmongUpperCase() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        let request = FetchRequest(entityName: "Employee")
        request.sortDescriptors = [SortDescriptor(key: "lastName"), SortDescriptor(key: "firstName")]
        let byDefault = try context.fetch(request).map { try $0.checkedValue(forKey: "firstName") as? String }
        #expect(byDefault == ["Carol", "Bob", "Joe", "Mary", "Anne"])
        request.sortDescriptors = [
            SortDescriptor(key: "lastName", ascending: true, comparator: .caseInsensitiveCompare),
            SortDescriptor(key: "firstName"),
        ]
        let ignoringCase = try context.fetch(request)
        #expect(
            try ignoringCase.map { try $0.checkedValue(forKey: "firstName") as? String } == [
                "Carol", "Bob", "Anne", "Joe", "Mary",
            ])
        // The same order in memory, as Core Data's sortedArray(using:) gives.
        let shuffled = ignoringCase.reversed().map { $0 }
        #expect(
            try SortDescriptor.sort(shuffled, by: request.sortDescriptors).map {
                try $0.checkedValue(forKey: "firstName") as? String
            } == ["Carol", "Bob", "Anne", "Joe", "Mary"])
    }

    // Apple, "Retrieving Specific Objects": self == %@ with an object or an object ID, and a
    // count of 0 once another context has deleted the object.
    @Test func selfEqualsWorksWithObjectsAndIDsAndSeesDeletions() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let mary = try SampleData.insertEmployees(into: context)[0]
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(checkedFormat: "self == %@", mary)
        #expect(try context.count(for: request) == 1)
        request.predicate = try Predicate(checkedFormat: "self == %@", mary.objectID)
        #expect(try context.count(for: request) == 1)
        let elsewhere = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        try elsewhere.checkedDelete(try elsewhere.existingObject(with: mary.objectID))
        try elsewhere.save()
        #expect(try context.count(for: request) == 0)
    }

    // Apple, "Retrieving Specific Objects": self IN %@ for several object IDs.
    @Test func selfInFindsTheObjectsStillThere() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        let elsewhere = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        try elsewhere.checkedDelete(try elsewhere.existingObject(with: employees[1].objectID))
        try elsewhere.save()
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(checkedFormat: "self IN %@", employees.prefix(3).map(\.objectID))
        #expect(Set(try context.fetchObjectIDs(request)) == [employees[0].objectID, employees[2].objectID])
    }

    // Apple, "Fetching Specific Values": the maximum salary and the earliest creation date,
    // computed by the store.
    @Test func expressionDescriptionsComputeValuesInTheStore() throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        for days in [-30.0, -2, 5] {
            let event = try context.insertNewObject(forEntityName: "Event")
            try event.checkedSetValue(Workbench.date(days: days), forKey: "creationDate")
        }
        try context.save()
        let request = FetchRequest(entityName: "Employee")
        request.resultType = .dictionary
        request.propertiesToFetch = [
            .expression(
                ExpressionDescription(
                    name: "maxSalary", expression: try Expression(checkedFormat: "max:(salary)"), resultType: .decimal))
        ]
        #expect(try context.fetchDictionaries(request).first?["maxSalary"] as? Decimal == 130_000)
        let events = FetchRequest(entityName: "Event")
        events.resultType = .dictionary
        events.propertiesToFetch = [
            .expression(
                ExpressionDescription(
                    name: "minDate", expression: try Expression(checkedFormat: "min:(creationDate)"), resultType: .date)
            )
        ]
        #expect(try context.fetchDictionaries(events).first?["minDate"] as? Date == Workbench.date(days: -30))
    }

    // Apple, "Fetching and Entity Inheritance": a fetch for the abstract Graphic returns
    // Circles, TextAreas and Lines.
    @Test func aFetchForTheParentEntityReturnsEverySubentity() throws {
        let context = try bench.makeContext(model: FetchingModels.drawing())
        for entity in ["Circle", "TextArea", "Line"] { try context.insertNewObject(forEntityName: entity) }
        try context.save()
        #expect(
            Set(try context.fetch(FetchRequest(entityName: "Graphic")).map(\.entity.name)) == [
                "Circle", "TextArea", "Line",
            ])
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
        try employees[0].checkedSetValue("MW", forKey: "initials")
        let predicate = try Predicate(checkedFormat: "initials == %@", "MW")
        let request = FetchRequest(entityName: "Employee")
        request.predicate = predicate
        let error = #expect(throws: CoreDataError.self) { _ = try context.fetch(request) }
        #expect(error?.message.contains("keypath initials not found in entity") == true)
        #expect(try employees.filter { try predicate.checkedEvaluate(with: $0) } == [employees[0]])
    }

    // The first-steps section: the stack in four lines; an inserted object is only in memory,
    // with a temporary ID, until the save; a second context fetches it from the file; a
    // context's object(with:) is a fault until a value is read.
    @Test func firstStepsSaveFetchBackAndFireAFault() throws {
        let folder = try bench.makeDataFolder()
        let model = try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("author", .string)
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let storeURL = folder.appendingPathComponent("Books.sqlite")
        try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
        #expect(context.hasChanges && book.objectID.isTemporaryID)
        // Before the save the store has nothing: a second context finds no book.
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Book")) == 0)
        try context.save()
        #expect(!context.hasChanges && !book.objectID.isTemporaryID)
        #expect(FileManager.default.fileExists(atPath: storeURL.path))

        let reader = ManagedObjectContext(coordinator: coordinator)
        let fetched = try reader.fetch(FetchRequest(entityName: "Book"))
        #expect(fetched.count == 1)
        #expect(fetched.first !== book, "another context has its own object for the row")
        #expect(try fetched.first?.checkedValue(forKey: "title") as? String == "Fetch, Clarus, Fetch")

        // The context is kept: an object holds its context weakly, as in Core Data.
        let third = ManagedObjectContext(coordinator: coordinator)
        let fault = third.object(with: book.objectID)
        #expect(fault.isFault)
        #expect(try fault.checkedValue(forKey: "title") as? String == "Fetch, Clarus, Fetch")
        #expect(!fault.isFault)
    }

    // The first-steps section prints what its listings say, in order.
    @Test func firstStepsPrintsTheFaultBeforeAndAfter() throws {
        var lines: [String] = []
        try ChapterRunner.run(FetchingChapter.self, sections: ["first-steps"], showingSQL: false) { lines.append($0) }
        let inserted = try #require(
            lines.firstIndex { $0.hasPrefix("Inserted; unsaved changes: true, temporary ID: true") })
        let saved = try #require(
            lines.firstIndex { $0.hasPrefix("Saved; unsaved changes: false, temporary ID: false") })
        let before = try #require(lines.firstIndex { $0 == "Before reading a value, isFault: true" })
        let after = try #require(lines.firstIndex { $0.hasSuffix("now isFault: false") })
        #expect(inserted < saved && saved < before && before < after)
    }

    // Apple, NSFetchRequest: fetchLimit caps the results, fetchOffset skips matching entries
    // ("an offset of 4 will return an empty array" for four objects); 0 means no limit.
    @Test func fetchLimitAndOffsetCutAWindowFromTheSortedResults() throws {
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        let byRank = SampleData.books.sorted { $0.salesRank < $1.salesRank }.map(\.title)
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        func titles() throws -> [String] {
            try context.fetch(request).map { try $0.checkedValue(forKey: "title") as? String ?? "" }
        }
        #expect(try titles() == byRank)
        request.fetchLimit = 2
        #expect(try titles() == Array(byRank[0..<2]))
        request.fetchOffset = 2
        #expect(try titles() == Array(byRank[2..<4]))
        request.fetchOffset = 3
        #expect(try titles() == Array(byRank[3...]))
        request.fetchOffset = 4
        #expect(try titles().isEmpty)
        request.fetchLimit = 0
        request.fetchOffset = 1
        #expect(try titles() == Array(byRank[1...]))
        #expect(try context.count(for: request) == 3)
    }

    // With unsaved changes the window applies to the merged results, as in Core Data.
    @Test func theWindowAppliesAfterUnsavedChangesAreMerged() throws {
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        let newcomer = try context.insertNewObject(forEntityName: "Book")
        try newcomer.checkedSetValue("Number One", forKey: "title")
        try newcomer.checkedSetValue(1, forKey: "salesRank")
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        request.fetchLimit = 2
        #expect(
            try context.fetch(request).map { try $0.checkedValue(forKey: "title") as? String } == [
                "Number One", "Fetch, Clarus, Fetch",
            ])
    }

    /// The bookshop's books saved by one context, a second context with none of them in
    /// memory, and a request for them by sales rank in batches of two.
    private func batchedBooks() throws -> (
        context: ManagedObjectContext, reader: ManagedObjectContext, request: FetchRequest<ManagedObject>
    ) {
        let context = try bench.makeContext(model: FetchingModels.bookshop())
        try SampleData.insertBooks(into: context)
        let reader = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "salesRank")]
        request.fetchBatchSize = 2
        return (context, reader, request)
    }

    // Apple, fetchBatchSize: identities of all matches are recorded, data is fetched a batch
    // at a time on demand. Here: faults in fetch order, one batch loaded per first use.
    @Test func fetchBatchSizeLoadsValuesOneBatchAtATime() throws {
        let (context, reader, request) = try batchedBooks()
        let log = SelectLog()
        context.persistentStoreCoordinator.sqlLog.handler = { line in
            if line.hasPrefix("CoreData: sql: SELECT") { log.lines.append(line) }
        }
        let books = try reader.fetch(request)
        #expect(books.map(\.isFault) == [true, true, true, true])
        #expect(log.lines.count == 1)
        _ = try books[1].checkedValue(forKey: "title")
        #expect(books.map(\.isFault) == [false, false, true, true])
        #expect(log.lines.count == 2)
        _ = try books[0].checkedValue(forKey: "author")
        #expect(log.lines.count == 2, "the first batch is already loaded")
        _ = try books[3].checkedValue(forKey: "title")
        #expect(books.map(\.isFault) == [false, false, false, false])
        #expect(log.lines.count == 3)
        // Batching changes when values load, never which objects or in what order.
        let byRank = SampleData.books.sorted { $0.salesRank < $1.salesRank }.map(\.title)
        #expect(try books.map { try $0.checkedValue(forKey: "title") as? String } == byRank)
        #expect(
            try books.map { try $0.checkedValue(forKey: "salesRank") as? Int }
                == SampleData.books.map(\.salesRank).sorted())
    }

    // A batch whose rows another context deleted fails with Core Data's could-not-fulfil-a-
    // fault error naming the object, and the rest of the fetch stays usable.
    @Test func aBatchDeletedElsewhereFailsClearly() throws {
        let (context, reader, request) = try batchedBooks()
        let books = try reader.fetch(request)
        let elsewhere = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        for book in books.suffix(2) { try elsewhere.checkedDelete(try elsewhere.existingObject(with: book.objectID)) }
        try elsewhere.save()
        #expect(try books[0].checkedValue(forKey: "title") as? String == "Fetch, Clarus, Fetch")
        let error = #expect(throws: CoreDataError.self) { _ = try books[3].checkedValue(forKey: "title") }
        #expect(error?.message.contains(books[3].objectID.description) == true)
    }

    // The chapter's output is the same bytes on every run.
    @Test func theChapterPrintsTheSameOnEveryRun() throws {
        var first: [String] = []
        var second: [String] = []
        try ChapterRunner.run(FetchingChapter.self, sections: ["self-in", "specific-values"], showingSQL: true) {
            first.append($0)
        }
        try ChapterRunner.run(FetchingChapter.self, sections: ["self-in", "specific-values"], showingSQL: true) {
            second.append($0)
        }
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

/// The SELECTs a coordinator's log reports; the log calls its handler on the fetching thread,
/// the test's own, so no lock is needed.
private final class SelectLog: @unchecked Sendable {
    var lines: [String] = []
}
