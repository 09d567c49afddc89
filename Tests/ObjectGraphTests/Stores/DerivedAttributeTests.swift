import Foundation
import GRDB
import ObjectGraph
import Testing

// Derived attributes (NSDerivedAttributeDescription) are computed by the SQLite store when a
// save writes: a one-to-many count by Core Data's triggers, the other expressions by the
// store's SQL; an object's own value is never written over them.
@Suite struct DerivedAttributeTests {
    static func model() throws -> ManagedObjectModel {
        let canonical = try Expression(checkedFormat: "canonical:(name)")
        let upper = try Expression(checkedFormat: "uppercase:(name)")
        let count = try Expression(checkedFormat: "books.@count")
        let sum = try Expression(checkedFormat: "books.@sum.pages")
        let now = try Expression(checkedFormat: "now()")
        let authorName = try Expression(checkedFormat: "author.name")
        return try ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                AttributeDescription("searchName", .string, derivationExpression: canonical)
                AttributeDescription("shout", .string, derivationExpression: upper)
                AttributeDescription("bookCount", .integer64, derivationExpression: count)
                AttributeDescription("totalPages", .integer64, derivationExpression: sum)
                AttributeDescription("touched", .date, derivationExpression: now)
                RelationshipDescription("books", toMany: "Book", inverse: "author")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
                AttributeDescription("authorName", .string, derivationExpression: authorName)
                RelationshipDescription("author", toOne: "Author", inverse: "books")
            }
        }
    }

    static func rows(_ url: URL, _ sql: String) throws -> [Row] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { try Row.fetchAll($0, sql: sql) }
    }

    @Test func derivedValuesAreComputedAtSave() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.checkedSetValue("Émile Zola", forKey: "name")
        // A value set on a derived attribute is not what the store keeps.
        try author.checkedSetValue(99, forKey: "bookCount")
        for (title, pages) in [("Nana", 400), ("Germinal", 600)] {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue(title, forKey: "title")
            try book.checkedSetValue(pages, forKey: "pages")
            try book.checkedSetValue(author, forKey: "author")
        }
        let before = Date()
        try context.save()
        // Core Data's count triggers are in the file, with its names.
        let triggers = try Self.rows(url, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").map {
            $0[0] as String
        }
        #expect(
            triggers == [
                "Z_DA_ZAUTHOR_Author_bookCount_SOURCE_INSERT", "Z_DA_ZBOOK_Author_bookCount_PARAMETER_DELETE",
                "Z_DA_ZBOOK_Author_bookCount_PARAMETER_INSERT",
                "Z_DA_ZBOOK_Author_bookCount_PARAMETER_UPDATE_DECREMENT",
                "Z_DA_ZBOOK_Author_bookCount_PARAMETER_UPDATE_INCREMENT",
            ])
        var row = try #require(
            try Self.rows(url, "SELECT ZSEARCHNAME, ZSHOUT, ZBOOKCOUNT, ZTOTALPAGES, ZTOUCHED FROM ZAUTHOR").first)
        #expect(row[0] as String? == "emile zola")
        #expect(row[1] as String? == "ÉMILE ZOLA")
        #expect(row[2] as Int? == 2)
        #expect(row[3] as Int? == 1000)
        #expect((row[4] as Double?).map { $0 >= before.timeIntervalSinceReferenceDate - 1 } == true)
        #expect(
            try Self.rows(url, "SELECT ZAUTHORNAME FROM ZBOOK").map { $0[0] as String? } == [
                "Émile Zola", "Émile Zola",
            ])

        // A change on the other side of a relationship: the count, the sum and the to-one path follow.
        let books = try #require(try author.checkedValue(forKey: "books") as? Set<ManagedObject>)
        let nana = try #require(books.first { (try? $0.checkedValue(forKey: "title") as? String) == "Nana" })
        try context.checkedDelete(nana)
        try author.checkedSetValue("Zola", forKey: "name")
        try context.save()
        row = try #require(try Self.rows(url, "SELECT ZSEARCHNAME, ZBOOKCOUNT, ZTOTALPAGES FROM ZAUTHOR").first)
        #expect(row[0] as String? == "zola")
        #expect(row[1] as Int? == 1)
        #expect(row[2] as Int? == 600)
        #expect(try Self.rows(url, "SELECT ZAUTHORNAME FROM ZBOOK").map { $0[0] as String? } == ["Zola"])

        // A new context reads what the store computed.
        let other = ManagedObjectContext(coordinator: coordinator)
        let fetched = try #require(try other.fetch(FetchRequest(entityName: "Author")).first)
        #expect(try fetched.checkedValue(forKey: "bookCount") as? Int == 1)
        #expect(try fetched.checkedValue(forKey: "searchName") as? String == "zola")
    }

    @Test func anExpressionTheStoreCannotComputeIsRefusedWhenTheStoreIsAdded() throws {
        let rounded = try Expression(checkedFormat: "FUNCTION(price, 'roundedValue')")
        let model = try ManagedObjectModel {
            EntityDescription("Item") {
                AttributeDescription("price", .double)
                AttributeDescription("rounded", .double, derivationExpression: rounded)
            }
        }
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let error = #expect(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Items.sqlite"))
        }
        #expect(error?.code == .persistentStoreIncompatibleSchema)
        #expect(error?.message.contains("derived attribute Item.rounded") == true, "\(error?.message ?? "")")
    }

    @Test func aStoreCoreDataWroteWithCountTriggersIsWrittenHereAndItsHistoryIsLeftIntact() throws {
        if AppleFixtures.skipping() { return }
        // CoreDataPlus's SampleModel2 store: Book.pagesCount is kept by Core Data's triggers,
        // which call functions Core Data registers; persistent history is in ACHANGE & co.
        AppleStoreContentsTests.registerTransformers()
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(AppleFixtures.sampleModel2, to: directory.url)
        let history = try Self.rows(
            url,
            "SELECT (SELECT COUNT(*) FROM ACHANGE), (SELECT COUNT(*) FROM ATRANSACTION), (SELECT COUNT(*) FROM ATRANSACTIONSTRING)"
        ).first
        let bookKey = try #require(
            try Self.rows(url, "SELECT Z_PK, ZPAGESCOUNT FROM ZBOOK WHERE Z_ENT = 1 ORDER BY Z_PK LIMIT 1").first)
        let key: Int64 = bookKey[0]
        let count: Int = bookKey[1]

        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModel2.version1())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Book")
        request.includesSubentities = false
        let book = try #require(try context.fetch(request).first { $0.objectID.primaryKey == key })
        let page = try context.insertNewObject(forEntityName: "Page")
        try page.checkedSetValue(9_999, forKey: "number")
        try page.checkedSetValue(
            KeyedArchive.ArchivedObject(classNames: ["Content", "NSObject"], fields: ["text": "a new page"]),
            forKey: "content")
        try page.checkedSetValue(book, forKey: "book")
        try context.save()

        #expect(try Self.rows(url, "SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = \(key)").first?[0] as Int? == count + 1)
        #expect(
            try Self.rows(
                url,
                "SELECT (SELECT COUNT(*) FROM ACHANGE), (SELECT COUNT(*) FROM ATRANSACTION), (SELECT COUNT(*) FROM ATRANSACTIONSTRING)"
            ).first == history)
        #expect(try Self.rows(url, "SELECT COUNT(*) FROM Z_PRIMARYKEY WHERE Z_ENT > 16000").first?[0] as Int? == 3)
    }
}
