import Foundation
import ObjectGraph
import Testing

/// NSBatchInsertRequest, as Apple documents it, on every store type.
@Suite("Batch insert (NSBatchInsertRequest)")
struct BatchInsertRequestTests {
    @Test(
        "inserts dictionaries and returns their IDs (NSBatchInsertRequest, NSBatchInsertRequestResultType.objectIDs)",
        arguments: batchRequestStoreTypes)
    func insertsDictionaries(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        let request = BatchInsertRequest(
            entityName: "Item", objects: [["code": "a", "name": "Apple", "count": 3], ["code": "b"]])
        request.resultType = .objectIDs
        let ids = try #require(try fixture.context.execute(request).result as? [ManagedObjectID])
        #expect(ids.count == 2)
        #expect(try fixture.storedValues("Item", key: "name") == ["Apple", "nil"])
        // Defaults fill what a dictionary leaves out, as for a new object.
        let b = try fixture.secondContext().existingObject(with: ids[1])
        #expect(try b.checkedValue(forKey: "count") as? Int == 0)
        // The keys came from the store's key allocation: a later save gets a new one.
        let later = try fixture.context.insertNewObject(forEntityName: "Item")
        try later.checkedSetValue("c", forKey: "code")
        try fixture.context.save()
        #expect(later.objectID.primaryKey > ids.map(\.primaryKey).max()!)
    }

    @Test(
        "a dictionary handler is called until it returns true (initWithEntityName:dictionaryHandler:, resultType count)",
        arguments: batchRequestStoreTypes)
    func dictionaryHandler(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        var n = 0
        let request = BatchInsertRequest(entityName: "Item") { (dictionary: inout [String: Any]) in
            guard n < 5 else { return true }
            dictionary = ["code": "code-\(n)", "count": n]
            n += 1
            return false
        }
        request.resultType = .count
        #expect(try fixture.context.execute(request).result as? Int == 5)
        #expect(try fixture.storedValues("Item", key: "code") == (0..<5).map { "code-\($0)" })
    }

    @Test(
        "a managed-object handler sets values on a new object per call (initWithEntityName:managedObjectHandler:)",
        arguments: batchRequestStoreTypes)
    func managedObjectHandler(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        var n = 0
        let request = BatchInsertRequest(entityName: "Item") { (object: ManagedObject) in
            guard n < 3 else { return true }
            try object.checkedSetValue("m\(n)", forKey: "code")
            try object.checkedSetValue("Name \(n)", forKey: "name")
            n += 1
            return false
        }
        #expect(try fixture.context.execute(request).result as? Bool == true)
        #expect(try fixture.storedValues("Item", key: "name") == ["Name 0", "Name 1", "Name 2"])
        #expect(!fixture.context.hasChanges)
    }

    @Test(
        "a bad value, an unknown key or a missing mandatory value names entity, key and index, and writes nothing",
        arguments: batchRequestStoreTypes)
    func refusesBadDictionaries(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        let cases: [([[String: Any]], String)] = [
            ([["code": "a"], ["code": "b", "count": "many"]], "\"count\" in the dictionary at index 1"),
            (
                [["code": "a"], ["code": "b"], ["code": "c", "colour": "red"]],
                "unknown key \"colour\" in the dictionary at index 2"
            ),
            ([["name": "no code"]], "mandatory attribute \"code\" in the dictionary at index 0"),
        ]
        for (objects, fragment) in cases {
            let error = try #require(throws: CoreDataError.self) {
                try fixture.context.execute(BatchInsertRequest(entityName: "Item", objects: objects))
            }
            #expect(error.message.contains("Item"))
            #expect(error.message.contains(fragment), "\(error.message)")
        }
        #expect(try fixture.storedValues("Item", key: "code").isEmpty)
    }

    @Test(
        "uniqueness constraints: .error fails with 133021, object trump upserts, store trump keeps the stored object (NSBatchInsertRequest with constraints)",
        arguments: batchRequestStoreTypes)
    func constraints(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Item", objects: [["code": "a", "name": "First", "count": 1]]))

        let duplicate = [["code": "a", "name": "Second"], ["code": "b", "name": "Bee"]]
        let error = try #require(throws: CoreDataError.self) {
            try fixture.context.execute(BatchInsertRequest(entityName: "Item", objects: duplicate))
        }
        #expect(error.code == .constraintMerge)
        #expect(try fixture.storedValues("Item", key: "name") == ["First"])

        fixture.context.mergePolicy = .mergeByPropertyStoreTrump
        _ = try fixture.context.execute(BatchInsertRequest(entityName: "Item", objects: duplicate))
        #expect(try fixture.storedValues("Item", key: "name") == ["Bee", "First"])

        fixture.context.mergePolicy = .mergeByPropertyObjectTrump
        _ = try fixture.context.execute(
            BatchInsertRequest(
                entityName: "Item",
                objects: [
                    ["code": "a", "name": "Third"], ["code": "c", "name": "Sea"], ["code": "c", "name": "See"],
                ]))
        #expect(try fixture.storedValues("Item", key: "name") == ["Bee", "See", "Third"])
        // The upsert kept the values the dictionary did not give.
        #expect(try fixture.storedValues("Item", key: "count") == ["0", "0", "1"])
    }
}
