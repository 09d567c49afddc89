import Foundation
import ObjectGraph
import Testing

/// mergeChanges(fromRemoteContextSave:into:), and the fetch request's returnsObjectsAsFaults
/// and includesPropertyValues, as Apple documents them.
@Suite("Remote merges and fetched faults")
struct RemoteMergeTests {
    @Test(
        "URI representations merge as object IDs do, into several contexts, each on its queue (mergeChanges(fromRemoteContextSave:into:): NSArray of NSManagedObjectID or NSURL)",
        arguments: [StoreType.sqlite, .inMemory])
    func urisIntoSeveralContexts(_ type: StoreType) throws {
        let fixture = try StackFixture(type, model: try batchModel())
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Item", objects: [["code": "a", "name": "Old"], ["code": "b"]]))
        let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let held = try fixture.context.fetch(FetchRequest(entityName: "Item"))
        let backgroundHeld: [ManagedObjectID] = try background.performAndWait {
            try background.fetch(FetchRequest(entityName: "Item")).map(\.objectID)
        }
        #expect(backgroundHeld.count == 2)

        let update = BatchUpdateRequest(entityName: "Item")
        update.predicate = try Predicate(checkedFormat: "code == %@", "a")
        update.propertiesToUpdate = ["name": "New"]
        update.resultType = .updatedObjectIDs
        let updated = try #require(try fixture.context.execute(update).result as? [ManagedObjectID])
        let delete = BatchDeleteRequest(
            fetchRequest: {
                let r = FetchRequest(entityName: "Item")
                r.predicate = try? Predicate(checkedFormat: "code == %@", "b")
                return r
            }())
        delete.resultType = .objectIDs
        let deleted = try #require(try fixture.context.execute(delete).result as? [ManagedObjectID])

        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [
                ManagedObjectContext.updatedObjectsKey: updated.map { $0.uriRepresentation() },
                ManagedObjectContext.deletedObjectIDsKey: Set(deleted),
            ], into: [fixture.context, background])

        let a = try #require(held.first { (try? $0.checkedValue(forKey: "code") as? String) == "a" })
        #expect(try a.checkedValue(forKey: "name") as? String == "New")
        #expect(held.filter { $0.managedObjectContext != nil }.count == 1)
        let names: [String] = try background.performAndWait {
            try background.fetch(FetchRequest(entityName: "Item")).map {
                try $0.checkedValue(forKey: "name") as? String ?? "nil"
            }
        }
        #expect(names == ["New"])
    }

    @Test(
        "an inserted object's ID is fetched by the next fetch after a merge (mergeChanges(fromRemoteContextSave:into:), NSInsertedObjectsKey)"
    )
    func insertedIDs() throws {
        let fixture = try StackFixture(.sqlite, model: try batchModel())
        #expect(try fixture.context.fetch(FetchRequest(entityName: "Item")).isEmpty)
        let insert = BatchInsertRequest(entityName: "Item", objects: [["code": "n"]])
        insert.resultType = .objectIDs
        let ids = try #require(try fixture.context.execute(insert).result as? [ManagedObjectID])
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.insertedObjectsKey: ids], into: [fixture.context])
        #expect(try fixture.context.fetch(FetchRequest(entityName: "Item")).map(\.objectID) == ids)
    }

    @Test(
        "includesPropertyValues false fetches IDs only: on SQLite the objects are faults until used (NSFetchRequest.includesPropertyValues)",
        arguments: batchStoreTypes)
    func withoutPropertyValues(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        try fixture.seedBooks(["A", "B"])
        let fresh = fixture.secondContext()
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "title")]
        request.includesPropertyValues = false
        let sql = try fixture.sql {
            let books = try fresh.fetch(request)
            #expect(books.count == 2)
            // An atomic store evaluates the request on loaded objects (its whole contents are
            // in memory); SQLite answers with keys alone.
            let allFaults = books.allSatisfy { $0.isFault }
            #expect(allFaults == (type == .sqlite))
            #expect(try books.map { try $0.checkedValue(forKey: "title") as? String } == ["A", "B"])
        }
        if type == .sqlite { #expect(sql.first?.contains("SELECT t0.Z_PK, t0.Z_ENT FROM ZBOOK") == true) }
    }

    @Test(
        "returnsObjectsAsFaults false returns every object loaded, a batch size notwithstanding (NSFetchRequest.returnsObjectsAsFaults)",
        arguments: batchStoreTypes)
    func notAsFaults(_ type: StoreType) throws {
        let fixture = try StackFixture(type)
        try fixture.seedBooks(["A", "B", "C"])
        let request = FetchRequest(entityName: "Book")
        request.fetchBatchSize = 1
        #expect(request.returnsObjectsAsFaults)
        request.returnsObjectsAsFaults = false
        let loaded = try fixture.secondContext().fetch(request)
        #expect(loaded.count == 3)
        #expect(loaded.allSatisfy { !$0.isFault })
        request.includesPropertyValues = false
        #expect(try fixture.secondContext().fetch(request).allSatisfy { !$0.isFault })
        #expect(request.copy().returnsObjectsAsFaults == false && request.copy().includesPropertyValues == false)
    }
}
