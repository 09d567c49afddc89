import Foundation
import ObjectGraph
import Testing

/// NSBatchUpdateRequest and NSBatchUpdateResult, as Apple documents them, on every store type.
@Suite("Batch update (NSBatchUpdateRequest)")
struct BatchUpdateRequestTests {
    /// Five items, counts 1 to 5, codes i1 to i5.
    private func seeded(_ type: StoreType, test: String = #function) throws -> StackFixture? {
        guard let fixture = try StackFixture.batch(type, model: try batchModel(), test: test) else { return nil }
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Item", objects: (1...5).map { ["code": "i\($0)", "count": $0] }))
        return fixture
    }

    @Test(
        "updates the objects a predicate matches, to constants and expressions (propertiesToUpdate, updatedObjectsCountResultType)",
        arguments: batchRequestStoreTypes)
    func updatesMatching(_ type: StoreType) throws {
        guard let fixture = try seeded(type) else { return }
        let request = BatchUpdateRequest(entityName: "Item")
        request.predicate = try Predicate(checkedFormat: "count >= %@", 3)
        request.propertiesToUpdate = ["done": true, "count": try Expression(checkedFormat: "count + 10")]
        request.resultType = .updatedObjectsCount
        #expect(try fixture.context.execute(request).result as? Int == 3)
        #expect(try fixture.storedValues("Item", key: "count") == ["1", "13", "14", "15", "2"])
        #expect(try fixture.storedValues("Item", key: "done") == ["false", "false", "true", "true", "true"])
    }

    @Test(
        "updatedObjectIDsResultType lists the updated objects; merged, they show the new values (NSUpdatedObjectIDsResultType, mergeChanges(fromRemoteContextSave:into:))",
        arguments: batchRequestStoreTypes)
    func idsAndMerge(_ type: StoreType) throws {
        guard let fixture = try seeded(type) else { return }
        let held = try fixture.context.fetch(FetchRequest(entityName: "Item"))
        let request = BatchUpdateRequest(entityName: "Item")
        request.predicate = try Predicate(checkedFormat: "code == %@", "i2")
        request.propertiesToUpdate = ["name": "Renamed"]
        request.resultType = .updatedObjectIDs
        let ids = try #require(try fixture.context.execute(request).result as? [ManagedObjectID])
        let i2 = try #require(held.first { (try? $0.checkedValue(forKey: "code") as? String) == "i2" })
        #expect(ids == [i2.objectID])
        // The context is not told by the update itself, as Apple documents.
        #expect(try i2.checkedValue(forKey: "name") == nil)
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.updatedObjectsKey: ids], into: [fixture.context])
        #expect(try i2.checkedValue(forKey: "name") as? String == "Renamed")
    }

    @Test(
        "a batch update raises row versions: a context holding a changed object gets 133020 at save (NSBatchUpdateRequest, NSMergeConflict)",
        arguments: batchRequestStoreTypes)
    func bumpsVersions(_ type: StoreType) throws {
        guard let fixture = try seeded(type) else { return }
        let item = try #require(try fixture.context.fetch(FetchRequest(entityName: "Item")).first)
        try item.checkedSetValue("Local", forKey: "name")
        let request = BatchUpdateRequest(entityName: "Item")
        request.propertiesToUpdate = ["count": 99]
        _ = try fixture.secondContext().execute(request)
        let error = try #require(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error.code == .merge)
    }

    @Test(
        "includesSubentities false leaves sub-entities' objects alone (NSBatchUpdateRequest.includesSubentities)",
        arguments: batchRequestStoreTypes)
    func subentities(_ type: StoreType) throws {
        guard let fixture = try StackFixture.batch(type, model: try batchModel()) else { return }
        _ = try fixture.context.execute(BatchInsertRequest(entityName: "Task", objects: [["title": "task"]]))
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Chore", objects: [["title": "chore", "room": "kitchen"]]))
        let request = BatchUpdateRequest(entityName: "Task")
        request.includesSubentities = false
        request.propertiesToUpdate = ["priority": 5]
        request.resultType = .updatedObjectsCount
        #expect(try fixture.context.execute(request).result as? Int == 1)
        #expect(try fixture.storedValues("Task", key: "priority") == ["1", "5"])
    }

    @Test(
        "an unknown key or a value of the wrong type is an error naming the entity and key; nothing changes",
        arguments: batchRequestStoreTypes)
    func refusesBadProperties(_ type: StoreType) throws {
        guard let fixture = try seeded(type) else { return }
        for properties in [["colour": "red"], ["count": "many"], ["code": NSNull()]] as [[String: Any]] {
            let request = BatchUpdateRequest(entityName: "Item")
            request.propertiesToUpdate = properties
            let error = try #require(throws: CoreDataError.self) { try fixture.context.execute(request) }
            #expect(error.message.contains("Item"))
            #expect(error.key == properties.keys.first)
        }
        #expect(try fixture.storedValues("Item", key: "count") == ["1", "2", "3", "4", "5"])
    }
}
