import Foundation
import Testing

@testable import ObjectGraph

/// A batch insert writes values through its own checks and the store's insert, not a context:
/// every value the value corpus holds must come back exactly, as a save's do (Apple,
/// NSBatchInsertRequest: "objectsToInsert … dictionaries of attribute values"; Core Data
/// Programming Guide, "Persistent Store Types and Behaviors").
@Suite struct BatchInsertValueTests {
    @Test("the value corpus comes back exactly from a batch insert (NSBatchInsertRequest)", arguments: batchStoreTypes)
    func theCorpusComesBackExactly(type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (model, url, coordinator) = try ValueCorpus.store(type, in: directory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = ValueCorpus.values.enumerated().map { ordinal, entry -> [String: Any] in
            ["ordinal": ordinal, entry.key: entry.value]
        }
        let request = BatchInsertRequest(entityName: "Holder", objects: objects)
        request.resultType = .count
        #expect((try context.execute(request) as? BatchInsertResult)?.result as? Int == objects.count)

        try ValueCorpus.expectReadBack(model: model, type: type, url: url, coordinator: coordinator)
    }
}
