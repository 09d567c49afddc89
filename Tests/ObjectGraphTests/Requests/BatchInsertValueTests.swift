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
        let model = try ValueCorpus.model()
        let url = type == .inMemory ? nil : directory.file("corpus.\(type.rawValue)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = ValueCorpus.values.enumerated().map { ordinal, entry -> [String: Any] in ["ordinal": ordinal, entry.key: entry.value] }
        let request = BatchInsertRequest(entityName: "Holder", objects: objects)
        request.resultType = .count
        #expect((try context.execute(request) as? BatchInsertResult)?.result as? Int == objects.count)

        var reader = ManagedObjectContext(coordinator: coordinator)
        if let url {
            let again = PersistentStoreCoordinator(managedObjectModel: model)
            try again.addPersistentStore(type: type, at: url)
            reader = ManagedObjectContext(coordinator: again)
        }
        var byOrdinal: [Int: ManagedObject] = [:]
        for object in try reader.fetch(FetchRequest(entityName: "Holder")) {
            byOrdinal[try object.value(forKey: "ordinal") as? Int ?? -1] = object
        }
        #expect(byOrdinal.count == ValueCorpus.values.count)
        for (ordinal, entry) in ValueCorpus.values.enumerated() {
            let object = try #require(byOrdinal[ordinal], "\(type): \(entry.label) is missing")
            let got = try object.value(forKey: entry.key)
            if type == .sqlite, let d = entry.value as? Double, d == 0, d.sign == .minus {
                // SQLite keeps a whole REAL as an INTEGER: -0.0 comes back 0.0, as from a save.
                #expect(got as? Double == 0, "\(type): \(entry.label) came back as \(ValueCorpus.describe(got))")
                continue
            }
            #expect(ValueCorpus.same(got, entry.value), "\(type): \(entry.label) came back as \(ValueCorpus.describe(got))")
        }
    }
}
