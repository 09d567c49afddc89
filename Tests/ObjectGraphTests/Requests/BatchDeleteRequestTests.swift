import Foundation
import ObjectGraph
import Testing

/// NSBatchDeleteRequest and NSBatchDeleteResult, as Apple documents them, on every store type.
@Suite("Batch delete (NSBatchDeleteRequest)")
struct BatchDeleteRequestTests {
    @Test(
        "deletes what a fetch request matches and counts it (initWithFetchRequest:, NSBatchDeleteResultTypeCount)",
        arguments: batchRequestStoreTypes)
    func deletesMatching(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Item", objects: (1...6).map { ["code": "i\($0)", "count": $0] }))
        let fetch = FetchRequest(entityName: "Item")
        fetch.predicate = try Predicate(checkedFormat: "count > %@", 2)
        let request = BatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .count
        #expect(try fixture.context.execute(request).result as? Int == 4)
        #expect(try fixture.storedValues("Item", key: "code") == ["i1", "i2"])
    }

    @Test(
        "deletes by object ID; the deleted objects leave a context they are merged into (initWithObjectIDs:, mergeChanges(fromRemoteContextSave:into:))",
        arguments: batchRequestStoreTypes)
    func deletesByIDAndMerges(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type) else { return }
        try fixture.seedBooks(["A", "B", "C"])
        let books = try fixture.context.fetch(FetchRequest(entityName: "Book"))
        let doomed = books.filter { (try? $0.checkedValue(forKey: "title") as? String) != "B" }
        let request = BatchDeleteRequest(objectIDs: doomed.map(\.objectID))
        request.resultType = .objectIDs
        let ids = try #require(try fixture.context.execute(request).result as? [ManagedObjectID])
        #expect(Set(ids) == Set(doomed.map(\.objectID)))
        #expect(try fixture.storedValues("Book", key: "title") == ["B"])
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.deletedObjectsKey: ids], into: [fixture.context])
        #expect(doomed.allSatisfy { $0.managedObjectContext == nil })
        #expect(try fixture.context.fetch(FetchRequest(entityName: "Book")).count == 1)
    }

    @Test(
        "object IDs of two entities are refused, as Apple says mixing entity types is an error (NSBatchDeleteRequest)",
        arguments: batchRequestStoreTypes)
    func refusesMixedEntities(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type) else { return }
        let publisher = try fixture.seedBooks(["A"])
        let book = try #require(try fixture.context.fetch(FetchRequest(entityName: "Book")).first)
        let error = try #require(throws: CoreDataError.self) {
            _ = try fixture.context.execute(BatchDeleteRequest(objectIDs: [book.objectID, publisher.objectID]))
        }
        #expect(error.message.contains("one entity"))
        #expect(try fixture.storedValues("Book", key: "title") == ["A"])
    }

    // NSBatchDeleteRequest.h: "It is up to the developer creating the request to ensure that
    // changes made by the request to the underlying store do not violate any validation rules
    // specified in the model beyond basic delete rules" - the basic delete rules apply.
    @Test(
        "Cascade deletes the related objects too (NSBatchDeleteRequest.h: basic delete rules apply)",
        arguments: batchRequestStoreTypes)
    func cascades(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type) else { return }
        try fixture.seedBooks(["A", "B"], publisher: "Gone")
        try fixture.seedBooks(["C"], publisher: "Kept")
        let fetch = FetchRequest(entityName: "Publisher")
        fetch.predicate = try Predicate(checkedFormat: "name == %@", "Gone")
        let request = BatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .objectIDs
        let ids = try #require(try fixture.context.execute(request).result as? [ManagedObjectID])
        #expect(ids.map(\.entityName).sorted() == ["Book", "Book", "Publisher"])
        #expect(try fixture.storedValues("Book", key: "title") == ["C"])
        #expect(try fixture.storedValues("Publisher", key: "name") == ["Kept"])
    }

    @Test(
        "Nullify clears the related objects' to-one key and many-to-many links (NSBatchDeleteRequest.h: basic delete rules apply)",
        arguments: batchRequestStoreTypes)
    func nullifies(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        let department = try fixture.context.insertNewObject(forEntityName: "Department")
        try department.checkedSetValue("R&D", forKey: "name")
        for name in ["Ada", "Grace"] {
            let employee = try fixture.context.insertNewObject(forEntityName: "Employee")
            try employee.checkedSetValue(name, forKey: "name")
            try employee.checkedSetValue(department, forKey: "department")
        }
        try fixture.context.save()
        #expect(
            try fixture.context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Department"))).result
                as? Bool == true)
        let fresh = fixture.secondContext()
        let employees = try fresh.fetch(FetchRequest(entityName: "Employee"))
        #expect(employees.count == 2)
        #expect(try employees.allSatisfy { try $0.checkedValue(forKey: "department") == nil })

        // Book.authors (Nullify) is many-to-many: the links go, the authors stay.
        guard let books = try StackFixture.batch(type) else { return }
        let author = try books.context.insertNewObject(forEntityName: "Author")
        try author.checkedSetValue("Zarra", forKey: "name")
        try books.seedBooks(["A"])
        let book = try #require(try books.context.fetch(FetchRequest(entityName: "Book")).first)
        try book.mutableSetValue(forKey: "authors").insert(author)
        try books.context.save()
        _ = try books.context.execute(BatchDeleteRequest(objectIDs: [book.objectID]))
        let reader = books.secondContext()
        let stored = try #require(try reader.fetch(FetchRequest(entityName: "Author")).first)
        #expect((try stored.checkedValue(forKey: "books") as? Set<ManagedObject>)?.isEmpty == true)
    }

    @Test(
        "Deny refuses the delete with 1600 while a related object would remain, and deletes nothing (NSValidationRelationshipDeniedDeleteError)",
        arguments: batchRequestStoreTypes)
    func denies(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type) else { return }
        try fixture.seedBooks(["A"])
        let author = try fixture.context.insertNewObject(forEntityName: "Author")
        try author.checkedSetValue("Zarra", forKey: "name")
        let book = try #require(try fixture.context.fetch(FetchRequest(entityName: "Book")).first)
        try author.mutableSetValue(forKey: "books").insert(book)
        try fixture.context.save()
        let error = try #require(throws: CoreDataError.self) {
            _ = try fixture.context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Author")))
        }
        #expect(error.code == .relationshipDeniedDelete)
        #expect(error.key == "books")
        #expect(try fixture.storedValues("Author", key: "name") == ["Zarra"])
    }

    @Test(
        "No Action leaves the related objects alone; an XML or binary file cannot keep a reference to a deleted object, so there it fails with 133020 (NSDeleteRule.noActionDeleteRule)",
        arguments: batchRequestStoreTypes)
    func noAction(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        let owner = try fixture.context.insertNewObject(forEntityName: "Owner")
        let pet = try fixture.context.insertNewObject(forEntityName: "Pet")
        try pet.checkedSetValue("Rex", forKey: "name")
        try pet.checkedSetValue(owner, forKey: "owner")
        try fixture.context.save()
        let request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Owner"))
        if type == .xml || type == .binary {
            let error = try #require(throws: CoreDataError.self) { try fixture.context.execute(request) }
            #expect(error.code == .merge)
            #expect(try fixture.storedValues("Owner", key: "name") == ["nil"])
        } else {
            _ = try fixture.context.execute(request)
            #expect(try fixture.storedValues("Owner", key: "name").isEmpty)
            #expect(try fixture.storedValues("Pet", key: "name") == ["Rex"])
        }
    }
}
